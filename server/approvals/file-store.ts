import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { parseHold, type Hold, type StoredHold } from './hold.js';
import { DEFAULT_CLAIM_STALE_MS, HoldTable, type ApprovalStore, type ClaimOutcome, type CreateOutcome, type TableSnapshot } from './store.js';

export interface FileApprovalStoreOptions {
  /** DATA_DIR: holds go to approvals.json there. */
  dir: string;
  /** Told when a file that cannot be read is set aside (the holds in it are lost: nothing was sent). */
  onUnreadable?(file: string, setAside: string, reason: string): void;
  claimStaleMs?: number;
}

const FILE = 'approvals.json';

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/**
 * Holds of one gateway process (or of the cluster primary, for its workers), kept in memory and
 * written to DATA_DIR/approvals.json after every change, so a restart finds them again. Each
 * write goes to a new file, synced, then renamed over the old one: a crash leaves either the old
 * file or the new one, never half of either. Operations run one at a time, in order.
 */
export class FileApprovalStore implements ApprovalStore {
  readonly file: string;
  private readonly table: HoldTable;
  private queue: Promise<unknown> = Promise.resolve();
  private opened = false;
  private closed = false;

  constructor(private readonly options: FileApprovalStoreOptions) {
    this.file = join(options.dir, FILE);
    this.table = new HoldTable(options.claimStaleMs ?? DEFAULT_CLAIM_STALE_MS);
  }

  open(): Promise<void> {
    return this.enqueue(() => this.ensureOpen());
  }

  create(hold: Hold, now: number): Promise<CreateOutcome> {
    return this.change(now, () => {
      const outcome = this.table.create(hold, now);
      return { result: outcome, changed: outcome.created };
    });
  }

  get(id: string, now: number): Promise<StoredHold | null> {
    return this.change(now, () => ({ result: this.table.get(id, now), changed: false }));
  }

  list(now: number): Promise<StoredHold[]> {
    return this.change(now, () => ({ result: this.table.list(now), changed: false }));
  }

  claim(id: string, token: string, now: number): Promise<ClaimOutcome> {
    return this.change(now, () => {
      const outcome = this.table.claim(id, token, now);
      return { result: outcome, changed: outcome.claimed };
    });
  }

  async release(id: string, token: string): Promise<void> {
    await this.change(null, () => ({ result: undefined, changed: this.table.release(id, token) }));
  }

  remove(id: string, token: string): Promise<boolean> {
    return this.change(null, () => {
      const removed = this.table.remove(id, token);
      return { result: removed, changed: removed };
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.enqueue(async () => undefined);
    this.closed = true;
  }

  /** Runs one operation on the table (after sweeping what is past keeping), writing the file when it changed anything. */
  private change<T>(now: number | null, operation: () => { result: T; changed: boolean }): Promise<T> {
    return this.enqueue(async () => {
      await this.ensureOpen();
      const swept = now !== null && this.table.sweep(now);
      const { result, changed } = operation();
      if (changed || swept) await this.write();
      return result;
    });
  }

  private enqueue<T>(operation: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the approvals store is closed'));
    const run = this.queue.then(operation);
    // A failed operation fails its own caller only; the queue goes on.
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async ensureOpen(): Promise<void> {
    if (this.opened) return;
    await mkdir(this.options.dir, { recursive: true });
    let text: string | null = null;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    if (text !== null) {
      try {
        const snapshot = JSON.parse(text) as TableSnapshot;
        if (snapshot?.version !== 1 || !Array.isArray(snapshot.holds)) throw new Error('not a file of held calls');
        this.table.load(snapshot, parseHold);
      } catch (error) {
        // Written by something else, or damaged on disk: kept for a person to look at, never
        // read as holds (a hold that cannot be trusted must not be confirmable).
        const aside = `${this.file}.unreadable-${Date.now()}`;
        await rename(this.file, aside);
        this.options.onUnreadable?.(this.file, aside, error instanceof Error ? error.message : String(error));
      }
    }
    this.opened = true;
  }

  private async write(): Promise<void> {
    const temporary = `${this.file}.${process.pid}.tmp`;
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(JSON.stringify(this.table.snapshot()));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, this.file);
  }
}
