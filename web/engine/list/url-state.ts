import type { FieldDef, ListResource } from '#contract';
import type { Query } from '../../api/client.js';
import { defaultColumns, parseColumns, serialiseColumns } from './column-choice.js';

/**
 * A list screen's view (page, size, keyword, sort, filters, columns) lives in the URL query so a reload or
 * a shared link shows the same view. Parsing is forgiving: anything unknown or malformed falls
 * back to the default instead of reaching the backend.
 */

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;

export interface ListState {
  pageNum: number;
  pageSize: number;
  keyword: string;
  sort: string;
  filters: Record<string, string>;
  /** The visible columns in order, when the URL names them; otherwise the browser's choice applies. */
  columns?: string[];
}

/**
 * What the URL state needs of a resource. `defaultFilters` are filters a screen opens with (the
 * review queue on its pending applications) when its address names no filter: left out of its
 * plain address, and written out whenever any filter differs from them (`state=` for "All"). So an
 * address naming another filter only (a user's withdrawals, linked from the user's page) lists
 * every state, as the link promised.
 */
type ListShape = Pick<ListResource, 'fields' | 'defaultSort'> & { defaultFilters?: Readonly<Record<string, string>> };

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const RANGE_KINDS = new Set(['date', 'datetime']);

export function isRangeFilter(field: FieldDef): boolean {
  return RANGE_KINDS.has(field.kind);
}

export function filterFields(resource: Pick<ListResource, 'fields'>): FieldDef[] {
  return resource.fields.filter((f) => f.filter);
}

/** The URL/query keys a resource's filters use, in declaration order. */
export function filterKeys(resource: Pick<ListResource, 'fields'>): string[] {
  return filterFields(resource).flatMap((f) => (isRangeFilter(f) ? [`${f.key}From`, `${f.key}To`] : [f.key]));
}

function acceptsFilterValue(field: FieldDef, value: string): boolean {
  if (value === '') return false;
  switch (field.kind) {
    case 'select':
      return !field.options || field.options.includes(value);
    case 'switch':
      return value === 'true' || value === 'false';
    case 'date':
    case 'datetime':
      return DATE.test(value) && !Number.isNaN(Date.parse(value));
    default:
      return value.length <= 200;
  }
}

export function isValidSort(resource: ListShape, sort: string): boolean {
  const key = sort.startsWith('-') ? sort.slice(1) : sort;
  if (sort === resource.defaultSort) return true;
  return resource.fields.some((f) => f.key === key && f.sortable);
}

export function defaultListState(resource: ListShape): ListState {
  return {
    pageNum: 1,
    pageSize: DEFAULT_PAGE_SIZE,
    keyword: '',
    sort: resource.defaultSort,
    filters: { ...resource.defaultFilters },
  };
}

/** Whether the filters are the screen's own (none, or its default ones): nothing to reset. */
export function filtersAreDefault(resource: ListShape, filters: Readonly<Record<string, string>>): boolean {
  const defaults = resource.defaultFilters ?? {};
  return Object.entries(filters).every(([key, value]) => (key in defaults ? value === defaults[key] : value === ''));
}

export function parseListState(search: string, resource: ListShape): ListState {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const state = defaultListState(resource);

  const pageNum = Number(params.get('pageNum'));
  if (Number.isInteger(pageNum) && pageNum >= 1) state.pageNum = pageNum;
  const pageSize = Number(params.get('pageSize'));
  if ((PAGE_SIZES as readonly number[]).includes(pageSize)) state.pageSize = pageSize;
  state.keyword = (params.get('keyword') ?? '').trim().slice(0, 200);
  const sort = params.get('sort');
  if (sort && isValidSort(resource, sort)) state.sort = sort;

  const keys = filterKeys(resource);
  // Defaults stand for an address without filters; an address naming any says all it wants.
  if (keys.some((key) => params.has(key))) state.filters = {};
  for (const field of filterFields(resource)) {
    for (const key of isRangeFilter(field) ? [`${field.key}From`, `${field.key}To`] : [field.key]) {
      const value = params.get(key);
      if (value === '' && resource.defaultFilters && key in resource.defaultFilters) state.filters[key] = '';
      else if (value !== null && acceptsFilterValue(field, value)) state.filters[key] = value;
    }
  }
  const columns = parseColumns(params.get('cols'), defaultColumns(resource));
  if (columns) state.columns = columns;
  return state;
}

/** The query string of a state, defaults left out so the plain URL stays plain; keys in a fixed order. */
export function serialiseListState(state: ListState, resource: ListShape): string {
  const params = new URLSearchParams();
  if (state.pageNum > 1) params.set('pageNum', String(state.pageNum));
  if (state.pageSize !== DEFAULT_PAGE_SIZE) params.set('pageSize', String(state.pageSize));
  if (state.keyword) params.set('keyword', state.keyword);
  if (state.sort && state.sort !== resource.defaultSort) params.set('sort', state.sort);
  const defaults = resource.defaultFilters ?? {};
  // The default filters are the plain address; once any filter differs, each default is written
  // out too ("All" as an empty value), since an address naming filters drops the defaults.
  const plain = filtersAreDefault(resource, state.filters);
  for (const key of filterKeys(resource)) {
    const value = state.filters[key];
    if (key in defaults) {
      if (!plain) params.set(key, value ?? '');
    } else if (value !== undefined && value !== '') params.set(key, value);
  }
  const qs = params.toString();
  // Written by hand so the commas stay readable in a shared link (URLSearchParams would give %2C).
  const cols = state.columns ? serialiseColumns(defaultColumns(resource), state.columns) : '';
  if (!cols) return qs;
  const value = cols.split(',').map(encodeURIComponent).join(',');
  return qs ? `${qs}&cols=${value}` : `cols=${value}`;
}

/** What GET {path}/list receives for a state (all keys, defaults included). */
export function listQueryParams(state: ListState): Query {
  const query: Query = { pageNum: state.pageNum, pageSize: state.pageSize, sort: state.sort };
  if (state.keyword) query.keyword = state.keyword;
  for (const [k, v] of Object.entries(state.filters)) if (v !== '') query[k] = v;
  return query;
}

/** Clicking a sortable header: ascending first, then descending, then back to the default. */
export function nextSort(current: string, key: string, defaultSort: string): string {
  if (current === key) return `-${key}`;
  if (current === `-${key}`) return defaultSort === key || defaultSort === `-${key}` ? key : defaultSort;
  return key;
}

/** Any change other than paging starts again at page 1. */
export function withChange(
  state: ListState,
  change: Partial<Omit<ListState, 'filters'>> & { filters?: Record<string, string> },
): ListState {
  const next: ListState = { ...state, ...change, filters: change.filters ?? state.filters };
  if (change.pageNum === undefined) next.pageNum = 1;
  return next;
}
