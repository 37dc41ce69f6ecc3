import type { ActionDef, Resource } from '#contract';
import type { Query } from '../../api/client.js';
import { appliesTo } from './actions.js';
import type { Refusal } from './bulk-report.js';
import { partlyDone } from './partly-done.js';
import { fetchList, type Row } from '../shared/queries.js';

/**
 * An action over every record matching a list's filters, not just the page on screen: the
 * matching rows are read first, page by page, then the action is sent in chunks, so a bulk ban
 * of 20,000 users is neither one giant request nor 20,000 dialogs.
 */

/** The page size the matching rows are read with (the largest a list call serves). */
export const MATCHING_PAGE_SIZE = 100;
/** Ids per call of a `target: 'bulk'` action. */
export const BULK_CHUNK_SIZE = 100;

export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (size < 1) throw new RangeError('chunk size must be at least 1');
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export type ListReader = (params: Query, signal: AbortSignal) => Promise<{ list: Row[]; total: number }>;

export const readerOf =
  (resource: Pick<Resource, 'id' | 'path'>): ListReader =>
  (params, signal) =>
    fetchList(resource, params, signal);

/**
 * Every row matching `params` (the list's filters, keyword and sort), read page by page. A row
 * seen twice (records added meanwhile push rows onto the next page) is kept once; the pages
 * counted from the first answer bound the walk, so a list that keeps growing cannot hold it forever.
 */
export async function collectMatching(
  read: ListReader,
  params: Query,
  signal: AbortSignal,
  onRead: (count: number, total: number) => void,
): Promise<Row[]> {
  const seen = new Map<string, Row>();
  let pages = 1;
  for (let pageNum = 1; pageNum <= pages; pageNum++) {
    signal.throwIfAborted();
    const answer = await read({ ...params, pageNum, pageSize: MATCHING_PAGE_SIZE }, signal);
    if (pageNum === 1) pages = Math.ceil(answer.total / MATCHING_PAGE_SIZE);
    for (const row of answer.list) if (!seen.has(String(row.id))) seen.set(String(row.id), row);
    onRead(seen.size, answer.total);
    if (answer.list.length < MATCHING_PAGE_SIZE) break;
  }
  return [...seen.values()];
}

export interface BulkResult {
  /** The rows the action went through on. */
  done: Row[];
  /** Rows the action's `when` leaves out (banning the already banned). */
  skipped: number;
  refused: Refusal[];
  /** Stopped by the administrator: the rows after `done` and `refused` were not sent. */
  cancelled: boolean;
}

export interface SendOptions {
  action: Pick<ActionDef, 'target' | 'when'>;
  rows: readonly Row[];
  /** One call: {ids} for a bulk action, {id} for a row action. */
  send: (body: { ids: unknown[] } | { id: unknown }) => Promise<unknown>;
  nameOf: (row: Row) => string;
  /** The message of a refusal without one of its own. */
  fallbackMessage: string;
  signal: AbortSignal;
  onProgress: (sent: number, total: number) => void;
  size?: number;
}

/** Sends the action over the rows it applies to: chunks of ids for a bulk action, one call per row for a row action. */
export async function sendInChunks({
  action,
  rows,
  send,
  nameOf,
  fallbackMessage,
  signal,
  onProgress,
  size = BULK_CHUNK_SIZE,
}: SendOptions): Promise<BulkResult> {
  const eligible = rows.filter((r) => appliesTo(action, r));
  const result: BulkResult = { done: [], skipped: rows.length - eligible.length, refused: [], cancelled: false };
  const groups = action.target === 'bulk' ? chunk(eligible, size) : eligible.map((r) => [r]);
  let sent = 0;
  onProgress(0, eligible.length);
  for (const group of groups) {
    if (signal.aborted) {
      result.cancelled = true;
      break;
    }
    try {
      await send(action.target === 'bulk' ? { ids: group.map((r) => r.id) } : { id: group[0]!.id });
      result.done.push(...group);
    } catch (error) {
      const message = error instanceof Error && error.message ? error.message : fallbackMessage;
      // Taken in part (one backend call per id): each row as the answer says, not the chunk as one.
      const partly = partlyDone(error);
      const done = new Set(partly?.done ?? []);
      const why = new Map((partly?.refused ?? []).map((r) => [r.id, r.message]));
      for (const r of group) {
        if (done.has(String(r.id))) result.done.push(r);
        else result.refused.push({ id: String(r.id), name: nameOf(r), message: why.get(String(r.id)) ?? message });
      }
    }
    sent += group.length;
    onProgress(sent, eligible.length);
  }
  return result;
}
