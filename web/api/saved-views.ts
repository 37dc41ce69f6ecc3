import { queryOptions } from '@tanstack/react-query';
import { SAVED_VIEW_CALLS, type SavedView, type SavedViewList } from '#contract/saved-views';
import { api, request } from './client.js';

/**
 * The administrator's saved views of one list, kept at the gateway (/api/saved-views). Every call
 * is quiet: the views menu says in its own words what failed, in place of the client's toast.
 */

export const savedViewKeys = {
  all: ['saved-views'] as const,
  of: (resource: string) => ['saved-views', resource] as const,
};

export async function fetchSavedViews(resource: string, signal?: AbortSignal): Promise<SavedView[]> {
  return (
    (await api.get<SavedViewList>(SAVED_VIEW_CALLS.list(resource), undefined, { signal, quiet: true })).data?.list ?? []
  );
}

export function savedViewsQueryOptions(resource: string) {
  return queryOptions({
    queryKey: savedViewKeys.of(resource),
    queryFn: ({ signal }) => fetchSavedViews(resource, signal),
    // Views change from this menu (which writes the answer into the cache) or another browser,
    // seldom: a list opened again within a minute need not ask.
    staleTime: 60_000,
  });
}

/** Saves one view (replacing one of that name in its place); answers the list as it now is. */
export async function saveView(resource: string, view: SavedView): Promise<SavedView[]> {
  return (
    (await request<SavedViewList>('PUT', SAVED_VIEW_CALLS.list(resource), { body: view, quiet: true })).data?.list ?? []
  );
}

export async function deleteView(resource: string, name: string): Promise<void> {
  await api.delete(SAVED_VIEW_CALLS.one(resource, name), undefined, { quiet: true });
}
