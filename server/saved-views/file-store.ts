import type { SavedView } from '../contract/saved-views.js';
import { SnapshotFile } from '../lib/snapshot-file.js';
import { ViewTable, type PutOutcome, type SavedViewStore, type ViewsSnapshot } from './store.js';

export interface FileSavedViewStoreOptions {
  /** DATA_DIR: views go to saved-views.json there. */
  dir: string;
  /** Told when a file that cannot be read is set aside. */
  onUnreadable?(file: string, setAside: string, reason: string): void;
}

/**
 * Views of one gateway process (or of the cluster primary, for its workers), written to
 * DATA_DIR/saved-views.json after every change. An unreadable file is set aside and the
 * administrators start again from no views, rather than the gateway refusing to start over a
 * convenience.
 */
export class FileSavedViewStore implements SavedViewStore {
  private readonly table = new ViewTable();
  private readonly store: SnapshotFile;

  constructor(options: FileSavedViewStoreOptions) {
    this.store = new SnapshotFile({
      dir: options.dir,
      name: 'saved-views.json',
      holds: 'saved views',
      load: (snapshot) => {
        const views = snapshot as ViewsSnapshot | null;
        if (views?.version !== 1 || typeof views.users !== 'object' || views.users === null)
          throw new Error('not a file of saved views');
        this.table.load(views);
      },
      snapshot: () => this.table.snapshot(),
      ...(options.onUnreadable ? { onUnreadable: options.onUnreadable } : {}),
    });
  }

  get file(): string {
    return this.store.file;
  }

  open(): Promise<void> {
    return this.store.open();
  }

  list(userId: string, resource: string): Promise<SavedView[]> {
    return this.store.run(() => ({ result: this.table.list(userId, resource), changed: false }));
  }

  put(userId: string, resource: string, view: SavedView, max: number): Promise<PutOutcome> {
    return this.store.run(() => {
      const outcome = this.table.put(userId, resource, view, max);
      return { result: outcome, changed: outcome.saved };
    });
  }

  remove(userId: string, resource: string, name: string): Promise<boolean> {
    return this.store.run(() => {
      const removed = this.table.remove(userId, resource, name);
      return { result: removed, changed: removed };
    });
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
