import type { FieldDef, ListResource } from '#contract';
import type { Row } from '../shared/queries.js';
import { defaultListState, filterKeys, serialiseListState } from '../list/url-state.js';

/**
 * A list shown on a record's page: another resource's list, filtered by values of the record
 * (a user's withdrawals: `userAccount` = the user's `account`).
 */
export interface RelatedList {
  resource: ListResource;
  /** The related resource's filter key -> the field of the record whose value it takes. */
  filter: Readonly<Record<string, string>>;
}

/** How many rows of a related list the record's page shows; "See all" opens the rest in their list. */
export const RELATED_ROWS = 5;

/**
 * The filter values of a related list for one record; null when the list cannot be filtered as
 * declared (the resource offers no such filter, or the record has no value for it), so the page
 * leaves it out rather than list records of everyone.
 */
export function relatedFilters(related: RelatedList, record: Row): Record<string, string> | null {
  const known = new Set(filterKeys(related.resource));
  const out: Record<string, string> = {};
  for (const [key, field] of Object.entries(related.filter)) {
    const value = record[field];
    if (!known.has(key) || value === undefined || value === null || value === '') return null;
    out[key] = String(value);
  }
  return out;
}

/** The related list's own screen with the same filters: the "See all" link. */
export function relatedListUrl(listPath: string, resource: ListResource, filters: Record<string, string>): string {
  const qs = serialiseListState({ ...defaultListState(resource), filters }, resource);
  return qs ? `${listPath}?${qs}` : listPath;
}

/** Rows answered that do not match the filters: a backend that ignored them. */
export function unfilteredRows(rows: readonly Row[], filters: Record<string, string>): Row[] {
  return rows.filter((row) => Object.entries(filters).some(([key, value]) => key in row && String(row[key]) !== value));
}

const STATUS_KEYS = new Set(['status', 'state', 'result']);

/**
 * The few columns a related list shows: the id (the link to the record), what names the record
 * but for the fields it is filtered by (they are the same on every row), its status, and the time
 * it is sorted by.
 */
export function relatedColumns(resource: ListResource, filtered: readonly string[]): FieldDef[] {
  const skip = new Set(filtered);
  const byKey = new Map(resource.fields.map((f) => [f.key, f]));
  const keys: string[] = [];
  const add = (key: string | undefined) => {
    if (key && byKey.has(key) && !skip.has(key) && !keys.includes(key)) keys.push(key);
  };
  add('id');
  for (const key of (resource.recordFields ?? []).filter((k) => !skip.has(k)).slice(0, 2)) add(key);
  add(resource.fields.find((f) => STATUS_KEYS.has(f.key) && f.kind === 'select')?.key);
  add(resource.defaultSort.replace(/^-/, ''));
  return keys.map((k) => byKey.get(k)!);
}
