import type { ErrorLogEntry, ErrorLogPage } from '../contract/error-log.js';
import {
  matcher,
  parseEntry,
  type ErrorLog,
  type ErrorLogLane,
  type ErrorLogQuery,
  type ErrorLogScope,
} from './store.js';
import type { RedisShare } from '../redis/share.js';
import { RedisFallback } from '../redis/fallback.js';
import { streamChunks, streamField } from '../lib/redis-stream-pages.js';

export interface RedisErrorLogOptions {
  share: RedisShare;
  /** ERROR_LOG_MAX_ENTRIES: the stream is trimmed to this many entries on every write. */
  maxEntries: number;
  /** The stream's key (before the share's prefix); default `error-log`. */
  stream?: string;
  /**
   * The lane of a laned log (server/error-log/lanes.ts) this stream holds: what it asks of its
   * fallback, when that is a whole laned log, so the other lane's entries are not listed twice.
   */
  lane?: ErrorLogLane;
  /** This process's own log (the JSON-lines file, or the cluster primary's): used while Redis is away. */
  fallback: ErrorLog;
  /** Told of each entry that went to the fallback instead of Redis (the metric). */
  onFallbackWrite?(): void;
  /** Told when the log starts or stops falling back, with the reason. */
  onFallback?(active: boolean, reason: string): void;
}

/** Entries read per round trip while paging or filtering, so a long log is never read in one answer. */
const CHUNK = 500;
/** Entries of an outage remembered for sharing afterwards; beyond this the oldest stay local only. */
const UNSHARED_MAX = 1_000;
const DEFAULT_STREAM = 'error-log';
const FIELD = 'entry';

/**
 * The error log every replica and worker shares: a Redis stream capped at ERROR_LOG_MAX_ENTRIES,
 * newest last, one entry per UI error. Whenever Redis cannot be reached, reads and writes go to
 * the local log instead, so the screen keeps working and no error is lost; once Redis is back,
 * what was written locally meanwhile (up to a thousand entries) is added to the shared log.
 */
export class RedisErrorLog implements ErrorLog {
  private readonly fallback: RedisFallback;
  private readonly stream: string;

  /** Entries written to the local log while Redis was away, to be shared once it is back. */
  private unshared: ErrorLogEntry[] = [];

  constructor(private readonly options: RedisErrorLogOptions) {
    this.stream = options.stream ?? DEFAULT_STREAM;
    this.fallback = new RedisFallback(options.share, (active, reason) => this.options.onFallback?.(active, reason));
    // Back to the shared log as soon as Redis is, not at the next write: /readyz says so at once.
    options.share.onReady(() => {
      this.fallback.note(false, 'Redis is ready');
      void this.shareUnshared();
    });
  }

  /** Whether the last operation went to the local log because Redis could not be reached. */
  get usingFallback(): boolean {
    return this.fallback.usingFallback;
  }

  /** The local log is opened too: an unwritable DATA_DIR still stops the start. */
  open(): Promise<void> {
    return this.options.fallback.open();
  }

  async append(entry: ErrorLogEntry): Promise<void> {
    const line = JSON.stringify(entry);
    const { share, maxEntries } = this.options;
    const done = await this.shared(() =>
      share.command.xadd(share.key(this.stream), 'MAXLEN', maxEntries, '*', FIELD, line),
    );
    if (done) return;
    await this.options.fallback.append(entry);
    this.options.onFallbackWrite?.();
    this.unshared.push(entry);
    if (this.unshared.length > UNSHARED_MAX) this.unshared.shift();
  }

  async list(query: ErrorLogQuery): Promise<ErrorLogPage> {
    const pageNum = Math.max(1, Math.floor(query.pageNum));
    const pageSize = Math.max(1, Math.floor(query.pageSize));
    const page = await this.sharedValue(() => this.scan(query, (pageNum - 1) * pageSize, pageSize));
    return page ?? this.options.fallback.list(this.inLane(query));
  }

  async clear(scope: ErrorLogScope = {}): Promise<void> {
    const { owner } = scope;
    const { share } = this.options;
    if (owner === undefined) {
      this.unshared = [];
      await this.shared(() => share.command.del(share.key(this.stream)));
    } else {
      this.unshared = this.unshared.filter((entry) => entry.userId !== owner);
      await this.shared(() => this.remove((entry) => entry.userId === owner));
    }
    // The local log is cleared too: what the operator asked to forget must not come back from it.
    await this.options.fallback.clear(this.inLane(scope));
  }

  private inLane<T extends ErrorLogQuery | ErrorLogScope>(value: T): T {
    return this.options.lane === undefined ? value : { ...value, lane: this.options.lane };
  }

  /** Deletes the stream's entries `drop` matches, reading the stream a chunk at a time. */
  private async remove(drop: (entry: ErrorLogEntry) => boolean): Promise<void> {
    const { share } = this.options;
    const key = share.key(this.stream);
    for await (const chunk of streamChunks(share.command, key, { count: CHUNK, direction: 'forward' })) {
      const ids = chunk.filter(([, fields]) => {
        const entry = parseEntry(streamField(fields, FIELD) ?? '');
        return entry !== null && drop(entry);
      });
      if (ids.length > 0) await share.command.xdel(key, ...ids.map(([id]) => id));
    }
  }

  async flush(): Promise<void> {
    await this.options.fallback.flush();
  }

  async close(): Promise<void> {
    await this.options.fallback.close();
  }

  /**
   * Adds what was written locally during an outage to the shared log (as its newest entries; each
   * keeps its own time), so every replica lists it. The local file keeps its copy.
   */
  private async shareUnshared(): Promise<void> {
    const { share, maxEntries } = this.options;
    while (this.unshared.length > 0 && share.available) {
      const batch = this.unshared.slice(0, CHUNK);
      const pipeline = share.command.pipeline();
      for (const entry of batch)
        pipeline.xadd(share.key(this.stream), 'MAXLEN', maxEntries, '*', FIELD, JSON.stringify(entry));
      try {
        const results = (await pipeline.exec()) ?? [];
        if (results.some(([error]) => error)) return;
      } catch {
        return;
      }
      this.unshared.splice(0, batch.length);
    }
  }

  private async scan(query: ErrorLogQuery, skip: number, pageSize: number): Promise<ErrorLogPage> {
    const { share } = this.options;
    const key = share.key(this.stream);
    const match = matcher(query);
    const list: ErrorLogEntry[] = [];
    let total = 0;
    let toSkip = skip;
    if (!match) total = await share.command.xlen(key);
    for await (const chunk of streamChunks(share.command, key, { count: CHUNK, direction: 'backward' })) {
      for (const [, fields] of chunk) {
        const entry = parseEntry(streamField(fields, FIELD) ?? '');
        if (!entry || (match && !match(entry))) continue;
        if (match) total++;
        if (toSkip > 0) {
          toSkip--;
          continue;
        }
        if (list.length < pageSize) list.push(entry);
      }
      // Unfiltered, the total is the stream's length: reading stops once the page is full.
      if (!match && list.length >= pageSize) break;
    }
    return { list, total };
  }

  private async shared(operation: () => Promise<unknown>): Promise<boolean> {
    return (await this.sharedValue(async () => (await operation(), true))) ?? false;
  }

  private sharedValue<T>(operation: () => Promise<T>): Promise<T | null> {
    return this.fallback.run(operation);
  }
}
