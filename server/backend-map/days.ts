import { GatewayError } from '../errors.js';
import type { DaySeries } from './bound.js';
import type { FieldBinding } from './fields.js';
import { readPointer, type Pointer } from './pointer.js';
import { nextDay } from './values.js';

/**
 * Counts keyed by day (`answer.days`): backends that answer statistics as a map of days
 * (OpenIM's `{"date_count": {"2024-06-01": 3}}`) or a list of one-key objects (Shiku's
 * `[{"2024-06-01": 3}]`) rather than rows. A statistics screen gets one row per day of the range
 * it asked for, days the backend left out as zero; a figure (a dashboard card) gets the sum.
 */

type Row = Record<string, unknown>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Ten years of days: a wider range is answered with the days the backend named only, never filled. */
const MAX_FILLED_DAYS = 3660;

/** The days a statistics call asked for (startDate, endDate), when both are days in order. */
export function dayRange(input: Row): { from: string; to: string } | null {
  const { startDate: from, endDate: to } = input;
  return typeof from === 'string' && typeof to === 'string' && DAY.test(from) && DAY.test(to) && from <= to
    ? { from, to }
    : null;
}

/** The [day, count] pairs of one series: a map's members, a list's objects' members, none for null. */
function pairsOf(value: unknown, where: string): [string, unknown][] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((item) => pairsOf(item, where));
  if (typeof value === 'object') return Object.entries(value as Row);
  throw new GatewayError('UPSTREAM_BAD_ANSWER', `${where}: the days are ${JSON.stringify(value)}, not a map of days`);
}

function count(value: unknown, fields: FieldBinding, key: string, where: string, day: string): number {
  const codec = fields.byKey.get(key)?.codec;
  const read = codec ? codec.fromBackend(value) : value;
  const n = typeof read === 'string' && read.trim() !== '' ? Number(read) : read;
  if (typeof n !== 'number' || !Number.isFinite(n))
    throw new GatewayError('UPSTREAM_BAD_ANSWER', `${where}: ${day} counts ${JSON.stringify(value)}`);
  return n;
}

/** Each series' counts per day, read from the answer: date -> {key: count}. */
export function readDays(
  json: unknown,
  series: readonly DaySeries[],
  fields: FieldBinding,
  path: string,
): Map<string, Row> {
  const byDay = new Map<string, Row>();
  for (const { key, at } of series) {
    const where = `${path} ${key}`;
    for (const [day, value] of pairsOf(readPointer(json, at), where)) {
      if (!DAY.test(day)) throw new GatewayError('UPSTREAM_BAD_ANSWER', `${where}: "${day}" is not a day (YYYY-MM-DD)`);
      const row = byDay.get(day) ?? { date: day };
      row[key] = ((row[key] as number | undefined) ?? 0) + count(value, fields, key, where, day);
      byDay.set(day, row);
    }
  }
  return byDay;
}

/** Each series' sum over the answer's days: a figure such as today's new users. */
export function daySums(byDay: Map<string, Row>, series: readonly DaySeries[]): Row {
  const out: Row = {};
  for (const { key } of series) {
    let sum = 0;
    for (const row of byDay.values()) sum += (row[key] as number | undefined) ?? 0;
    out[key] = sum;
  }
  return out;
}

/**
 * Rows of several answers merged by day, oldest first, every key zero where an answer had no
 * count; with a range, each of its days has a row (a day with nothing is a day of zeros).
 */
export function dayRows(
  answers: readonly Map<string, Row>[],
  keys: readonly string[],
  range: { from: string; to: string } | null,
): Row[] {
  const byDay = new Map<string, Row>();
  const add = (day: string) => {
    let row = byDay.get(day);
    if (!row) {
      row = { date: day };
      for (const key of keys) row[key] = 0;
      byDay.set(day, row);
    }
    return row;
  };
  if (range) {
    let day: string | null = range.from;
    for (let n = 0; day !== null && day <= range.to && n < MAX_FILLED_DAYS; n++, day = nextDay(day)) add(day);
  }
  for (const answer of answers) {
    for (const [day, counts] of answer) Object.assign(add(day), counts);
  }
  return [...byDay.values()].sort((a, b) => ((a.date as string) < (b.date as string) ? -1 : 1));
}

/** Whether a call's days are rows (a statistics screen, the dashboard's chart) or summed into a figure. */
export function daysAreRows(name: string): boolean {
  return name === 'list' || name === 'own:dailyStatistics';
}

/**
 * The console's data of a successful answer whose counts are keyed by day: a statistics screen's
 * `{list, total}`, the dashboard chart's `{startDate, endDate, list}`, or the figures `record`
 * (the rest of the answer, already mapped) holds, with each series' sum added.
 */
export function dayData(
  json: unknown,
  step: {
    name: string;
    bound: { days: readonly DaySeries[]; envelope: { data: Pointer } };
    fields: FieldBinding;
    range?: { from: string; to: string } | null;
  },
  path: string,
  record: unknown,
): unknown {
  const byDay = readDays(json, step.bound.days, step.fields, path);
  if (!daysAreRows(step.name)) {
    const base: Row =
      typeof record === 'object' && record !== null && !Array.isArray(record) ? { ...(record as Row) } : {};
    // The map of days a figure was summed from is no figure itself: it leaves the record.
    const data = step.bound.envelope.data;
    for (const { at } of step.bound.days) {
      if (at.length === data.length + 1 && data.every((token, i) => at[i] === token))
        delete base[step.fields.keyOf(at[at.length - 1]!)];
    }
    return { ...base, ...daySums(byDay, step.bound.days) };
  }
  const range = step.range ?? null;
  const list = dayRows(
    [byDay],
    step.bound.days.map((s) => s.key),
    range,
  );
  return rowsData(step.name, list, range);
}

/** The statistics answer around its rows, as the screen or the dashboard reads it. */
export function rowsData(name: string, list: Row[], range: { from: string; to: string } | null): Row {
  if (name === 'list') return { list, total: list.length };
  return { ...(range ? { startDate: range.from, endDate: range.to } : {}), list };
}
