import { queryOptions } from '@tanstack/react-query';
import { RECORD_ID_FILTER, resourceCalls, type ListResource } from '#contract';
import { ApiError, api } from '../../api/client.js';

const NOT_FOUND = 404;
import { fetchList, resourceKeys, type Row } from '../shared/queries.js';
import { recordOf } from './record-fields.js';

/** What a record's page shows: the record (null: the backend has none with this id) and the whole detail answer. */
export interface RecordAnswer {
  record: Row | null;
  /** The detail call's answer (a user's wallet, groups…); null for a resource without one. */
  detail: unknown;
}

/**
 * Rows a record's page was opened from (a list row, a search hit), by resource and id: the page
 * draws the record from it at once while its own call is under way, then from the answer. A few
 * are kept, the last ones opened.
 */
const seeds = new Map<string, Row>();
const SEEDS_KEPT = 20;
const seedKey = (resourceId: string, id: string) => `${resourceId}/${id}`;

/** The record about to be opened, as the row it is opened from shows it. */
export function seedRecord(resourceId: string, row: Row): void {
  const key = seedKey(resourceId, String(row.id));
  seeds.delete(key);
  seeds.set(key, row);
  if (seeds.size > SEEDS_KEPT) seeds.delete(seeds.keys().next().value!);
}

/**
 * One record: by the detail call where the resource has one, else by the list's `id` filter. A
 * backend that ignores the filter answers other records, so only the row with this id counts.
 * Quiet: the page says what went wrong in place of the record rather than in a toast.
 */
export function recordQueryOptions(resource: Pick<ListResource, 'id' | 'path' | 'fields' | 'detail'>, id: string) {
  return queryOptions<RecordAnswer, Error, RecordAnswer, ReturnType<typeof resourceKeys.record>>({
    queryKey: resourceKeys.record(resource, id),
    // Shown until the answer is in (`isPlaceholderData`): the row it was opened from, no detail yet.
    placeholderData: (): RecordAnswer | undefined => {
      const row = seeds.get(seedKey(resource.id, id));
      return row ? { record: row, detail: null } : undefined;
    },
    queryFn: async ({ signal }): Promise<RecordAnswer> => {
      if (resource.detail) {
        try {
          const data = (await api.get<unknown>(resourceCalls(resource).detail, { id }, { signal, quiet: true })).data;
          return { record: recordOf(resource, data), detail: data ?? null };
        } catch (error) {
          // The backend's "no such record" (its call exists, the id does not): the page says so.
          if (error instanceof ApiError && error.code === NOT_FOUND && !error.missingCall)
            return { record: null, detail: null };
          throw error;
        }
      }
      const answer = await fetchList(resource, { [RECORD_ID_FILTER]: id, pageSize: 1 }, signal, true);
      return { record: answer.list.find((row) => String(row.id) === id) ?? null, detail: null };
    },
  });
}
