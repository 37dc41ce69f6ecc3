import { resourceCalls, type ListAnswer, type ListResource } from '#contract';
import { ApiError, api } from '../../api/client.js';
import { appliesTo } from '../actions/actions.js';
import { foldKey, type ImportRow, type ImportSpec } from './import-rows.js';
import type { Row } from '../shared/queries.js';

/**
 * Running an import row by row through the screen's own calls (the list's search, then its create
 * or the row action), so whatever backend map binds the screen binds its import too. A row whose
 * record is already there is skipped rather than sent, which makes a second run of the same file
 * a run of skips. A few rows go at once; a Cancel stops between rows; a lost connection stops the
 * run, since every row after it would fail the same way.
 */

export type RunStatus = 'added' | 'done' | 'skipped' | 'refused' | 'notSent';

export interface RunOutcome {
  status: RunStatus;
  /** Why a row was skipped or refused: a reason of the console's, or the backend's own words. */
  reason?: { kind: 'present' | 'applied' | 'missing' } | { kind: 'backend'; message: string };
}

/** Rows sent at once: well under a session's MAX_INFLIGHT_PER_SESSION, so the screen stays usable. */
export const IMPORT_CONCURRENCY = 4;
/** Pages of search results read to find one record by its key, at most (100 rows a page). */
const LOOKUP_PAGES = 10;
const LOOKUP_PAGE_SIZE = 100;

export interface ImportCalls {
  /** The records whose searchable text contains `keyword`: one page. */
  search(keyword: string, pageNum: number, pageSize: number, signal: AbortSignal): Promise<ListAnswer<Row>>;
  create(values: Record<string, unknown>): Promise<void>;
  act(action: string, body: Record<string, unknown>): Promise<void>;
}

/** The screen's own calls, quiet: the report says what went wrong, row by row, instead of a toast per row. */
export function screenCalls(resource: Pick<ListResource, 'path'>): ImportCalls {
  const calls = resourceCalls(resource);
  return {
    search: async (keyword, pageNum, pageSize, signal) => {
      const env = await api.get<ListAnswer<Row>>(calls.list, { keyword, pageNum, pageSize }, { signal, quiet: true });
      return env.data && Array.isArray(env.data.list) ? env.data : { list: [], total: 0 };
    },
    create: async (values) => void (await api.post(calls.save, values, { quiet: true })),
    act: async (action, body) => void (await api.post(calls.action(action), body, { quiet: true })),
  };
}

/** The record whose key reads as `value`, among the search results for it; null when there is none. */
export async function findByKey(
  calls: ImportCalls,
  key: string,
  value: unknown,
  signal: AbortSignal,
): Promise<Row | null> {
  const wanted = foldKey(value);
  for (let pageNum = 1; pageNum <= LOOKUP_PAGES; pageNum++) {
    const page = await calls.search(String(value).trim(), pageNum, LOOKUP_PAGE_SIZE, signal);
    const hit = page.list.find((row) => foldKey(row[key]) === wanted);
    if (hit) return hit;
    if (page.list.length < LOOKUP_PAGE_SIZE) break;
  }
  return null;
}

function refusal(error: unknown): RunOutcome {
  return {
    status: 'refused',
    reason: { kind: 'backend', message: error instanceof Error ? error.message : String(error) },
  };
}

/** Calls that cannot go on: the connection is gone, or the session ended. */
function isFatal(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 0 || error.code === 401);
}

async function importOne(
  calls: ImportCalls,
  spec: ImportSpec,
  row: ImportRow,
  signal: AbortSignal,
): Promise<RunOutcome> {
  const key = spec.key.key;
  const existing = await findByKey(calls, key, row.values[key], signal);
  if (!spec.action) {
    if (existing) return { status: 'skipped', reason: { kind: 'present' } };
    await calls.create(row.values);
    return { status: 'added' };
  }
  if (!existing) return { status: 'refused', reason: { kind: 'missing' } };
  if (!appliesTo(spec.action, existing)) return { status: 'skipped', reason: { kind: 'applied' } };
  const inputs = Object.fromEntries(Object.entries(row.values).filter(([name]) => name !== key));
  await calls.act(spec.action.name, { id: existing.id, ...inputs });
  return { status: 'done' };
}

export interface RunOptions {
  calls: ImportCalls;
  spec: ImportSpec;
  /** The rows to send: those the preview found ready. */
  rows: readonly ImportRow[];
  signal: AbortSignal;
  onProgress: (finished: number, total: number) => void;
  concurrency?: number;
}

/** Every row's outcome by its line; rows not reached (cancelled, or after a lost connection) are `notSent`. */
export async function runImport({
  calls,
  spec,
  rows,
  signal,
  onProgress,
  concurrency = IMPORT_CONCURRENCY,
}: RunOptions): Promise<Map<number, RunOutcome>> {
  const outcomes = new Map<number, RunOutcome>();
  const stop = new AbortController();
  const halted = AbortSignal.any([signal, stop.signal]);
  let next = 0;
  let finished = 0;
  onProgress(0, rows.length);
  const worker = async () => {
    while (!halted.aborted && next < rows.length) {
      const row = rows[next++]!;
      let outcome: RunOutcome;
      try {
        outcome = await importOne(calls, spec, row, halted);
      } catch (error) {
        if (halted.aborted) break;
        if (isFatal(error)) stop.abort();
        outcome = refusal(error);
      }
      outcomes.set(row.line, outcome);
      onProgress(++finished, rows.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, rows.length)) }, worker));
  for (const row of rows) if (!outcomes.has(row.line)) outcomes.set(row.line, { status: 'notSent' });
  return outcomes;
}
