/** Shared display helpers. */

import { centsText } from '#contract/money';
import { localeOf, type Language } from './language.js';

export type TimeUnit = 'minute' | 'hour' | 'day';

/** Short elapsed-time label: minutes under an hour, hours under a day, otherwise days. */
export function shortTimeParts(seconds: number): { count: number; unit: TimeUnit } {
  const s = Math.max(0, Number.isFinite(seconds) ? seconds : 0);
  if (s < 3600) return { count: Math.floor(s / 60), unit: 'minute' };
  if (s < 86400) return { count: Math.floor(s / 3600), unit: 'hour' };
  return { count: Math.floor(s / 86400), unit: 'day' };
}

/** English label, e.g. "5 minutes", "1 hour". */
export function shortTimeLabel(seconds: number): string {
  const { count, unit } = shortTimeParts(seconds);
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** Money is stored in the smallest unit; shown divided by 100 with two decimals. */
export const formatAmount = centsText;

const SI = [
  { value: 1e18, symbol: 'E' },
  { value: 1e15, symbol: 'P' },
  { value: 1e12, symbol: 'T' },
  { value: 1e9, symbol: 'G' },
  { value: 1e6, symbol: 'M' },
  { value: 1e3, symbol: 'k' },
] as const;

/** 12345 -> "12.3k"; numbers under 1000 stay as they are. */
export function shortNumber(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  for (const { value: unit, symbol } of SI) {
    if (abs >= unit) {
      const text = (abs / unit).toFixed(digits).replace(/\.0+$|(\.[0-9]*[1-9])0+$/, '$1');
      return `${value < 0 ? '-' : ''}${text}${symbol}`;
    }
  }
  return String(value);
}

/** The badge shows at most 99. */
export function badgeText(count: number, max = 99): string {
  return count > max ? `${max}+` : String(count);
}

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** "2024-01-02T03:04" in local time, what a datetime-local input holds; empty for a missing or bad value. */
export function localInputDateTime(value: string | number | Date | null | undefined): string {
  const d = toDate(value);
  if (!d) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

// Building an Intl formatter costs far more than using one, and a long table formats hundreds of cells.
const formatters = new Map<string, Intl.DateTimeFormat>();
function dateFormatter(lang: Language, part: DatePart): Intl.DateTimeFormat {
  const key = `${lang}:${part}`;
  let format = formatters.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions =
      part === 'time'
        ? { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }
        : // Digits, not month names: as short as a table column needs. A calendar day ('date'
          // fields) is the same day wherever the reader sits.
          { year: 'numeric', month: '2-digit', day: '2-digit', ...(part === 'day' ? { timeZone: 'UTC' } : {}) };
    format = new Intl.DateTimeFormat(localeOf(lang), options);
    formatters.set(key, format);
  }
  return format;
}

type DatePart = 'date' | 'time' | 'day';
type Piece = { field: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' } | { text: string };

/** A moment whose every field differs from the others once written: 2026-11-23 14:05:09. */
const SAMPLE_FIELDS = { year: '2026', month: '11', day: '23', hour: '14', minute: '05', second: '09' } as const;

/**
 * The order and marks Intl writes a language's dates and times with, read once from a sample
 * moment, so a table of a hundred rows fills them in instead of asking Intl for each of its
 * cells (Intl's format is most of what drawing a page of dates costs). Null where the sample shows
 * anything but the six plain fields and their separators: that language keeps Intl for every value.
 */
const patterns = new Map<string, Piece[] | null>();
function patternOf(lang: Language, part: DatePart): Piece[] | null {
  const key = `${lang}:${part}`;
  if (patterns.has(key)) return patterns.get(key)!;
  const sample = part === 'day' ? new Date(Date.UTC(2026, 10, 23)) : new Date(2026, 10, 23, 14, 5, 9);
  let pieces: Piece[] | null = [];
  for (const p of dateFormatter(lang, part).formatToParts(sample)) {
    if (p.type === 'literal') pieces.push({ text: p.value });
    else if (p.type in SAMPLE_FIELDS && SAMPLE_FIELDS[p.type as keyof typeof SAMPLE_FIELDS] === p.value)
      pieces.push({ field: p.type as keyof typeof SAMPLE_FIELDS });
    else {
      pieces = null;
      break;
    }
  }
  patterns.set(key, pieces);
  return pieces;
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** `d` written as Intl writes it for `part`, through the language's pattern when it has one. */
function writeDate(d: Date, lang: Language, part: DatePart): string {
  const pieces = patternOf(lang, part);
  const utc = part === 'day';
  const year = utc ? d.getUTCFullYear() : d.getFullYear();
  // Years of other than four digits are written by Intl itself, as are languages without a pattern.
  if (!pieces || year < 1000 || year > 9999) return dateFormatter(lang, part).format(d);
  let text = '';
  for (const piece of pieces) {
    if ('text' in piece) text += piece.text;
    else if (piece.field === 'year') text += year;
    else if (piece.field === 'month') text += two(utc ? d.getUTCMonth() + 1 : d.getMonth() + 1);
    else if (piece.field === 'day') text += two(utc ? d.getUTCDate() : d.getDate());
    else if (piece.field === 'hour') text += two(d.getHours());
    else if (piece.field === 'minute') text += two(d.getMinutes());
    else text += two(d.getSeconds());
  }
  return text;
}

/**
 * A moment in the reader's zone, written the language's way, as two parts so a narrow cell may put
 * them on two lines without ever breaking either. Null for a missing or bad value.
 */
export function dateTimeParts(
  value: string | number | Date | null | undefined,
  lang: Language,
): { date: string; time: string } | null {
  const d = toDate(value);
  if (!d) return null;
  return { date: writeDate(d, lang, 'date'), time: writeDate(d, lang, 'time') };
}

/** "05/27/2026 14:03:05", "2026/05/27 14:03:05", "27/05/2026 14:03:05" …; empty for a missing or bad value. */
export function formatDateTime(value: string | number | Date | null | undefined, lang: Language): string {
  const parts = dateTimeParts(value, lang);
  return parts ? `${parts.date} ${parts.time}` : '';
}

/** A calendar day (YYYY-MM-DD) the language's way; other text is shown as it is. */
export function formatDay(value: string, lang: Language): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return value;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return Number.isNaN(d.getTime()) ? value : writeDate(d, lang, 'day');
}

const DECIMAL_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;
const BINARY_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/**
 * 1536000 -> "1.5 MB" (es "1,5 MB"): decimal units, as download stores and browsers show file
 * sizes; `binary` gives 1536 -> "1.5 KiB", as a host reports its memory and disks.
 */
export function formatBytes(bytes: number, lang: Language, binary = false): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  const units = binary ? BINARY_UNITS : DECIMAL_UNITS;
  const step = binary ? 1024 : 1000;
  let value = bytes;
  let unit = 0;
  while (value >= step && unit < units.length - 1) {
    value /= step;
    unit++;
  }
  const digits = unit > 0 && value < 100 ? 1 : 0;
  const text = numberFormatter(lang, digits).format(value);
  return `${text} ${units[unit]}`;
}

/** One formatter per language and number of decimals: building one costs more than formatting a page of cells. */
const numberFormatters = new Map<string, Intl.NumberFormat>();
function numberFormatter(lang: Language, digits: number): Intl.NumberFormat {
  const key = `${lang}:${digits}`;
  let format = numberFormatters.get(key);
  if (!format)
    numberFormatters.set(key, (format = new Intl.NumberFormat(localeOf(lang), { maximumFractionDigits: digits })));
  return format;
}

/** A count with the language's digit grouping: 12345 -> "12,345" (es "12.345"). */
export function formatCount(value: number, lang: Language): string {
  return Number.isFinite(value) ? numberFormatter(lang, 0).format(value) : String(value);
}

/**
 * Where the "Web version" link goes: the address the operator set, else the console's own host
 * with "admin" replaced by "im" (admin.chat.example.com -> im.chat.example.com). Null when neither
 * gives a host other than the console's own: a link back to the console would only mislead.
 */
export function webClientUrl(location: { protocol: string; host: string }, configured: string | null): string | null {
  if (configured) return configured;
  const host = location.host.replace('admin', 'im');
  return host === location.host ? null : `${location.protocol}//${host}/`;
}
