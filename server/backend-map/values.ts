import type { FieldKind } from '../contract/index.js';
import type { FieldMap, Scalar, TimeFormat } from './types.js';

/**
 * Value transforms of one field, both ways: the console's value to the backend's (requests) and
 * back (answers). A value that does not fit the transform passes unchanged, so the screen shows
 * what the backend sent rather than nothing.
 */
export interface ValueCodec {
  toBackend(value: unknown): unknown;
  fromBackend(value: unknown): unknown;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Minutes east of UTC of "+08:00". */
export function offsetMinutes(text: string | undefined): number {
  if (!text) return 0;
  const sign = text.startsWith('-') ? -1 : 1;
  return sign * (Number(text.slice(1, 3)) * 60 + Number(text.slice(4, 6)));
}

/** An instant (ms) as the backend writes it. */
export function formatTime(ms: number, format: TimeFormat, offset: number): string | number {
  switch (format) {
    case 'epoch-millis':
      return ms;
    case 'epoch-seconds':
      return Math.floor(ms / 1000);
    case 'iso':
      return new Date(ms).toISOString();
    default: {
      const d = new Date(ms + offset * 60_000);
      const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
      return format === 'yyyy-MM-dd' ? day : `${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
    }
  }
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;

/** The backend's time as an instant (ms), or null when it is not one. */
export function parseTime(value: unknown, format: TimeFormat, offset: number): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    if (format === 'epoch-seconds') return value * 1000;
    if (format === 'epoch-millis') return value;
  }
  if (typeof value !== 'string' || value === '') return null;
  if (/^-?\d+$/.test(value) && (format === 'epoch-seconds' || format === 'epoch-millis')) {
    return Number(value) * (format === 'epoch-seconds' ? 1000 : 1);
  }
  const local = LOCAL_TIME.exec(value);
  if (local) {
    const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '0'] = local;
    return Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +s, +frac.padEnd(3, '0')) - offset * 60_000;
  }
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** The console's day (YYYY-MM-DD) as the backend writes a range bound: its first or last second. */
export function dayBound(day: string, end: boolean, format: TimeFormat, offset: number): string | number {
  if (format === 'yyyy-MM-dd' || format === 'iso') return day;
  const start = parseTime(day, 'yyyy-MM-dd', offset);
  if (start === null) return day;
  return formatTime(end ? start + 86_400_000 - 1000 : start, format, offset);
}

function timeCodec(kind: FieldKind, format: TimeFormat, offset: number): ValueCodec {
  if (kind === 'date') {
    return {
      toBackend: (v) => (typeof v === 'string' && v !== '' ? dayBound(v, false, format === 'iso' ? 'yyyy-MM-dd' : format, offset) : v),
      fromBackend: (v) => {
        const ms = parseTime(v, format, offset);
        return ms === null ? v : formatTime(ms, 'yyyy-MM-dd', offset);
      },
    };
  }
  return {
    toBackend: (v) => {
      if (typeof v !== 'string' || v === '') return v;
      const ms = Date.parse(v);
      return Number.isNaN(ms) ? v : formatTime(ms, format, offset);
    },
    fromBackend: (v) => {
      const ms = parseTime(v, format, offset);
      return ms === null ? v : new Date(ms).toISOString();
    },
  };
}

const MONEY: ValueCodec = {
  // Yuan with two decimals against whole fen; rounding absorbs binary fractions (19.99 * 100).
  toBackend: (v) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) / 100 : v),
  fromBackend: (v) => {
    const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
    return typeof n === 'number' && Number.isFinite(n) ? Math.round(n * 100) : v;
  },
};

/** The console's value written as a table key: "normal", "true", "3". */
function keyOf(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function ourValue(kind: FieldKind, key: string): unknown {
  if (kind === 'switch') return key === 'true';
  if ((kind === 'number' || kind === 'money') && key.trim() !== '' && Number.isFinite(Number(key))) return Number(key);
  return key;
}

function tableCodec(kind: FieldKind, table: Record<string, Scalar>): ValueCodec {
  const back = new Map<string, unknown>();
  for (const [ours, theirs] of Object.entries(table)) back.set(keyOf(theirs), ourValue(kind, ours));
  return {
    toBackend: (v) => (Object.hasOwn(table, keyOf(v)) ? table[keyOf(v)] : v),
    // A backend's 1 and "1" find the same entry: some send status codes as text.
    fromBackend: (v) => {
      const key = keyOf(v);
      return back.has(key) ? back.get(key) : v;
    },
  };
}

/** The codec of one field, or null when its values pass unchanged. */
export function valueCodec(kind: FieldKind, map: FieldMap, offset: number): ValueCodec | null {
  if (map.values) return tableCodec(kind, map.values);
  if (map.money === 'yuan') return MONEY;
  if (map.time) return timeCodec(kind, map.time, offset);
  return null;
}
