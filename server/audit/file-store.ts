import { mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AuditEntry, AuditPage } from '../contract/audit.js';
import {
  anchorLine,
  chain,
  entryLine,
  headOfAnchor,
  parseAnchor,
  parseEntryLine,
  type AuditAnchor,
  type AuditDraft,
  type ChainHead,
} from './chain.js';
import { ENTRY_MAX_BYTES } from './entry-bound.js';
import { AuditIndex } from './entry-index.js';
import { AppendFile, OperationQueue, isNotFound, readLinesForward, replaceFile } from '../lib/json-lines-file.js';
import {
  SEGMENT_SPAN,
  baseOf,
  fileDigest,
  headOfLink,
  linkLine,
  parseLink,
  recordRemoved,
  sealedSegments,
  segmentName,
  type SegmentLink,
} from './segments.js';
import type { AuditQuery, AuditStore } from './store.js';

export const AUDIT_FILE = 'audit.jsonl';
/** AUDIT_SEGMENT_BYTES and AUDIT_MAX_BYTES by default (segments.ts). */
export const DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024 * 1024;

/** A sealed segment as the store keeps it in mind: its number, name, size and how many entries it holds. */
interface Segment {
  number: number;
  file: string;
  bytes: number;
  entries: number;
}

export interface AuditFileStoreOptions {
  /** DATA_DIR: holds audit.jsonl; created when missing. */
  dir: string;
  /** File name (default audit.jsonl), so a second trail (Redis's fallback in tests) can sit beside. */
  file?: string;
  /** Told when the trail found at start does not read as whole entries (a hand-edited file). */
  onDamage?(detail: string): void;
  /** AUDIT_SEGMENT_BYTES: the file is sealed into a segment once it holds this many bytes. */
  segmentBytes?: number;
  /** AUDIT_MAX_BYTES: past it, the oldest sealed segments are removed (recorded in audit-removed.jsonl). */
  maxBytes?: number;
}

/**
 * The audit trail as one append-only JSON-lines file under DATA_DIR: one canonical entry a line,
 * chained by hashes (chain.ts). Retention rewrites the file once a day at most, without the entries
 * past AUDIT_RETENTION_DAYS and with an anchor line in their place (the last removed entry's
 * position and hash), through a temporary file renamed over it, so a crash leaves one whole file.
 *
 * The file is sealed into a numbered segment at AUDIT_SEGMENT_BYTES, and the oldest segments
 * removed past AUDIT_MAX_BYTES (segments.ts). Start-up reads every file a chunk at a time, keeping
 * only the index (a bounded share of each entry: entry-index.ts), never the trail itself.
 *
 * Every operation runs through one promise queue: appends are chained in the order they come, and
 * a page is never read while retention moves the file under it. An append is one write call, so a
 * crash leaves at most that one line torn; the next start removes it (the call it described had
 * not been answered yet).
 */
export class AuditFileStore implements AuditStore {
  readonly path: string;
  private readonly queue = new OperationQueue('The audit trail is closed');
  private readonly file: AppendFile;
  private opened = false;
  private head: ChainHead = headOfAnchor(null);
  private anchor: AuditAnchor | null = null;
  private readonly index = new AuditIndex();
  private readonly base: string;
  private segments: Segment[] = [];
  /** The number the file written now will have once sealed; its index locations carry it. */
  private active = 1;
  /** The link line each file starts with, by its number (the file written now included). */
  private readonly links = new Map<number, SegmentLink>();
  private readonly segmentBytes: number;
  private readonly maxBytes: number;

  constructor(private readonly options: AuditFileStoreOptions) {
    this.path = join(options.dir, options.file ?? AUDIT_FILE);
    this.base = baseOf(options.file ?? AUDIT_FILE);
    this.file = new AppendFile(this.path, 'The audit trail');
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    // A segment is a quarter of the cap at most, so the file written now fits under it too.
    this.segmentBytes = Math.min(options.segmentBytes ?? DEFAULT_SEGMENT_BYTES, Math.floor(this.maxBytes / 4));
  }

  /** The sealed segments' file names, oldest first. */
  get sealed(): string[] {
    return this.segments.map((segment) => segment.file);
  }

  /** Characters of record ids the index holds (bounded per entry: entry-index.ts). */
  get indexedTargetChars(): number {
    return this.index.targetChars;
  }

  /** Entries the file holds (after the anchor). */
  get size(): number {
    return this.index.size;
  }

  /** Creates the directory, reads the trail into the index and repairs a torn last line. */
  open(): Promise<void> {
    return this.enqueue(() => this.ensureOpen());
  }

  append(draft: AuditDraft): Promise<AuditEntry> {
    return this.enqueue(async () => {
      await this.ensureOpen();
      const entry = chain(draft, this.head);
      const data = Buffer.from(`${entryLine(entry)}\n`, 'utf8');
      const offset = this.file.bytes;
      await this.writeWhole(data);
      this.index.add(entry, { a: this.active * SEGMENT_SPAN + offset, b: data.length - 1 });
      this.head = { seq: entry.seq, hash: entry.hash };
      if (this.file.bytes >= this.segmentBytes) await this.seal();
      return entry;
    });
  }

  query(query: AuditQuery): Promise<AuditPage> {
    return this.enqueue(async () => {
      await this.ensureOpen();
      const { positions, total } = this.index.find(query);
      const list: AuditEntry[] = [];
      for (const position of positions) {
        const entry = await this.readAt(position);
        if (entry) list.push(entry);
      }
      return { list, total };
    });
  }

  prune(before: number): Promise<number> {
    return this.enqueue(async () => {
      await this.ensureOpen();
      // Whole sealed segments first: a segment whose last entry is past retention goes as it is.
      let removed = 0;
      while (this.segments.length > 0) {
        const oldest = this.segments[0]!;
        if (oldest.entries > 0 && this.index.timeAt(oldest.entries - 1) >= before) break;
        removed += oldest.entries;
        await this.removeOldest('retention');
      }
      // The file written now holds only entries newer than a segment that is kept.
      if (this.segments.length > 0) return removed;
      const count = this.index.countBefore(before);
      if (count === 0) return removed;
      const last = await this.readAt(count - 1);
      if (!last)
        throw new Error(
          `the audit trail ${this.path} cannot be read at entry ${this.index.seqAt(count - 1)}: retention left it as it is`,
        );
      const anchor: AuditAnchor = {
        seq: last.seq,
        hash: last.hash,
        time: last.time,
        prunedAt: new Date().toISOString(),
      };
      const end = this.file.bytes;
      const keepFrom = count < this.index.size ? this.index.location(count).a - this.active * SEGMENT_SPAN : end;
      const head = Buffer.from(`${anchorLine(anchor)}\n`, 'utf8');
      await this.file.close();
      try {
        await replaceFile(this.path, async (out) => {
          await out.write(head);
          const source = await open(this.path, 'r');
          try {
            const chunk = Buffer.allocUnsafe(1024 * 1024);
            for (let position = keepFrom; position < end;) {
              const { bytesRead } = await source.read(chunk, 0, Math.min(chunk.length, end - position), position);
              if (bytesRead === 0) break;
              await out.write(chunk.subarray(0, bytesRead));
              position += bytesRead;
            }
          } finally {
            await source.close();
          }
        });
      } finally {
        await this.file.open();
      }
      this.anchor = anchor;
      this.index.dropFirst(count);
      this.index.shiftOffsets(head.length - keepFrom);
      this.links.delete(this.active);
      return removed + count;
    });
  }

  /** The anchor the file starts with, null while nothing was pruned. */
  anchorOf(): AuditAnchor | null {
    return this.anchor;
  }

  flush(): Promise<void> {
    return this.queue.flush();
  }

  close(): Promise<void> {
    return this.queue.close(() => this.file.close());
  }

  private async readAt(position: number): Promise<AuditEntry | null> {
    const { a, b: length } = this.index.location(position);
    const number = Math.floor(a / SEGMENT_SPAN);
    const offset = a - number * SEGMENT_SPAN;
    if (number === this.active) return parseEntryLine((await this.file.read(offset, length)).toString('utf8'));
    const handle = await open(join(this.options.dir, segmentName(this.base, number)), 'r');
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return parseEntryLine(buffer.toString('utf8', 0, bytesRead));
    } finally {
      await handle.close();
    }
  }

  /**
   * Seals the file written now: renamed to the next segment's name, and a new file started with
   * the link to it (its digest, its last entry). A crash between the two leaves no audit.jsonl
   * beside the new segment, and the next start writes the link then.
   */
  private async seal(): Promise<void> {
    const file = segmentName(this.base, this.active);
    const entries = this.index.size - this.segments.reduce((sum, segment) => sum + segment.entries, 0);
    const bytes = this.file.bytes;
    await this.file.close();
    await rename(this.path, join(this.options.dir, file));
    this.segments.push({ number: this.active, file, bytes, entries });
    this.active++;
    await this.startAfterSealed();
    await this.file.open();
    await this.enforceCap();
  }

  /** Writes the file written now, holding only the link to the last sealed segment. */
  private async startAfterSealed(): Promise<void> {
    const last = this.segments.at(-1)!;
    const link: SegmentLink = {
      prev: last.file,
      digest: await fileDigest(join(this.options.dir, last.file)),
      seq: this.head.seq,
      hash: this.head.hash,
      sealedAt: new Date().toISOString(),
    };
    await writeFile(this.path, `${linkLine(link)}\n`, { flag: 'wx' });
    this.links.set(this.active, link);
  }

  /**
   * Removes the oldest sealed segments until the sealed ones leave room for the file written now to
   * grow to a whole segment (and the entry that crosses it): the trail never holds more than
   * AUDIT_MAX_BYTES, between seals either.
   */
  private async enforceCap(): Promise<void> {
    const room = Math.max(this.file.bytes, this.segmentBytes + ENTRY_MAX_BYTES);
    let sealed = this.segments.reduce((sum, segment) => sum + segment.bytes, 0);
    while (sealed + room > this.maxBytes && this.segments.length > 0) {
      sealed -= this.segments[0]!.bytes;
      await this.removeOldest('cap');
    }
  }

  /**
   * Removes the oldest sealed segment, recorded first in audit-removed.jsonl with what the next
   * file's link says of it, so audit:verify can tell a removal from a loss.
   */
  private async removeOldest(reason: 'cap' | 'retention'): Promise<void> {
    const oldest = this.segments[0]!;
    const path = join(this.options.dir, oldest.file);
    const next = this.links.get(oldest.number + 1);
    if (!next) throw new Error(`the audit segment after ${oldest.file} does not start with its link: left as it is`);
    await recordRemoved(this.options.dir, this.base, {
      file: oldest.file,
      digest: next.digest,
      bytes: oldest.bytes,
      seq: next.seq,
      hash: next.hash,
      removedAt: new Date().toISOString(),
      reason,
    });
    await rm(path, { force: true });
    this.segments.shift();
    this.links.delete(oldest.number);
    this.index.dropFirst(oldest.entries);
    this.anchor = null;
  }

  private enqueue<T>(operation: () => Promise<T>): Promise<T> {
    return this.queue.run(operation);
  }

  private async ensureOpen(): Promise<void> {
    if (this.opened) return;
    await mkdir(this.options.dir, { recursive: true });
    this.index.clear();
    this.anchor = null;
    this.head = headOfAnchor(null);
    this.segments = [];
    this.links.clear();
    for (const { number, file } of await sealedSegments(this.options.dir, this.base)) {
      const path = join(this.options.dir, file);
      const entries = await this.readFile(path, number, false);
      this.segments.push({ number, file, bytes: (await stat(path)).size, entries });
    }
    this.active = (this.segments.at(-1)?.number ?? 0) + 1;
    const exists = await stat(this.path).then(
      () => true,
      (error: unknown) => {
        if (isNotFound(error)) return false;
        throw error;
      },
    );
    // Sealed, and the crash came before the new file was started.
    if (!exists && this.segments.length > 0) await this.startAfterSealed();
    await this.readFile(this.path, this.active, true);
    // AUDIT_MAX_BYTES may have been lowered since the last start.
    await this.enforceCap();
    this.opened = true;
  }

  /**
   * Reads one file of the trail into the index, a chunk at a time: its first line (an anchor or
   * a link) and its entries. The file written now (`active`) is also repaired: a line a crash
   * tore is removed, and the handle opened. Resolves with the entries read.
   */
  private async readFile(path: string, number: number, active: boolean): Promise<number> {
    let tornAt: number | null = null;
    let unreadable = 0;
    let entries = 0;
    for await (const line of readLinesForward(path)) {
      if (line.number === 1) {
        const anchor = parseAnchor(line.text);
        if (anchor) {
          this.anchor = anchor;
          this.head = headOfAnchor(anchor);
          continue;
        }
        const link = parseLink(line.text);
        if (link) {
          this.links.set(number, link);
          if (this.index.size === 0) this.head = headOfLink(link);
          continue;
        }
      }
      const entry = parseEntryLine(line.text);
      if (active && !line.ended) {
        // The one line a crash can leave: written in part, never answered. A whole entry only
        // lacks its newline, and keeps its place.
        if (!entry) tornAt = line.offset;
        else tornAt = -1;
      }
      if (!entry) {
        if (line.ended) unreadable++;
        continue;
      }
      this.index.add(entry, { a: number * SEGMENT_SPAN + line.offset, b: line.length });
      this.head = { seq: entry.seq, hash: entry.hash };
      entries++;
    }
    if (active) {
      await this.file.open();
      if (tornAt !== null && tornAt >= 0) {
        await this.file.truncate(tornAt);
        this.options.onDamage?.(`the last line of ${path} was cut short by a crash: removed`);
      } else if (tornAt === -1) {
        await this.writeWhole(Buffer.from('\n'));
      }
    }
    if (unreadable > 0)
      this.options.onDamage?.(`${unreadable} line(s) of ${path} are not audit entries: run npm run audit:verify`);
    return entries;
  }

  /** A part of a failed line may be on disk: taken back, so the next entry starts on a line of its own. */
  private writeWhole(data: Buffer): Promise<void> {
    return this.file.append(data, async (written) => {
      if (written > 0) await this.file.truncate(this.file.bytes).catch(() => undefined);
    });
  }
}
