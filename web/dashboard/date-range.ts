/**
 * The daily chart's date range. The backend counts calendar days in UTC ('YYYY-MM-DD'), so the
 * range is computed in UTC too: a browser east of Greenwich must not ask for tomorrow.
 */

export const DEFAULT_RANGE_DAYS = 30;
/** The backend refuses longer ranges; checking first avoids a round trip that can only fail. */
export const MAX_RANGE_DAYS = 366;
export const RANGE_PRESETS = [7, 30, 90] as const;

const DAY_MS = 86_400_000;
const DAY_KEY = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface DateRange {
  startDate: string;
  endDate: string;
}

export function dayKey(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Midnight UTC of a 'YYYY-MM-DD' key, or null for anything that is not a real day. */
export function parseDayKey(key: string): number | null {
  const m = DAY_KEY.exec(key);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return dayKey(ms) === key ? ms : null;
}

/** The last `days` days up to and including today. */
export function lastDays(nowMs: number, days: number = DEFAULT_RANGE_DAYS): DateRange {
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  return { startDate: dayKey(today - (days - 1) * DAY_MS), endDate: dayKey(today) };
}

export function rangeDays(range: DateRange): number | null {
  const start = parseDayKey(range.startDate);
  const end = parseDayKey(range.endDate);
  if (start === null || end === null) return null;
  return Math.round((end - start) / DAY_MS) + 1;
}

export type RangeProblem = 'invalid' | 'reversed' | 'tooLong';

export function rangeProblem(range: DateRange): RangeProblem | null {
  const days = rangeDays(range);
  if (days === null) return 'invalid';
  if (days < 1) return 'reversed';
  if (days > MAX_RANGE_DAYS) return 'tooLong';
  return null;
}

/** Which preset, if any, the range equals, so its button can show as pressed. */
export function matchingPreset(range: DateRange, nowMs: number): number | null {
  for (const days of RANGE_PRESETS) {
    const preset = lastDays(nowMs, days);
    if (preset.startDate === range.startDate && preset.endDate === range.endDate) return days;
  }
  return null;
}
