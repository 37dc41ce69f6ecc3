import type { QueryClient } from '@tanstack/react-query';
import type { ListResource } from '#contract';
import { listQueryOptions } from '../shared/queries.js';
import { listQueryParams, parseListState } from './url-state.js';

type Filters = Readonly<Record<string, string>>;
type ListQuery = ReturnType<typeof listQueryOptions>;

/**
 * How long a page sent for before anything shows it stays cached. A list page nothing shows
 * leaves the cache at once; a page sent for early would otherwise be answered and dropped before
 * the screen that reads it is committed (a slow first build, a long press on a menu entry), and
 * the screen would then ask for it a second time.
 */
export const EARLY_PAGE_KEPT_MS = 10_000;

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

/**
 * Sends for a list page ahead of the screen that will show it, and keeps the answer until that
 * screen reads it. The cache's freshness rules hold: a page cached and fresh is not asked again.
 */
export function sendEarly(client: QueryClient, query: ListQuery): void {
  void client.prefetchQuery({ ...query, gcTime: EARLY_PAGE_KEPT_MS });
}
