import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { SavedView } from '../contract/saved-views.js';
import { ViewTable, type PutOutcome, type SavedViewStore, type ViewsSnapshot } from './store.js';

export interface FileSavedViewStoreOptions {
  /** DATA_DIR: views go to saved-views.json there. */
  dir: string;
  /** Told when a file that cannot be read is set aside. */
  onUnreadable?(file: string, setAside: string, reason: string): void;
}

const FILE = 'saved-views.json';

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/**
 * Views of one gateway process (or of the cluster primary, for its workers), kept in memory and
 * written to DATA_DIR/saved-views.json after every change. Each write goes to a new file, synced,
 * then renamed over the old one, so a crash leaves one whole file or the other. Operations run one
 * at a time, in order.
 */
export class FileSavedViewStore implements SavedViewStore {
  readonly file: string;
  private readonly table = new ViewTable();
  private queue: Promise<unknown> = Promise.resolve();
  private opened = false;
  private closed = false;

  constructor(private readonly options: FileSavedViewStoreOptions) {
    this.file = join(options.dir, FILE);
  }

  open(): Promise<void> {
    return this.enqueue(() => this.ensureOpen());
  }

  list(userId: string, resource: string): Promise<SavedView[]> {
    return this.change(() => ({ result: this.table.list(userId, resource), changed: false }));
  }

  put(userId: string, resource: string, view: SavedView, max: number): Promise<PutOutcome> {
    return this.change(() => {
      const outcome = this.table.put(userId, resource, view, max);
      return { result: outcome, changed: outcome.saved };
    });
  }

  remove(userId: string, resource: string, name: string): Promise<boolean> {
    return this.change(() => {
      const removed = this.table.remove(userId, resource, name);
      return { result: removed, changed: removed };
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.enqueue(async () => undefined);
    this.closed = true;
  }

  private change<T>(operation: () => { result: T; changed: boolean }): Promise<T> {
    return this.enqueue(async () => {
      await this.ensureOpen();
      const { result, changed } = operation();
      if (changed) await this.write();
      return result;
    });
  }

  private enqueue<T>(operation: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the saved-views store is closed'));
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
        const snapshot = JSON.parse(text) as ViewsSnapshot;
        if (snapshot?.version !== 1 || typeof snapshot.users !== 'object' || snapshot.users === null) throw new Error('not a file of saved views');
        this.table.load(snapshot);
      } catch (error) {
        // Kept for a person to look at; the administrators start again from no views rather than
        // the gateway refusing to start over a convenience.
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
