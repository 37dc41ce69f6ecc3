import type { FieldDef, ListResource } from '../contract/index.js';
import { fillTemplate } from './template.js';
import type { Template } from './types.js';

/**
 * Searching, filtering, sorting and paging a list the backend answers whole (ejabberd's
 * `registered_users`, `muc_online_rooms`): what a paging backend does on its side, done by the
 * gateway over the rows it keeps for a few seconds (whole-cache.ts). Pure functions: the cache
 * and the plugin call them.
 */

type Row = Record<string, unknown>;

/** The longest whole list taken when the map does not say: a longer answer is refused, never cut. */
export const WHOLE_LIST_MAX = 200_000;
/** The console's page size is at most this (the contract's lists never ask for more). */
const MAX_PAGE_SIZE = 500;

/** One item of the backend's whole list as a row, through the map's `item` template. */
export function itemRow(item: unknown, template: Template | undefined): unknown {
  if (template === undefined) return item;
  const scalar = typeof item === 'string' || typeof item === 'number';
  const lookup = (spec: string): unknown => {
    if (spec === 'item') return item;
    if (scalar) return undefined;
    return typeof item === 'object' && item !== null && Object.hasOwn(item, spec) ? (item as Row)[spec] : undefined;
  };
  return fillTemplate(template, (name) => {
    // `local`: a JID's part before "@" (a room's name out of room@conference.host).
    if (name.endsWith('|local')) {
      const value = lookup(name.slice(0, -'|local'.length));
      return typeof value === 'string' ? value.split('@', 1)[0] : value;
    }
    return lookup(name);
  });
}

const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';

function numberOf(raw: unknown, fallback: number): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : fallback;
}

/** Two values of one field in the console's order: numbers as numbers, text as text, absent last. */
function compare(a: unknown, b: unknown): number {
  const aAbsent = a === undefined || a === null || a === '';
  const bAbsent = b === undefined || b === null || b === '';
  if (aAbsent || bAbsent) return aAbsent === bAbsent ? 0 : aAbsent ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = text(a);
  const y = text(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The rows in a sort's order ("-name": descending); absent values last either way. A stable sort. */
export function sortRows(rows: readonly Row[], sort: string): Row[] {
  const desc = sort.startsWith('-');
  const key = desc ? sort.slice(1) : sort;
  const indexed = rows.map((row, index) => ({ row, index }));
  indexed.sort((x, y) => {
    const a = x.row[key];
    const b = y.row[key];
    const absentA = a === undefined || a === null || a === '';
    const absentB = b === undefined || b === null || b === '';
    if (absentA || absentB) return absentA === absentB ? x.index - y.index : absentA ? 1 : -1;
    const order = compare(a, b);
    return (desc ? -order : order) || x.index - y.index;
  });
  return indexed.map((entry) => entry.row);
}

/** A row's keyword fields in lower case, made once per row object (a kept list's rows are read again and again). */
const haystacks = new WeakMap<Row, string>();
function haystackOf(row: Row, keys: readonly string[]): string {
  let hay = haystacks.get(row);
  if (hay === undefined) {
    // A separator no keyword holds keeps a match from spanning two fields.
    hay = keys.map((key) => text(row[key]).toLowerCase()).join('\u0000');
    haystacks.set(row, hay);
  }
  return hay;
}

/** A filter's test for one row, from the console's query member and the field it names. */
function filterOf(field: FieldDef, query: Row): ((row: Row) => boolean) | null {
  const key = field.key;
  if (field.kind === 'datetime' || field.kind === 'date') {
    const from = text(query[`${key}From`]);
    const to = text(query[`${key}To`]);
    if (from === '' && to === '') return null;
    // Bounds are days (or times): a row's ISO time compares with them as text, the To day taken whole.
    const upper = to === '' ? '' : to.length === 10 ? `${to}T23:59:59.999Z` : to;
    return (row) => {
      const value = text(row[key]);
      if (value === '') return false;
      return (from === '' || value >= from) && (upper === '' || value <= upper);
    };
  }
  const wanted = query[key];
  if (wanted === undefined || wanted === null || wanted === '') return null;
  const want = text(wanted);
  return (row) => text(row[key]) === want;
}

/**
 * The console's list answer over a whole list: `id` (a record's page) first, then the keyword
 * (a case-insensitive part of any keyword field), the filters the contract declares, the sort
 * (or the screen's default) and the page. `sorted` hands back rows already in a sort's order.
 */
export function pageOf(
  resource: ListResource,
  query: Row,
  sorted: (sort: string) => readonly Row[],
): { list: Row[]; total: number } {
  const sortable = new Set(resource.fields.filter((f) => f.sortable).map((f) => f.key));
  const asked = text(query.sort);
  const bare = asked.startsWith('-') ? asked.slice(1) : asked;
  const sort = asked !== '' && sortable.has(bare) ? asked : (resource.defaultSort ?? '');
  let rows: readonly Row[] = sorted(sort);
  const id = query.id;
  if (id !== undefined && id !== null && id !== '') {
    const wanted = text(id);
    rows = rows.filter((row) => text(row.id) === wanted);
  }
  const keyword = text(query.keyword).trim().toLowerCase();
  if (keyword !== '') {
    const keys = resource.keywordFields ?? [];
    rows = rows.filter((row) => haystackOf(row, keys).includes(keyword));
  }
  for (const field of resource.fields) {
    if (!field.filter) continue;
    const test = filterOf(field, query);
    if (test) rows = rows.filter(test);
  }
  const size = Math.min(numberOf(query.pageSize, 20), MAX_PAGE_SIZE);
  const page = numberOf(query.pageNum, 1);
  const start = (page - 1) * size;
  return { list: rows.slice(start, start + size), total: rows.length };
}
