import { RECORD_ID_FILTER, type ListResource } from '../../server/contract/index.js';
import type { FilterFn, QuerySpec } from './collection.js';
import { filterBy } from './collection.js';

type Row = Record<string, unknown>;

/**
 * The list semantics of a resource, read off its definition: keyword fields, sortable fields
 * (plus the id and the default sort), filters (the record id; equality for select, switch, text
 * and number fields; a From/To date pair for date and datetime fields) and money totals.
 */
export function specFor<T>(resource: ListResource): QuerySpec<T> {
  const sortText = resource.defaultSort;
  const defaultField = sortText.replace(/^-/, '');
  const sortFields = new Set<string>(['id', defaultField]);
  // Every list answers `id` alone: a record's page reads a record that has no detail call this way.
  const filters: Record<string, FilterFn<Row>> = { [RECORD_ID_FILTER]: filterBy.exact<Row>('id') };
  for (const field of resource.fields) {
    if (field.sortable) sortFields.add(field.key);
    if (!field.filter) continue;
    if (field.kind === 'date' || field.kind === 'datetime') Object.assign(filters, filterBy.dateRange<Row>(field.key));
    else filters[field.key] = filterBy.exact<Row>(field.key);
  }
  return {
    keywordFields: [...resource.keywordFields] as (keyof T & string)[],
    sortFields: [...sortFields] as (keyof T & string)[],
    defaultSort: { field: defaultField as keyof T & string, desc: sortText.startsWith('-') },
    filters: filters as unknown as Record<string, FilterFn<T>>,
    ...(resource.totals ? { totals: [...resource.totals] as (keyof T & string)[] } : {}),
  };
}

/** The resource's spec with a table's own extras kept (a bills `userId` filter, more keyword fields). */
export function mergeSpec<T>(own: QuerySpec<T>, declared: QuerySpec<T>): QuerySpec<T> {
  return {
    keywordFields: [...new Set([...declared.keywordFields, ...own.keywordFields])],
    sortFields: [...new Set([...declared.sortFields, ...own.sortFields])],
    defaultSort: declared.defaultSort,
    filters: { ...own.filters, ...declared.filters },
    ...(declared.totals || own.totals
      ? { totals: [...new Set([...(declared.totals ?? []), ...(own.totals ?? [])])] }
      : {}),
  };
}
