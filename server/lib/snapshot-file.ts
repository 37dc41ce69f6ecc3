import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';

export interface SnapshotFileOptions {
  /** DATA_DIR: the file goes there. */
  dir: string;
  /** Its name in `dir` (`approvals.json`). */
  name: string;
  /** What the file holds, for the errors it gives (`held calls`). */
  holds: string;
  /** Takes the parsed file into memory; throws when the file is not one of its own. */
  load(snapshot: unknown): void;
  /** What to write: the table in memory as it is now. */
  snapshot(): unknown;
  /** Told when a file that cannot be read is set aside. */
  onUnreadable?(file: string, setAside: string, reason: string): void;
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/**
 * A table kept in memory and written whole to one JSON file in DATA_DIR after every change, so a
 * restart finds it again: the store of a single gateway process, or of the cluster primary for its
 * workers. Each write goes to a new file, synced, then renamed over the old one, so a crash leaves
 * one whole file or the other, never half of either. Operations run one at a time, in order; a
 * failed one fails its own caller only.
 *
 * A file that cannot be read (written by something else, damaged on disk) is set aside under a new
 * name for a person to look at, and the table starts empty: what it held is never half-trusted.
 */
export class SnapshotFile {
  readonly file: string;
  private queue: Promise<unknown> = Promise.resolve();
  private opened = false;
  private closed = false;

  constructor(private readonly options: SnapshotFileOptions) {
    this.file = join(options.dir, options.name);
  }

  /** Reads the file now, so an unwritable DATA_DIR shows at start rather than at the first change. */
  open(): Promise<void> {
    return this.enqueue(() => this.ensureOpen());
  }

  /** Runs one operation on the table, in turn, writing the file when it says it changed anything. */
  run<T>(operation: () => { result: T; changed: boolean }): Promise<T> {
    return this.enqueue(async () => {
      await this.ensureOpen();
      const { result, changed } = operation();
      if (changed) await this.write();
      return result;
    });
  }

  /** Waits for the operations under way; any later one is refused. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.enqueue(async () => undefined);
    this.closed = true;
  }

  private enqueue<T>(operation: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`the store of ${this.options.holds} is closed`));
    const run = this.queue.then(operation);
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
        this.options.load(JSON.parse(text) as unknown);
      } catch (error) {
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
      await handle.writeFile(JSON.stringify(this.options.snapshot()));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, this.file);
  }
}
