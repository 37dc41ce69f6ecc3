import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { resourceCalls, type ListAnswer, type Resource } from '#contract';
import { api, type Query } from '../../api/client.js';
import { partlyDone } from '../actions/partly-done.js';

/**
 * One query-options factory per backend call, with keys that nest under the resource so a
 * mutation can invalidate exactly what it changed: ['resource', id, call, params].
 */

type Ref = Pick<Resource, 'id' | 'path'>;
export type Row = Record<string, unknown>;

/** Empty values are left out so `{keyword: ''}` and `{}` share a cache entry. */
export function normaliseParams(params: Query): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const key of Object.keys(params).sort()) {
    const v = params[key];
    if (v !== undefined && v !== null && v !== '') out[key] = v;
  }
  return out;
}

export const resourceKeys = {
  all: (r: Ref) => ['resource', r.id] as const,
  lists: (r: Ref) => ['resource', r.id, 'list'] as const,
  list: (r: Ref, params: Query) => ['resource', r.id, 'list', normaliseParams(params)] as const,
  details: (r: Ref) => ['resource', r.id, 'detail'] as const,
  /** A record's page: its record, read by the detail call or the list's id filter. */
  record: (r: Ref, id: string) => ['resource', r.id, 'record', id] as const,
  detail: (r: Ref, id: unknown) => ['resource', r.id, 'detail', String(id)] as const,
  config: (r: Ref) => ['resource', r.id, 'config'] as const,
  statistics: (r: Ref, params: Query) => ['resource', r.id, 'statistics', normaliseParams(params)] as const,
  preview: (r: Ref, params: Query) => ['resource', r.id, 'preview', normaliseParams(params)] as const,
};

const EMPTY_LIST: ListAnswer<Row> = { list: [], total: 0 };

/** `quiet`: the caller shows a failure in place rather than in a toast. */
export async function fetchList(
  resource: Ref,
  params: Query,
  signal?: AbortSignal,
  quiet?: boolean,
): Promise<ListAnswer<Row>> {
  const env = await api.get<ListAnswer<Row>>(resourceCalls(resource).list, normaliseParams(params), { signal, quiet });
  const data = env.data;
  return data && Array.isArray(data.list) ? data : EMPTY_LIST;
}

export function listQueryOptions(resource: Ref, params: Query) {
  return queryOptions({
    queryKey: resourceKeys.list(resource, params),
    queryFn: ({ signal }) => fetchList(resource, params, signal),
    // The previous page stays on screen while the next one loads, so the table never blanks.
    placeholderData: keepPreviousData,
    // A page left behind is dropped at once instead of cached for five minutes: paging through
    // a 100,000-user list must not grow the tab's memory, and a revisit should show fresh rows.
    gcTime: 0,
  });
}

export function detailQueryOptions<T = Row>(resource: Ref, id: unknown) {
  return queryOptions({
    queryKey: resourceKeys.detail(resource, id),
    queryFn: async ({ signal }) =>
      (await api.get<T>(resourceCalls(resource).detail, { id: String(id) }, { signal })).data as T,
  });
}

export function configQueryOptions(resource: Ref) {
  return queryOptions({
    queryKey: resourceKeys.config(resource),
    queryFn: async ({ signal }) =>
      ((await api.get<Row>(resourceCalls(resource).config, undefined, { signal })).data ?? {}) as Row,
    // A settings form must start from what the server holds now, not a cached copy.
    staleTime: 0,
  });
}

export function statisticsQueryOptions(resource: Ref, params: Query) {
  return queryOptions({
    queryKey: resourceKeys.statistics(resource, params),
    queryFn: ({ signal }) => fetchList(resource, params, signal),
    placeholderData: keepPreviousData,
  });
}

export function previewQueryOptions(resource: Ref, params: Query) {
  return queryOptions({
    queryKey: resourceKeys.preview(resource, params),
    queryFn: async ({ signal }) =>
      (await api.get<Row>(resourceCalls(resource).preview, normaliseParams(params), { signal })).data ?? {},
    staleTime: 0,
  });
}

/** Save (create or update) a record; errors stay on the form rather than in a toast. */
export function useSaveMutation(resource: Ref) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (record: Row) =>
      (await api.post<unknown>(resourceCalls(resource).save, record, { quiet: true })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: resourceKeys.all(resource) }),
  });
}

export function useDeleteMutation(resource: Ref) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (ids: readonly unknown[]) =>
      (await api.post<unknown>(resourceCalls(resource).remove, { ids })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: resourceKeys.all(resource) }),
    // Some ids gone, others refused (one backend call per id): the list no longer shows what it did.
    onError: (error) =>
      partlyDone(error)?.done.length ? client.invalidateQueries({ queryKey: resourceKeys.all(resource) }) : undefined,
  });
}

export interface ActionCall {
  name: string;
  body: Row;
  /** Input dialogs show the server's refusal themselves. */
  quiet?: boolean;
}

export function useActionMutation(resource: Ref) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, body, quiet }: ActionCall) =>
      (await api.post<unknown>(resourceCalls(resource).action(name), body, { quiet })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: resourceKeys.all(resource) }),
    onError: (error) =>
      partlyDone(error)?.done.length ? client.invalidateQueries({ queryKey: resourceKeys.all(resource) }) : undefined,
  });
}

export function useConfigMutation(resource: Ref) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (config: Row) =>
      (await api.post<unknown>(resourceCalls(resource).config, config, { quiet: true })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: resourceKeys.config(resource) }),
  });
}
