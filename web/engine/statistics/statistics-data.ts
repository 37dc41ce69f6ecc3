import type { StatisticsResource } from '#contract';

/** Date range and dimension of a statistics page, kept in the URL like a list's state. */

export const DEFAULT_DAYS = 30;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface StatsState {
  startDate: string;
  endDate: string;
  dimension: string;
}

export function isoDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** The last 30 days, today included, in local dates. */
export function defaultRange(now = new Date()): { startDate: string; endDate: string } {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (DEFAULT_DAYS - 1));
  return { startDate: isoDate(start), endDate: isoDate(now) };
}

export function parseStatsState(
  search: string,
  resource: Pick<StatisticsResource, 'dimension'>,
  now = new Date(),
): StatsState {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const range = defaultRange(now);
  const start = params.get('startDate') ?? '';
  const end = params.get('endDate') ?? '';
  const valid = DATE.test(start) && DATE.test(end) && start <= end;
  const dimension = params.get(resource.dimension?.key ?? '') ?? '';
  return {
    startDate: valid ? start : range.startDate,
    endDate: valid ? end : range.endDate,
    dimension: resource.dimension?.options.includes(dimension) ? dimension : '',
  };
}

export function serialiseStatsState(
  state: StatsState,
  resource: Pick<StatisticsResource, 'dimension'>,
  now = new Date(),
): string {
  const params = new URLSearchParams();
  const range = defaultRange(now);
  if (state.startDate !== range.startDate || state.endDate !== range.endDate) {
    params.set('startDate', state.startDate);
    params.set('endDate', state.endDate);
  }
  if (resource.dimension && state.dimension) params.set(resource.dimension.key, state.dimension);
  return params.toString();
}

export type StatRow = Record<string, unknown>;

/**
 * One point per date for the chart, series summed over the dimension's rows (an answer for all
 * channels has one row per channel and day); money stays in the smallest unit here.
 */
export function sumByDate(
  rows: readonly StatRow[],
  keys: readonly string[],
): { dates: string[]; values: Record<string, number[]> } {
  const byDate = new Map<string, Record<string, number>>();
  for (const row of rows) {
    const date = String(row.date ?? '');
    if (!DATE.test(date)) continue;
    const acc = byDate.get(date) ?? Object.fromEntries(keys.map((k) => [k, 0]));
    for (const k of keys) {
      const n = Number(row[k]);
      if (Number.isFinite(n)) acc[k] = (acc[k] ?? 0) + n;
    }
    byDate.set(date, acc);
  }
  const dates = [...byDate.keys()].sort();
  const values = Object.fromEntries(keys.map((k) => [k, dates.map((d) => byDate.get(d)![k] ?? 0)]));
  return { dates, values };
}

/** UTC midnight of a YYYY-MM-DD date, in Unix seconds: the chart's day axis counts in UTC days. */
export function dateSeconds(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  return Date.UTC(y!, (m ?? 1) - 1, d ?? 1) / 1000;
}
