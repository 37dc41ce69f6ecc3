import { mkdir, open } from 'node:fs/promises';
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
import { AuditIndex } from './entry-index.js';
import { AppendFile, OperationQueue, readLinesForward, replaceFile } from '../lib/json-lines-file.js';
import type { AuditQuery, AuditStore } from './store.js';

export const AUDIT_FILE = 'audit.jsonl';

export interface AuditFileStoreOptions {
  /** DATA_DIR: holds audit.jsonl; created when missing. */
  dir: string;
  /** File name (default audit.jsonl), so a second trail (Redis's fallback in tests) can sit beside. */
  file?: string;
  /** Told when the trail found at start does not read as whole entries (a hand-edited file). */
  onDamage?(detail: string): void;
}

/**
 * The audit trail as one append-only JSON-lines file under DATA_DIR: one canonical entry a line,
 * chained by hashes (chain.ts). Retention rewrites the file once a day at most, without the entries
 * past AUDIT_RETENTION_DAYS and with an anchor line in their place (the last removed entry's
 * position and hash), through a temporary file renamed over it, so a crash leaves one whole file.
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

  constructor(private readonly options: AuditFileStoreOptions) {
    this.path = join(options.dir, options.file ?? AUDIT_FILE);
    this.file = new AppendFile(this.path, 'The audit trail');
  }

  /** Entries the file holds (after the anchor). */
  get size(): number {
    return this.index.size;
  }

  /** Characters of record ids the index holds (bounded per entry: entry-index.ts). */
  get indexedTargetChars(): number {
    return this.index.targetChars;
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
      this.index.add(entry, { a: offset, b: data.length - 1 });
      this.head = { seq: entry.seq, hash: entry.hash };
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
      const count = this.index.countBefore(before);
      if (count === 0) return 0;
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
      const keepFrom = count < this.index.size ? this.index.location(count).a : end;
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
      return count;
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
    const { a: offset, b: length } = this.index.location(position);
    return parseEntryLine((await this.file.read(offset, length)).toString('utf8'));
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
    let tornAt: number | null = null;
    let unreadable = 0;
    for await (const line of readLinesForward(this.path)) {
      if (line.number === 1) {
        const anchor = parseAnchor(line.text);
        if (anchor) {
          this.anchor = anchor;
          this.head = headOfAnchor(anchor);
          continue;
        }
      }
      const entry = parseEntryLine(line.text);
      if (!line.ended) {
        // The one line a crash can leave: written in part, never answered. A whole entry only
        // lacks its newline, and keeps its place.
        if (!entry) tornAt = line.offset;
        else tornAt = -1;
      }
      if (!entry) {
        if (line.ended) unreadable++;
        continue;
      }
      this.index.add(entry, { a: line.offset, b: line.length });
      this.head = { seq: entry.seq, hash: entry.hash };
    }
    await this.file.open();
    if (tornAt !== null && tornAt >= 0) {
      await this.file.truncate(tornAt);
      this.options.onDamage?.(`the last line of ${this.path} was cut short by a crash: removed`);
    } else if (tornAt === -1) {
      await this.writeWhole(Buffer.from('\n'));
    }
    if (unreadable > 0)
      this.options.onDamage?.(`${unreadable} line(s) of ${this.path} are not audit entries: run npm run audit:verify`);
    this.opened = true;
  }

  /** A part of a failed line may be on disk: taken back, so the next entry starts on a line of its own. */
  private writeWhole(data: Buffer): Promise<void> {
    return this.file.append(data, async (written) => {
      if (written > 0) await this.file.truncate(this.file.bytes).catch(() => undefined);
    });
  }
}
