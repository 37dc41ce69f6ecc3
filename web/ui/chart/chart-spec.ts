import type uPlot from 'uplot';
import type { Size } from '../../lib/settings.js';

/**
 * What a chart shows, independent of uPlot; buildChartOptions turns it into uPlot options. Kept
 * free of DOM access so the axis and legend wiring is unit-tested.
 */

export type Formatter = (value: number) => string;

export interface ChartSeriesSpec {
  /** Translated legend and tooltip label. */
  label: string;
  color: string;
  axis: 'left' | 'right';
  format: Formatter;
}

export interface ChartAxisSpec {
  label: string;
  /** Tick text: shortened, since the exact figure is in the tooltip. */
  format: Formatter;
  /** A fixed range (percentages); otherwise fitted to the data from zero. */
  range?: [number, number];
}

export interface ChartSpec {
  /** 'day': x is midnight UTC of calendar days; 'time': x is a moment, shown in local time. */
  xKind: 'day' | 'time';
  /** Names x in the tooltip, and under the axis unless `xAxisUnlabelled`. */
  xLabel: string;
  /** No title under the x axis: panels stacked over one range need it once, not under each. */
  xAxisUnlabelled?: boolean;
  locale: string;
  series: ChartSeriesSpec[];
  left: ChartAxisSpec;
  right?: ChartAxisSpec;
  /**
   * The last x is a period still being counted (today): named so in the tooltip, and its segment
   * of each line drawn dashed and lighter (uplot-loader's partialLastPlugin), so a day half over
   * never reads as a fall.
   */
  partialLast?: { label: string };
}

/** The x heading of the tooltip, naming the last x as partial when the spec says it is. */
export function headingWithPartial(
  spec: Pick<ChartSpec, 'xKind' | 'locale' | 'partialLast'>,
  lastX: () => number | undefined,
): Formatter {
  const full = xFormatter(spec, 'full');
  const partial = spec.partialLast;
  if (!partial) return full;
  return (x) => (x === lastX() ? `${full(x)} · ${partial.label}` : full(x));
}

/** Axis text sizes per size setting: Mini shrinks the chart, never below a legible 11 px. */
export const CHART_FONT_PX: Record<Size, number> = { default: 14, medium: 13, small: 12, mini: 11 };

export const PALETTE = ['#409eff', '#67c23a', '#e6a23c', '#f56c6c', '#909399', '#8e44ad'] as const;

const DAY_INCRS = [1, 2, 7, 14, 30, 61, 91, 182, 365].map((d) => d * 86_400);
const TIME_INCRS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600];

/** Axis text and grid lines, readable on the chart's surface in each colour scheme (canvas, so no CSS). */
const AXIS_COLORS = {
  light: { axis: '#475569', grid: 'rgba(148,163,184,0.35)' },
  dark: { axis: '#cbd5e1', grid: 'rgba(148,163,184,0.25)' },
} as const;

/** Formats an x value (Unix seconds) as a tick or as the tooltip's heading. */
export function xFormatter(spec: Pick<ChartSpec, 'xKind' | 'locale'>, detail: 'tick' | 'full'): Formatter {
  const options: Intl.DateTimeFormatOptions =
    spec.xKind === 'day'
      ? detail === 'tick'
        ? { month: 'short', day: 'numeric', timeZone: 'UTC' }
        : { year: 'numeric', month: 'short', day: 'numeric', weekday: 'short', timeZone: 'UTC' }
      : { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false };
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat(spec.locale, options);
  } catch {
    format = new Intl.DateTimeFormat('en', options);
  }
  return (seconds) => format.format(new Date(seconds * 1000));
}

export interface ChartSize {
  width: number;
  height: number;
  fontPx: number;
  /** The colour scheme the chart is drawn on; light when absent. */
  scheme?: 'light' | 'dark';
}

/** Room for the tick text of a y axis, from the widest label the formatter can produce. */
function yAxisSize(fontPx: number): number {
  return Math.round(fontPx * 4.2);
}

export function buildChartOptions(
  spec: ChartSpec,
  size: ChartSize,
  extra: Pick<uPlot.Options, 'plugins' | 'tzDate'> = {},
): uPlot.Options {
  const font = `${size.fontPx}px system-ui, sans-serif`;
  const labelFont = `600 ${size.fontPx}px system-ui, sans-serif`;
  const tick = xFormatter(spec, 'tick');
  // The tooltip's x heading, built once; it reads the plot it is asked about for the last x.
  let shown: uPlot | null = null;
  const heading = headingWithPartial(spec, () => shown?.data[0].at(-1));
  const colors = AXIS_COLORS[size.scheme ?? 'light'];
  const axisCommon = {
    stroke: colors.axis,
    font,
    labelFont,
    labelSize: Math.round(size.fontPx * 1.8),
    grid: { stroke: colors.grid, width: 1 },
    ticks: { stroke: colors.grid, width: 1 },
  };

  const scales: uPlot.Scales = {
    x: { time: true },
    left: spec.left.range ? { range: spec.left.range } : { range: (_u, _min, max) => [0, niceMax(max)] },
  };
  const axes: uPlot.Axis[] = [
    {
      ...axisCommon,
      ...(spec.xAxisUnlabelled ? { labelSize: 0 } : { label: spec.xLabel }),
      // Tick spacing grows with the font so labels never overlap in Default.
      space: size.fontPx * (spec.xKind === 'day' ? 5 : 6),
      // Whole seconds and whole days only: a half-second tick would repeat the label beside it.
      incrs: spec.xKind === 'day' ? DAY_INCRS : TIME_INCRS,
      values: (_u, splits) => splits.map((s) => tick(s)),
    },
    {
      ...axisCommon,
      scale: 'left',
      label: spec.left.label,
      size: yAxisSize(size.fontPx),
      values: (_u, splits) => splits.map((s) => spec.left.format(s)),
    },
  ];
  if (spec.right) {
    const right = spec.right;
    scales.right = right.range ? { range: right.range } : { range: (_u, _min, max) => [0, niceMax(max)] };
    axes.push({
      ...axisCommon,
      scale: 'right',
      side: 1,
      label: right.label,
      size: yAxisSize(size.fontPx),
      // One grid is enough; a second set of lines would cross the first.
      grid: { show: false },
      values: (_u, splits) => splits.map((s) => right.format(s)),
    });
  }

  return {
    width: size.width,
    height: size.height,
    scales,
    axes,
    series: [
      {
        label: spec.xLabel,
        value: (u, v) => {
          shown = u;
          return v == null ? '' : heading(v);
        },
      },
      ...spec.series.map<uPlot.Series>((s) => ({
        label: s.label,
        scale: s.axis,
        stroke: s.color,
        width: 2,
        points: { show: false },
        value: (_u, v) => (v == null ? '–' : s.format(v)),
      })),
    ],
    cursor: { drag: { x: false, y: false }, points: { size: Math.max(6, size.fontPx * 0.6) } },
    // The tooltip carries the live values; the legend stays a key and a series toggle.
    legend: { live: false },
    ...extra,
  };
}

/** The top of an auto-fitted axis: a little headroom, and a flat zero line still has height. */
export function niceMax(max: number | null): number {
  if (max === null || !Number.isFinite(max) || max <= 0) return 1;
  const padded = max * 1.1;
  const magnitude = 10 ** Math.floor(Math.log10(padded));
  const step = padded / magnitude;
  const nice = step <= 1 ? 1 : step <= 2 ? 2 : step <= 2.5 ? 2.5 : step <= 5 ? 5 : 10;
  return nice * magnitude;
}
