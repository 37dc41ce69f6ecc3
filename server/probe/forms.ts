import type { FieldDef } from '../contract/index.js';
import { formatPointer } from '../backend-map/pointer.js';
import type { FieldMap, KeyCase, TimeFormat } from '../backend-map/types.js';
import { flat } from './names.js';

/**
 * What the answers of a backend tell of its forms: where its envelope keeps the code, message and
 * data, where a list answer keeps its rows and total, how it writes keys, times and money, and the
 * values of its enums. Each reading says what it could not tell, for the written map's questions.
 */

type Row = Record<string, unknown>;
const isRow = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);

const CODE_NAMES = ['code', 'errcode', 'errorcode', 'resultcode', 'statuscode', 'status', 'retcode', 'ret'];
const MESSAGE_NAMES = [
  'msg',
  'message',
  'detail',
  'error',
  'errmsg',
  'errormsg',
  'errormessage',
  'resultmsg',
  'description',
  'info',
];
const TOTAL_NAMES = ['total', 'totalcount', 'totalelements', 'totalitems', 'count', 'totalrecords', 'totalsize'];

export interface ListShape {
  code: { at: string; value: string | number } | null;
  message: string | null;
  data: string;
  list: string;
  total: string | null;
  rows: Row[];
}

/**
 * The envelope around an answer's data: its code (and the value it had, success for an answer
 * that worked), its message, and `inner`'s first member as its data (a pointer found inside it).
 */
export function envelopeAround(json: unknown, inner: string[]): Pick<ListShape, 'code' | 'message' | 'data'> {
  const root = isRow(json) ? json : {};
  const member = (names: string[]) =>
    Object.keys(root).find((k) => names.includes(flat(k)) && ['string', 'number'].includes(typeof root[k]));
  const codeAt = member(CODE_NAMES);
  const messageAt = member(MESSAGE_NAMES);
  return {
    code: codeAt === undefined ? null : { at: formatPointer([codeAt]), value: root[codeAt] as string | number },
    message: messageAt === undefined ? null : formatPointer([messageAt]),
    data: formatPointer(inner.length > 1 ? inner.slice(0, 1) : []),
  };
}

/** The rows of a list answer: the one array of objects within three levels, and what is around it. */
export function readListAnswer(json: unknown): ListShape | null {
  if (Array.isArray(json)) return null;
  if (!isRow(json)) return null;
  const member = (row: Row, names: string[]) =>
    Object.keys(row).find((k) => names.includes(flat(k)) && ['string', 'number'].includes(typeof row[k]));
  let found: { path: string[]; rows: unknown[] } | null = null;
  const walk = (node: Row, path: string[]) => {
    for (const [key, value] of Object.entries(node)) {
      if (found) return;
      if (Array.isArray(value) && (value.length === 0 || isRow(value[0])))
        found = { path: [...path, key], rows: value };
    }
    if (path.length < 2) for (const [key, value] of Object.entries(node)) if (isRow(value)) walk(value, [...path, key]);
  };
  walk(json, []);
  if (!found) return null;
  const { path, rows } = found as { path: string[]; rows: unknown[] };
  // The total sits beside the rows, or beside the data (a page object at the root).
  const beside = path.slice(0, -1);
  let holder: unknown = json;
  for (const part of beside) holder = (holder as Row)[part];
  const totalAt = isRow(holder) ? member(holder, TOTAL_NAMES) : undefined;
  return {
    ...envelopeAround(json, path),
    list: formatPointer(path),
    total: totalAt === undefined ? null : formatPointer([...beside, totalAt]),
    rows: rows.filter(isRow),
  };
}

/** How the backend writes its keys, from the members of its rows; null: the console's camelCase (or no telling). */
export function keyCaseOf(rows: readonly Row[]): KeyCase | null {
  const keys = rows.flatMap((r) => Object.keys(r)).filter((k) => /[A-Za-z]/.test(k));
  if (keys.some((k) => /^[a-z0-9]+(_[a-z0-9]+)+$/.test(k))) return 'snake';
  if (keys.some((k) => /^[a-z0-9]+(-[a-z0-9]+)+$/.test(k))) return 'kebab';
  if (keys.length > 0 && keys.every((k) => /^[A-Z]/.test(k))) return 'pascal';
  return null;
}

export interface FieldReading {
  map: FieldMap;
  /** What the values could not tell (a unit, a zone, an enum's meaning). */
  question?: string;
  /** The backend writes local times without a zone: the map's timeZone must be set. */
  localTime?: boolean;
}

const ISO_ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function timeOf(values: unknown[]): { time?: TimeFormat; local?: boolean } | null {
  const v = values[0];
  if (typeof v === 'number') return { time: v >= 1e12 ? 'epoch-millis' : 'epoch-seconds' };
  if (typeof v === 'string' && /^\d{10,13}$/.test(v))
    return { time: v.length === 13 ? 'epoch-millis' : 'epoch-seconds' };
  if (typeof v !== 'string') return null;
  if (ISO_ZONED.test(v)) return {};
  if (LOCAL_TIME.test(v) && v.includes(' ')) return { time: 'yyyy-MM-dd HH:mm:ss', local: true };
  if (LOCAL_TIME.test(v)) return { time: 'iso', local: true };
  if (DAY.test(v)) return { time: 'yyyy-MM-dd' };
  return null;
}

/** The console's names of options other backends give the same meaning. */
const OPTION_WORDS: Record<string, string[]> = {
  normal: ['active', 'enabled', 'ok', 'valid', 'normal'],
  banned: ['banned', 'blocked', 'disabled', 'locked', 'suspended'],
  pending: ['pending', 'waiting', 'review', 'inreview', 'submitted'],
  approved: ['approved', 'accepted', 'passed', 'done', 'paid'],
  rejected: ['rejected', 'refused', 'denied', 'declined'],
};

/**
 * How one contract field reads from the values the backend answered for it (and the document's
 * type for it, if any): the members of its binding beyond its name.
 */
export function readField(
  field: Pick<FieldDef, 'key' | 'kind' | 'options'>,
  values: unknown[],
  docType?: string,
): FieldReading {
  const seen = values.filter((v) => v !== null && v !== undefined && v !== '');
  if (seen.length === 0)
    return { map: {}, question: `no value of ${field.key} was seen: check its form (${field.kind})` };
  switch (field.kind) {
    case 'datetime':
    case 'date': {
      const form = timeOf(seen);
      if (!form) return { map: {}, question: `${field.key} is ${JSON.stringify(seen[0])}: which time format?` };
      return { map: form.time ? { time: form.time } : {}, ...(form.local ? { localTime: true } : {}) };
    }
    case 'money': {
      const fraction = seen.some(
        (v) => (typeof v === 'number' && !Number.isInteger(v)) || (typeof v === 'string' && v.includes('.')),
      );
      if (fraction || docType === 'number') return { map: { money: 'yuan' } };
      return {
        map: { money: 'cent' },
        question: `${field.key}: whole numbers were seen (${JSON.stringify(seen[0])}): are they cents (as written) or yuan ("money": "yuan")?`,
      };
    }
    case 'switch': {
      if (seen.every((v) => typeof v === 'boolean')) return { map: {} };
      if (seen.every((v) => v === 0 || v === 1)) return { map: { values: { true: 1, false: 0 } } };
      if (seen.every((v) => v === '0' || v === '1')) return { map: { values: { true: '1', false: '0' } } };
      if (seen.every((v) => v === 'Y' || v === 'N')) return { map: { values: { true: 'Y', false: 'N' } } };
      if (seen.every((v) => v === 'true' || v === 'false'))
        return { map: { values: { true: 'true', false: 'false' } } };
      return { map: {}, question: `${field.key} is ${JSON.stringify(seen[0])}: which values mean on and off?` };
    }
    case 'select': {
      const options = field.options ?? [];
      const distinct = [
        ...new Set(seen.map((v) => (typeof v === 'string' || typeof v === 'number' ? v : JSON.stringify(v)))),
      ];
      if (distinct.every((v) => typeof v === 'string' && options.includes(v))) return { map: {} };
      const table: Record<string, string | number> = {};
      for (const value of distinct) {
        const word = flat(String(value));
        const option = options.find((o) => flat(o) === word || (OPTION_WORDS[o] ?? []).includes(word));
        if (option !== undefined && table[option] === undefined) table[option] = value;
      }
      const untold = distinct.filter((v) => !Object.values(table).includes(v));
      const untranslated = options.filter((o) => table[o] === undefined);
      if (untold.length === 0 && Object.keys(table).length > 0 && untranslated.length === 0)
        return { map: { values: table } };
      return {
        map: Object.keys(table).length > 0 ? { values: table } : {},
        question: `${field.key}: the backend answered ${distinct.map((v) => JSON.stringify(v)).join(', ')}; the console's values are ${options.join(', ')}: complete "values"`,
      };
    }
    case 'number':
    case 'bytes':
      if (seen.every((v) => typeof v === 'string' && Number.isFinite(Number(v)))) return { map: { asText: true } };
      return { map: {} };
    default:
      return { map: {} };
  }
}
