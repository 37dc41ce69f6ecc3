import type { ErrorLogEntry, ErrorLogPage } from '../contract/error-log.js';
import {
  DEFAULT_MAX_FILE_BYTES,
  ErrorLogStore,
  type ErrorLog,
  type ErrorLogLane,
  type ErrorLogQuery,
  type ErrorLogScope,
} from './store.js';

/**
 * The share of the log anonymous entries get, beside (not out of) the logged-in sessions' share:
 * anyone who reaches the console can post them, so a flood may only ever push out its own kind.
 */
export const ANONYMOUS_SHARE = 0.1;

/** The anonymous lane's cap for a logged-in lane capped at `cap` (bytes or entries). */
export function anonymousCap(cap: number, least: number): number {
  return Math.max(least, Math.floor(cap * ANONYMOUS_SHARE));
}

/** The lane an entry belongs to: anonymous when no sealed session wrote it. */
export function laneOf(entry: ErrorLogEntry): ErrorLogLane {
  return entry.userId === null ? 'anonymous' : 'signed-in';
}

/** Newest first by entry time (ISO 8601 in UTC sorts as text); the signed-in lane first on a tie. */
function mergeNewestFirst(a: ErrorLogEntry[], b: ErrorLogEntry[]): ErrorLogEntry[] {
  const out: ErrorLogEntry[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.time >= b[j]!.time)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}

/**
 * An error log kept in two lanes, each with its own cap: entries of logged-in sessions, and
 * anonymous ones. Listings merge them newest first; a listing or a clear of one user's entries
 * touches the signed-in lane only. Each lane is any ErrorLog: files (localErrorLog below) or Redis
 * streams (server/error-log/redis-store.ts), so the rule holds wherever the log lives.
 */
export class LanedErrorLog implements ErrorLog {
  constructor(private readonly lanes: Record<ErrorLogLane, ErrorLog>) {}

  async open(): Promise<void> {
    await this.lanes['signed-in'].open();
    await this.lanes.anonymous.open();
  }

  append(entry: ErrorLogEntry): Promise<void> {
    return this.lanes[laneOf(entry)].append(entry);
  }

  async list(query: ErrorLogQuery): Promise<ErrorLogPage> {
    const { lane, ...rest } = query;
    if (lane !== undefined) return this.lanes[lane].list(rest);
    if (rest.owner !== undefined) return this.lanes['signed-in'].list(rest);
    const pageNum = Math.max(1, Math.floor(rest.pageNum));
    const pageSize = Math.max(1, Math.floor(rest.pageSize));
    // The page of the merged lanes lies within the first pageNum * pageSize entries of each.
    const head = { ...rest, pageNum: 1, pageSize: pageNum * pageSize };
    const [signedIn, anonymous] = await Promise.all([
      this.lanes['signed-in'].list(head),
      this.lanes.anonymous.list(head),
    ]);
    const merged = mergeNewestFirst(signedIn.list, anonymous.list);
    return {
      list: merged.slice((pageNum - 1) * pageSize, pageNum * pageSize),
      total: signedIn.total + anonymous.total,
    };
  }

  async clear(scope: ErrorLogScope = {}): Promise<void> {
    const { lane, ...rest } = scope;
    if (lane !== undefined) return this.lanes[lane].clear(rest);
    await this.lanes['signed-in'].clear(rest);
    if (rest.owner === undefined) await this.lanes.anonymous.clear(rest);
  }

  async flush(): Promise<void> {
    await Promise.all([this.lanes['signed-in'].flush(), this.lanes.anonymous.flush()]);
  }

  async close(): Promise<void> {
    await Promise.all([this.lanes['signed-in'].close(), this.lanes.anonymous.close()]);
  }
}

/**
 * This process's log under DATA_DIR: `error-log.jsonl` (and its rotations) for logged-in sessions,
 * `error-log-anonymous.jsonl` with a tenth of the size for anonymous entries.
 */
export function localErrorLog(dir: string, maxFileBytes: number = DEFAULT_MAX_FILE_BYTES): LanedErrorLog {
  return new LanedErrorLog({
    'signed-in': new ErrorLogStore({ dir, maxFileBytes }),
    anonymous: new ErrorLogStore({ dir, name: 'error-log-anonymous', maxFileBytes: anonymousCap(maxFileBytes, 1) }),
  });
}
