import type { ListResource } from '#contract';
import { listQueryOptions } from '../shared/queries.js';
import { listQueryParams, parseListState } from './url-state.js';

type Filters = Readonly<Record<string, string>>;

/** The resource as a list screen's address reads it: with the filters the screen opens on (a review queue's pending state). */
export function listShape<R extends ListResource>(
  resource: R,
  defaultFilters: Filters | undefined,
): R & { defaultFilters?: Filters } {
  return defaultFilters ? { ...resource, defaultFilters } : resource;
}

/**
 * The page a list screen asks for at its bare address, as a menu entry opens it: the same query
 * (and so the same cache entry) the screen itself then reads.
 */
export function openingListQuery(resource: ListResource, defaultFilters: Filters | undefined) {
  return listQueryOptions(resource, listQueryParams(parseListState('', listShape(resource, defaultFilters))));
}
