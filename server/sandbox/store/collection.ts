import { badRequest } from '../errors.js';

/**
 * One table of the simulated backend, with the list semantics of DESIGN section 3
 * (`pageNum`, `pageSize`, `keyword`, `sort`, filters). Every management page the sandbox serves
 * sits on one of these, so paging and searching behave the same everywhere.
 */

export interface Identified {
  id: number;
}

export type FilterFn<T> = (item: T, value: string) => boolean;

export interface CollectionOptions<T> {
  /** Text fields searched by `keyword` (case- and width-insensitive substring). */
  keywordFields: readonly (keyof T & string)[];
  /** Fields `sort` may name. */
  sortFields: readonly (keyof T & string)[];
  defaultSort: { field: keyof T & string; desc: boolean };
  /** Named query filters; an empty value means "no filter". */
  filters?: Readonly<Record<string, FilterFn<T>>>;
  /** Money fields summed over the whole filtered set, answered as `totals`. */
  totals?: readonly (keyof T & string)[];
}

export interface ListQuery {
  pageNum: number;
  pageSize: number;
  keyword: string;
  /** `field` ascending or `-field` descending; null for the collection's default. */
  sort: { field: string; desc: boolean } | null;
  filters: Record<string, string>;
}

export interface ListPage<T> {
  list: T[];
  total: number;
  totals?: Record<string, number>;
}

export const PAGE_SIZE_DEFAULT = 10;
export const PAGE_SIZE_MAX = 200;

function normalize(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase();
}

function firstValue(value: unknown): string | undefined {
  if (Array.isArray(value)) return firstValue(value[0]);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function positiveInt(raw: string | undefined, name: string, fallback: number, max: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw badRequest(`${name} must be a positive whole number`);
  const value = Number(raw.trim());
  if (value < 1) throw badRequest(`${name} must be a positive whole number`);
  return Math.min(value, max);
}

export class Collection<T extends Identified> {
  private readonly items: T[] = [];
  private readonly byId = new Map<number, T>();
  private lastId = 0;

  constructor(
    readonly options: CollectionOptions<T>,
    seed: readonly T[] = [],
  ) {
    for (const item of seed) this.add(item);
  }

  private add(item: T): void {
    if (this.byId.has(item.id)) throw new Error(`duplicate id ${item.id}`);
    this.items.push(item);
    this.byId.set(item.id, item);
    if (item.id > this.lastId) this.lastId = item.id;
  }

  get size(): number {
    return this.items.length;
  }

  all(): readonly T[] {
    return this.items;
  }

  get(id: number): T | undefined {
    return this.byId.get(id);
  }

  count(predicate: (item: T) => boolean): number {
    let n = 0;
    for (const item of this.items) if (predicate(item)) n++;
    return n;
  }

  insert(fields: Omit<T, 'id'>): T {
    const id = this.lastId + 1;
    // id first, so answers list it first as the real backend does.
    const item = { id, ...fields } as T;
    item.id = id;
    this.add(item);
    return item;
  }

  /** Merges the patch into the stored record (the id never changes). */
  update(id: number, patch: Partial<Omit<T, 'id'>>): T | undefined {
    const item = this.byId.get(id);
    if (!item) return undefined;
    Object.assign(item, patch, { id });
    return item;
  }

  /** Removes the given ids; answers how many existed. */
  remove(ids: readonly number[]): number {
    const doomed = new Set(ids.filter((id) => this.byId.has(id)));
    if (doomed.size === 0) return 0;
    for (const id of doomed) this.byId.delete(id);
    let write = 0;
    for (const item of this.items) if (!doomed.has(item.id)) this.items[write++] = item;
    this.items.length = write;
    return doomed.size;
  }

  /** Reads `pageNum`, `pageSize`, `keyword`, `sort` and this collection's filters from a query string object. */
  parseQuery(raw: unknown): ListQuery {
    const source = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const sortText = firstValue(source.sort)?.trim() ?? '';
    let sort: ListQuery['sort'] = null;
    if (sortText !== '') {
      const desc = sortText.startsWith('-');
      const field = desc ? sortText.slice(1) : sortText;
      if (!(this.options.sortFields as readonly string[]).includes(field)) {
        throw badRequest(`sort must be one of ${this.options.sortFields.join(', ')}`);
      }
      sort = { field, desc };
    }
    const filters: Record<string, string> = {};
    for (const name of Object.keys(this.options.filters ?? {})) {
      const value = firstValue(source[name])?.trim();
      if (value) filters[name] = value;
    }
    return {
      pageNum: positiveInt(firstValue(source.pageNum), 'pageNum', 1, Number.MAX_SAFE_INTEGER),
      pageSize: positiveInt(firstValue(source.pageSize), 'pageSize', PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX),
      keyword: firstValue(source.keyword)?.trim() ?? '',
      sort,
      filters,
    };
  }

  query(query: ListQuery): ListPage<T> {
    const needle = normalize(query.keyword);
    const filterFns = this.options.filters ?? {};
    const matched = this.items.filter((item) => {
      for (const [name, value] of Object.entries(query.filters)) {
        const fn = filterFns[name];
        if (fn && !fn(item, value)) return false;
      }
      if (needle === '') return true;
      return this.options.keywordFields.some((field) => {
        const value = item[field];
        return (typeof value === 'string' || typeof value === 'number') && normalize(String(value)).includes(needle);
      });
    });
    const sort = query.sort ?? this.options.defaultSort;
    const field = sort.field as keyof T;
    const direction = sort.desc ? -1 : 1;
    matched.sort((a, b) => {
      const order = compareValues(a[field], b[field]);
      // Ties fall back to the id so pages never overlap or skip a row.
      return (order === 0 ? a.id - b.id : order) * direction;
    });
    const start = (query.pageNum - 1) * query.pageSize;
    const page: ListPage<T> = { list: matched.slice(start, start + query.pageSize), total: matched.length };
    if (this.options.totals) {
      const totals: Record<string, number> = {};
      for (const field of this.options.totals) {
        let sum = 0;
        for (const item of matched) sum += Number(item[field]) || 0;
        totals[field] = sum;
      }
      page.totals = totals;
    }
    return page;
  }
}

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a).localeCompare(String(b));
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function dateBound(value: string, name: string): string {
  if (!DATE.test(value)) throw badRequest(`${name} must be a date written YYYY-MM-DD`);
  return value;
}

/** Filter helpers for CollectionOptions.filters. */
export const filterBy = {
  /** Equality on the value's text (so `muted=true` and `state=pending` both work). */
  exact<T>(field: keyof T): FilterFn<T> {
    return (item, value) => String(item[field]) === value;
  },
  /**
   * The `<key>From` / `<key>To` pair of a datetime field (DESIGN section 3 via the resource
   * contract): calendar dates, both ends included, compared on the ISO text's UTC date.
   */
  dateRange<T>(field: keyof T & string): Record<string, FilterFn<T>> {
    return {
      [`${field}From`]: (item, value) => String(item[field]).slice(0, 10) >= dateBound(value, `${field}From`),
      [`${field}To`]: (item, value) => String(item[field]).slice(0, 10) <= dateBound(value, `${field}To`),
    };
  },
};
