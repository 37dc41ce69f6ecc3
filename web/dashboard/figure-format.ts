import { useSignals } from '@preact/signals-react/runtime';
import { session } from '../api/session.js';
import { language } from '../lib/settings.js';
import type { FigureFormat } from './shaping.js';

/** The reader's language and the wallet's currency (CURRENCY, from the session), for the dashboard's figures. */
export function useFigureFormat(): FigureFormat {
  useSignals();
  return { lang: language.value, currency: session.value?.currency ?? '' };
}
