import { useSignals } from '@preact/signals-react/runtime';
import { size, type Size } from '../lib/settings.js';

/**
 * The size setting already scales the root font; on top of that, denser sizes tighten the table
 * cells and inputs so Mini really shows more rows, while Default keeps generous click targets.
 * Medium's cells sit closer on laptop screens (below 1536 px): the widest lists then fit a dozen
 * columns with phone numbers and dates kept whole.
 */
export interface Density {
  cell: string;
  input: string;
  button: string;
  text: string;
  chartHeight: number;
}

export const DENSITY: Record<Size, Density> = {
  default: { cell: 'px-4 py-3', input: 'px-3 py-2', button: 'px-4 py-2', text: 'text-base', chartHeight: 340 },
  medium: {
    cell: 'px-2 py-2 2xl:px-3',
    input: 'px-2.5 py-1.5',
    button: 'px-3 py-1.5',
    text: 'text-sm',
    chartHeight: 300,
  },
  small: { cell: 'px-2 py-1.5', input: 'px-2 py-1', button: 'px-2.5 py-1', text: 'text-sm', chartHeight: 260 },
  mini: { cell: 'px-2 py-1', input: 'px-1.5 py-0.5', button: 'px-2 py-0.5', text: 'text-xs', chartHeight: 220 },
};

export function useDensity(): Density {
  useSignals();
  return DENSITY[size.value];
}
