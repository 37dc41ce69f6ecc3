import type { FieldDef, ListResource } from '../contract/index.js';
import { GatewayError } from '../errors.js';
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

/**
 * The rows a backend keeps as one record (`whole.items`): each template filled from the record's
 * members; a member the record lacks leaves its row without it.
 */
export function recordItems(record: unknown, templates: readonly Template[], path: string): unknown[] {
  if (typeof record !== 'object' || record === null || Array.isArray(record))
    throw new GatewayError('UPSTREAM_BAD_ANSWER', `${path}: the record the rows are made of is not an object`);
  const members = record as Row;
  return templates.map((t) => fillTemplate(t, (name) => (Object.hasOwn(members, name) ? members[name] : undefined)));
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

/**
 * Each row's keyword fields in lower case, in one string per row, for a list in one order; a
 * kept list makes these once per order (haystacksOf), so a search is one scan of strings.
 */
export function haystacksOf(rows: readonly Row[], keys: readonly string[]): string[] {
  // A separator no keyword holds keeps a match from spanning two fields.
  return rows.map((row) => keys.map((key) => text(row[key]).toLowerCase()).join('\u0000'));
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
 * The console's list answer over a whole list: the rows that match the keyword (a
 * case-insensitive part of any keyword field), `id` (a record's page) and the filters the
 * contract declares, in the sort's order (or the screen's default), one page of them. `sorted` hands back rows already in a sort's order, and
 * `haystacks`, when given, their keyword strings in that same order (made once by the caller, so
 * a search of 10,000 rows does not lower-case 10,000 rows again).
 */
export function pageOf(
  resource: ListResource,
  query: Row,
  sorted: (sort: string) => readonly Row[],
  haystacks?: (sort: string, keys: readonly string[]) => readonly string[],
): { list: Row[]; total: number } {
  const asked = text(query.sort);
  const bare = asked.startsWith('-') ? asked.slice(1) : asked;
  const sortable = resource.fields.some((f) => f.sortable && f.key === bare);
  const sort = asked !== '' && sortable ? asked : (resource.defaultSort ?? '');
  const rows: readonly Row[] = sorted(sort);
  const tests: ((row: Row, index: number) => boolean)[] = [];
  const keyword = text(query.keyword).trim().toLowerCase();
  if (keyword !== '') {
    const keys = resource.keywordFields ?? [];
    const hay = haystacks ? haystacks(sort, keys) : haystacksOf(rows, keys);
    tests.push((_row, index) => hay[index]!.includes(keyword));
  }
  const id = query.id;
  if (id !== undefined && id !== null && id !== '') {
    const wanted = text(id);
    tests.push((row) => text(row.id) === wanted);
  }
  for (const field of resource.fields) {
    if (!field.filter) continue;
    const test = filterOf(field, query);
    if (test) tests.push(test);
  }
  const size = Math.min(numberOf(query.pageSize, 20), MAX_PAGE_SIZE);
  const page = numberOf(query.pageNum, 1);
  const start = (page - 1) * size;
  if (tests.length === 0) return { list: rows.slice(start, start + size), total: rows.length };
  // One pass that counts the matches and keeps only the page's: a search of 10,000 rows makes
  // no list of its matches.
  const list: Row[] = [];
  let total = 0;
  scan: for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    for (const test of tests) if (!test(row, i)) continue scan;
    if (total >= start && list.length < size) list.push(row);
    total++;
  }
  return { list, total };
}
