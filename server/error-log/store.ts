import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ErrorLogEntry, ErrorLogPage } from '../contract/error-log.js';
import { AppendFile, OperationQueue, isNotFound, readLinesBackward, replaceFile } from '../lib/json-lines-file.js';

export interface ErrorLogStoreOptions {
  /** Directory holding error-log.jsonl and its rotated generations; created when missing. */
  dir: string;
  /** File name before `.jsonl` (default `error-log`), so two logs can share one directory. */
  name?: string;
  /** Size past which the current file is rotated, bytes. */
  maxFileBytes?: number;
  /** Rotated generations kept beside the current file (error-log.1.jsonl ... error-log.N.jsonl). */
  generations?: number;
}

export interface ErrorLogQuery {
  /** 1-based. */
  pageNum: number;
  pageSize: number;
  /** Case-insensitive substring of the message or the URL. */
  keyword?: string;
  /** Inclusive bounds on the entry time, epoch milliseconds. */
  since?: number;
  until?: number;
  /** Only the entries this user's sessions wrote (never the anonymous ones). */
  owner?: string;
  /** Which part of a log kept in parts (lanes.ts) is meant; a log of one part ignores it. */
  lane?: ErrorLogLane;
}

/**
 * The parts of the log: entries of logged-in sessions, and anonymous ones (posted without a
 * session), which have a small share of their own so that a flood of them evicts only their own.
 */
export type ErrorLogLane = 'signed-in' | 'anonymous';

/** What a clear removes: everything, or one user's entries; `lane` as in ErrorLogQuery. */
export interface ErrorLogScope {
  owner?: string;
  lane?: ErrorLogLane;
}

/**
 * What the error-log plugin needs: this file's ErrorLogStore in a single process, or
 * IpcErrorLogStore (ipc-store.ts) in a cluster worker, whose primary owns the one file and index.
 */
export interface ErrorLog {
  open(): Promise<void>;
  append(entry: ErrorLogEntry): Promise<void>;
  list(query: ErrorLogQuery): Promise<ErrorLogPage>;
  /** Removes the entries in scope; all of them without one. */
  clear(scope?: ErrorLogScope): Promise<void>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024;
export const DEFAULT_GENERATIONS = 3;

/** A stored line, or null for anything else (a torn line from a crash, foreign text). */
export function parseEntry(line: string): ErrorLogEntry | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const entry = value as Partial<Record<keyof ErrorLogEntry, unknown>>;
  if (typeof entry.id !== 'string' || typeof entry.time !== 'string') return null;
  if (typeof entry.message !== 'string' || typeof entry.url !== 'string') return null;
  return value as ErrorLogEntry;
}

/** A test for the query's filters, or null when it has none. */
export function matcher(query: ErrorLogQuery): ((entry: ErrorLogEntry) => boolean) | null {
  const keyword = query.keyword?.trim().toLowerCase() || undefined;
  const { since, until, owner } = query;
  if (keyword === undefined && since === undefined && until === undefined && owner === undefined) return null;
  return (entry) => {
    if (owner !== undefined && entry.userId !== owner) return false;
    if (
      keyword !== undefined &&
      !entry.message.toLowerCase().includes(keyword) &&
      !entry.url.toLowerCase().includes(keyword)
    ) {
      return false;
    }
    if (since !== undefined || until !== undefined) {
      const time = Date.parse(entry.time);
      if (Number.isNaN(time)) return false;
      if (since !== undefined && time < since) return false;
      if (until !== undefined && time > until) return false;
    }
    return true;
  };
}

/**
 * The UI error log: an append-only JSON-lines file with size-capped rotation.
 *
 * Every operation runs through one promise queue. That keeps appends whole and in order, and
 * keeps a listing from reading a file that a rotation or a clear is renaming under it; the log
 * takes a handful of writes a minute, so the serialisation costs nothing that matters.
 */
export class ErrorLogStore implements ErrorLog {
  readonly dir: string;
  readonly name: string;
  readonly maxFileBytes: number;
  readonly generations: number;

  private readonly queue = new OperationQueue('The error log is closed');
  /** The current file (generation 0); its byte count spares rotation a stat per append. */
  private readonly file: AppendFile;
  private opened = false;
  /** A failed write may have left a partial line; the next one must start on a fresh line. */
  private needsNewline = false;
  /**
   * Whole entries per generation (0 = current), null until counted. Rotated files never change,
   * so each is counted at most once per process and the total of an unfiltered listing is free.
   */
  private counts: (number | null)[];

  constructor(options: ErrorLogStoreOptions) {
    const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    const generations = options.generations ?? DEFAULT_GENERATIONS;
    if (!Number.isInteger(maxFileBytes) || maxFileBytes < 1)
      throw new RangeError('maxFileBytes must be a positive integer');
    if (!Number.isInteger(generations) || generations < 1)
      throw new RangeError('generations must be a positive integer');
    this.dir = options.dir;
    this.name = options.name ?? 'error-log';
    this.maxFileBytes = maxFileBytes;
    this.generations = generations;
    this.counts = new Array<number | null>(generations + 1).fill(null);
    this.file = new AppendFile(this.pathOf(0), 'The error log');
  }

  /** Path of a generation: 0 is the file being written, 1..N the rotated ones, 1 the newest. */
  pathOf(generation: number): string {
    return join(this.dir, generation === 0 ? `${this.name}.jsonl` : `${this.name}.${generation}.jsonl`);
  }

  /** Creates the directory and repairs a torn last line. Other calls do this on first use. */
  open(): Promise<void> {
    return this.enqueue(() => this.ensureOpen());
  }

  /** Resolves once the entry is written as one whole line (not fsynced). */
  append(entry: ErrorLogEntry): Promise<void> {
    // Serialised before queueing so a bad entry fails its own call, not the queue.
    const line = JSON.stringify(entry) + '\n';
    return this.enqueue(async () => {
      await this.ensureOpen();
      let data = Buffer.from(line, 'utf8');
      if (this.file.bytes > 0 && this.file.bytes + data.length > this.maxFileBytes) await this.rotate();
      if (this.needsNewline) data = Buffer.concat([Buffer.from('\n'), data]);
      await this.writeWhole(data);
      this.needsNewline = false;
      if (this.counts[0] != null) this.counts[0] += 1;
    });
  }

  list(query: ErrorLogQuery): Promise<ErrorLogPage> {
    const pageNum = Math.max(1, Math.floor(query.pageNum));
    const pageSize = Math.max(1, Math.floor(query.pageSize));
    return this.enqueue(async () => {
      await this.ensureOpen();
      const skip = (pageNum - 1) * pageSize;
      const match = matcher(query);
      return match ? this.scanFiltered(match, skip, pageSize) : this.scanAll(skip, pageSize);
    });
  }

  /** Removes every generation (the log starts empty), or one user's entries from each. */
  clear(scope: ErrorLogScope = {}): Promise<void> {
    const { owner } = scope;
    if (owner !== undefined) return this.enqueue(() => this.removeWhere((entry) => entry.userId === owner));
    return this.enqueue(async () => {
      await this.ensureOpen();
      await this.file.close();
      for (let generation = 0; generation <= this.generations; generation++) {
        await rm(this.pathOf(generation), { force: true });
      }
      this.counts.fill(0);
      this.needsNewline = false;
      await this.file.open();
    });
  }

  /** Waits for every write queued so far. */
  flush(): Promise<void> {
    return this.queue.flush();
  }

  /** Flushes and releases the file; later calls reject. Safe to call twice. */
  close(): Promise<void> {
    return this.queue.close(() => this.file.close());
  }

  /**
   * Rewrites each generation without the entries `drop` matches (replaceFile: a crash leaves
   * either the old file or the new one). Lines that are not entries are dropped too; they would
   * be skipped by every listing anyway.
   */
  private async removeWhere(drop: (entry: ErrorLogEntry) => boolean): Promise<void> {
    await this.ensureOpen();
    await this.file.close();
    try {
      for (let generation = 0; generation <= this.generations; generation++) {
        const kept: string[] = [];
        let removed = 0;
        for await (const line of readLinesBackward(this.pathOf(generation))) {
          const entry = parseEntry(line);
          if (entry && !drop(entry)) kept.push(line);
          else removed++;
        }
        this.counts[generation] = kept.length;
        if (removed === 0) continue;
        const text = kept
          .reverse()
          .map((line) => `${line}\n`)
          .join('');
        await replaceFile(this.pathOf(generation), (out) => out.writeFile(text));
      }
    } finally {
      this.needsNewline = false;
      await this.file.open();
    }
  }

  private enqueue<T>(operation: () => Promise<T>): Promise<T> {
    return this.queue.run(operation);
  }

  private async ensureOpen(): Promise<void> {
    if (this.opened) return;
    await mkdir(this.dir, { recursive: true });
    await this.file.open();
    if (this.file.bytes > 0) {
      const last = await this.file.read(this.file.bytes - 1, 1);
      // A crash mid-write left a torn line; end it so the next entry is not glued onto it.
      if (last[0] !== 0x0a) await this.writeWhole(Buffer.from('\n'));
    }
    this.opened = true;
  }

  /** A failed write may have left part of its line: the next one starts on a fresh line, and the count is read again. */
  private writeWhole(data: Buffer): Promise<void> {
    return this.file.append(data, async () => {
      this.needsNewline = true;
      this.counts[0] = null;
      this.file.bytes = await this.file.size().catch(() => this.file.bytes);
    });
  }

  private async rotate(): Promise<void> {
    await this.file.close();
    for (let generation = this.generations - 1; generation >= 0; generation--) {
      try {
        // rename replaces the target atomically, so the oldest generation drops off here.
        await rename(this.pathOf(generation), this.pathOf(generation + 1));
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    }
    this.counts = [0, ...this.counts.slice(0, this.generations)];
    await this.file.open();
  }

  private async countOf(generation: number): Promise<number> {
    const known = this.counts[generation];
    if (known != null) return known;
    let count = 0;
    for await (const line of readLinesBackward(this.pathOf(generation))) {
      if (parseEntry(line)) count++;
    }
    this.counts[generation] = count;
    return count;
  }

  private async scanAll(skip: number, pageSize: number): Promise<ErrorLogPage> {
    let total = 0;
    for (let generation = 0; generation <= this.generations; generation++) total += await this.countOf(generation);
    const list: ErrorLogEntry[] = [];
    let toSkip = skip;
    for (let generation = 0; generation <= this.generations && list.length < pageSize; generation++) {
      const count = await this.countOf(generation);
      // Whole generations before the page are skipped by their count, without reading them.
      if (toSkip >= count) {
        toSkip -= count;
        continue;
      }
      for await (const line of readLinesBackward(this.pathOf(generation))) {
        const entry = parseEntry(line);
        if (!entry) continue;
        if (toSkip > 0) {
          toSkip--;
          continue;
        }
        list.push(entry);
        if (list.length >= pageSize) break;
      }
    }
    return { list, total };
  }

  private async scanFiltered(
    match: (entry: ErrorLogEntry) => boolean,
    skip: number,
    pageSize: number,
  ): Promise<ErrorLogPage> {
    const list: ErrorLogEntry[] = [];
    let total = 0;
    for (let generation = 0; generation <= this.generations; generation++) {
      for await (const line of readLinesBackward(this.pathOf(generation))) {
        const entry = parseEntry(line);
        if (!entry || !match(entry)) continue;
        if (total >= skip && list.length < pageSize) list.push(entry);
        total++;
      }
    }
    return { list, total };
  }
}
