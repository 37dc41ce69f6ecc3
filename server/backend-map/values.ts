import type { FieldKind } from '../contract/index.js';
import { GatewayError } from '../errors.js';
import { hexDigest } from './digest.js';
import type { FieldMap, HashName, Scalar, TimeFormat } from './types.js';

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
      return format === 'yyyy-MM-dd'
        ? day
        : `${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
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

/** The calendar day after a YYYY-MM-DD day, or null when the text is no day. */
export function nextDay(day: string): string | null {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00Z`) : NaN;
  return Number.isNaN(ms) ? null : new Date(ms + 86_400_000).toISOString().slice(0, 10);
}

/**
 * The console's day (YYYY-MM-DD) as the backend writes a range bound: its first or last second.
 * `exclusive` is a backend whose end bound leaves itself out: the end is then the next day's start.
 */
export function dayBound(
  day: string,
  end: boolean,
  format: TimeFormat,
  offset: number,
  exclusive = false,
): string | number {
  if (end && exclusive) {
    const next = nextDay(day);
    if (next !== null) return dayBound(next, false, format, offset);
  }
  if (format === 'yyyy-MM-dd' || format === 'iso') return day;
  const start = parseTime(day, 'yyyy-MM-dd', offset);
  if (start === null) return day;
  return formatTime(end ? start + 86_400_000 - 1000 : start, format, offset);
}

function timeCodec(kind: FieldKind, format: TimeFormat, offset: number): ValueCodec {
  if (kind === 'date') {
    return {
      toBackend: (v) =>
        typeof v === 'string' && v !== '' ? dayBound(v, false, format === 'iso' ? 'yyyy-MM-dd' : format, offset) : v,
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

const YUAN_TEXT = /^-?\d+(\.\d{0,2}0*)?$/;
const CENT_TEXT = /^-?\d+(\.0*)?$/;

/**
 * Money against the console's whole smallest unit (fen). An amount that would be a fraction of
 * one (12.345 yuan, 12.5 fen) is refused, never rounded: rounding shows an amount the backend
 * did not hold, and leaving the value out lets a form saved from it write the amount back empty.
 * The decimal text decides (the shortest text of a number, as JSON wrote it), so binary noise
 * (19.99 * 100 = 1998.99...) is no fraction.
 */
function moneyCodec(key: string, unit: 'yuan' | 'cent'): ValueCodec {
  const whole = unit === 'yuan' ? YUAN_TEXT : CENT_TEXT;
  const scale = unit === 'yuan' ? 100 : 1;
  return {
    toBackend: (v) => {
      if (typeof v !== 'number' || !Number.isFinite(v)) return v;
      if (!Number.isInteger(v))
        // data.field: the form points at the amount, as at any refused field.
        throw new GatewayError('BAD_REQUEST', `${key} is ${v}: amounts are whole smallest units`, {
          data: { field: key },
        });
      return unit === 'yuan' ? v / 100 : v;
    },
    fromBackend: (v) => {
      const text = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : null;
      if (text === null || text === '' || (typeof v === 'number' && !Number.isFinite(v))) return v;
      if (!whole.test(text)) {
        if (typeof v === 'string' && !Number.isFinite(Number(text))) return v;
        throw new GatewayError(
          'UPSTREAM_BAD_ANSWER',
          `${key} is ${JSON.stringify(v)}, a fraction of the smallest unit (${unit})`,
        );
      }
      return Math.round(Number(text) * scale);
    },
  };
}

const ID_TEXT = /^-?\d{1,15}$/;

/** Ids the backend writes as text: the console's numbers go out as text and come back as numbers. */
function idCodec(kind: FieldKind): ValueCodec {
  const out = (v: unknown): unknown => (typeof v === 'number' ? String(v) : Array.isArray(v) ? v.map(out) : v);
  return {
    toBackend: out,
    // Text ids beyond 15 digits stay text: a number could not hold them exactly.
    fromBackend: (v) => (kind === 'number' && typeof v === 'string' && ID_TEXT.test(v) ? Number(v) : v),
  };
}

/** The console's value written as a table key: "normal", "true", "3". */
function keyOf(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function ourValue(kind: FieldKind, key: string): unknown {
  if (kind === 'switch') return key === 'true';
  if ((kind === 'number' || kind === 'money') && key.trim() !== '' && Number.isFinite(Number(key))) return Number(key);
  return key;
}

function tableCodec(kind: FieldKind, table: Record<string, Scalar | Scalar[]>): ValueCodec {
  const back = new Map<string, unknown>();
  const sent = new Map<string, Scalar>();
  for (const [ours, theirs] of Object.entries(table)) {
    // A list: several backend values are one of the console's; the first is the one written.
    const all = Array.isArray(theirs) ? theirs : [theirs];
    sent.set(ours, all[0]!);
    for (const value of all) back.set(keyOf(value), ourValue(kind, ours));
  }
  return {
    toBackend: (v) => (sent.has(keyOf(v)) ? sent.get(keyOf(v)) : v),
    // A backend's 1 and "1" find the same entry: some send status codes as text.
    fromBackend: (v) => {
      const key = keyOf(v);
      return back.has(key) ? back.get(key) : v;
    },
  };
}

const NUMERIC = new Set<FieldKind>(['number', 'money', 'bytes']);

/**
 * A value the backend keeps as text (OpenIM's client config is a map<string,string>): the
 * console's number or switch goes out as its text, after the field's own transform, and the text
 * comes back as the number or switch before it. Text that is no such value passes unchanged.
 */
function textCodec(kind: FieldKind, inner: ValueCodec | null): ValueCodec {
  const typed = (v: unknown): unknown => {
    if (typeof v !== 'string') return v;
    if (kind === 'switch' && (v === 'true' || v === 'false')) return v === 'true';
    if (NUMERIC.has(kind) && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
    return v;
  };
  return {
    toBackend: (v) => {
      const out = inner ? inner.toBackend(v) : v;
      return typeof out === 'number' || typeof out === 'boolean' ? String(out) : out;
    },
    // A field's own transform reads the backend's text itself (a table's "Y", yuan's "12.30").
    fromBackend: (v) => (inner ? inner.fromBackend(v) : typed(v)),
  };
}

/**
 * A value sent as its digest (a password the backend compares as md5). Empty text stays empty, so
 * a password left blank keeps its value rather than becoming the digest of nothing; answers pass
 * unchanged, since a digest cannot be read back.
 */
function hashCodec(algorithm: HashName, inner: ValueCodec | null): ValueCodec {
  return {
    toBackend: (v) => {
      const out = inner ? inner.toBackend(v) : v;
      return typeof out === 'string' && out !== '' ? hexDigest(algorithm, out) : out;
    },
    fromBackend: (v) => (inner ? inner.fromBackend(v) : v),
  };
}

function baseCodec(key: string, kind: FieldKind, map: FieldMap, offset: number): ValueCodec | null {
  if (map.values) return tableCodec(kind, map.values);
  if (map.money) return moneyCodec(key, map.money);
  if (map.id) return idCodec(kind);
  if (map.time) return timeCodec(kind, map.time, offset);
  return null;
}

/**
 * Backend values read as a console value and never sent (`reads`): checked before the field's own
 * codec, so `values` alone says what goes out.
 */
function readsCodec(kind: FieldKind, reads: Record<string, Scalar>, inner: ValueCodec | null): ValueCodec {
  return {
    toBackend: (v) => (inner ? inner.toBackend(v) : v),
    fromBackend: (v) => {
      const key = keyOf(v);
      if (Object.hasOwn(reads, key)) return ourValue(kind, keyOf(reads[key]));
      return inner ? inner.fromBackend(v) : v;
    },
  };
}

/**
 * Text of which only what follows a prefix is the console's value (Shiku's `desc` holds
 * "审核拒绝:<reason>", or a status text that is no reason at all): without the prefix, null.
 */
function afterCodec(prefix: string, inner: ValueCodec | null): ValueCodec {
  return {
    toBackend: (v) => (inner ? inner.toBackend(v) : v),
    fromBackend: (v) => {
      if (typeof v !== 'string' || !v.startsWith(prefix)) return null;
      const rest = v.slice(prefix.length);
      return inner ? inner.fromBackend(rest) : rest;
    },
  };
}

/** The codec of one field, or null when its values pass unchanged. */
export function valueCodec(key: string, kind: FieldKind, map: FieldMap, offset: number): ValueCodec | null {
  let codec = baseCodec(key, kind, map, offset);
  if (map.asText) codec = textCodec(kind, codec);
  if (map.hash) codec = hashCodec(map.hash, codec);
  if (map.reads) codec = readsCodec(kind, map.reads, codec);
  if (map.after !== undefined) codec = afterCodec(map.after, codec);
  return codec;
}
