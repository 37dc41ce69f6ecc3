import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SavedView } from '../contract/saved-views.js';
import { SnapshotFile } from '../lib/snapshot-file.js';
import {
  AdminViews,
  cleanViews,
  type AdminViewsSnapshot,
  type LegacyViewsSnapshot,
  type PutOutcome,
  type SavedViewStore,
  type ViewLimits,
} from './store.js';

export interface FileSavedViewStoreOptions {
  /** DATA_DIR: views go to saved-views/<administrator>.json there. */
  dir: string;
  /** Told when a file that cannot be read is set aside. */
  onUnreadable?(file: string, setAside: string, reason: string): void;
}

/** The folder under DATA_DIR, and the single file of every administrator's views it replaces. */
export const VIEWS_FOLDER = 'saved-views';
export const LEGACY_FILE = 'saved-views.json';

/** A digest of the user id: any id makes a safe file name, and two ids differing only in case stay apart on any disk. */
export function adminFileName(userId: string): string {
  return `${createHash('sha256').update(userId).digest('hex')}.json`;
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

async function writeWhole(file: string, content: unknown): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  const handle = await open(temporary, 'w', 0o600);
  try {
    await handle.writeFile(JSON.stringify(content));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}

interface Admin {
  views: AdminViews;
  file: SnapshotFile;
}

/**
 * Views of one gateway process (or of the cluster primary, for its workers): one file per
 * administrator in DATA_DIR/saved-views/, read when that administrator first asks and written
 * after each of their changes. A save writes that administrator's file alone (at most
 * SAVED_VIEWS_MAX_PER_ADMIN views), so it costs the same however many views others keep. An
 * unreadable file is set aside and that administrator starts again from no views, rather than the
 * gateway refusing to start over a convenience.
 */
export class FileSavedViewStore implements SavedViewStore {
  private readonly admins = new Map<string, Admin>();
  readonly folder: string;

  constructor(private readonly options: FileSavedViewStoreOptions) {
    this.folder = join(options.dir, VIEWS_FOLDER);
  }

  /** Creates the folder, so an unwritable DATA_DIR shows at start, and splits a single file of an older version. */
  async open(): Promise<void> {
    await mkdir(this.folder, { recursive: true });
    await this.migrate();
  }

  list(userId: string, resource: string): Promise<SavedView[]> {
    const admin = this.of(userId);
    return admin.file.run(() => ({ result: admin.views.list(resource), changed: false }));
  }

  put(userId: string, resource: string, view: SavedView, limits: ViewLimits): Promise<PutOutcome> {
    const admin = this.of(userId);
    return admin.file.run(() => {
      const outcome = admin.views.put(resource, view, limits);
      return { result: outcome, changed: outcome.saved };
    });
  }

  remove(userId: string, resource: string, name: string): Promise<boolean> {
    const admin = this.of(userId);
    return admin.file.run(() => {
      const removed = admin.views.remove(resource, name);
      return { result: removed, changed: removed };
    });
  }

  async close(): Promise<void> {
    await Promise.all([...this.admins.values()].map((admin) => admin.file.close()));
  }

  private of(userId: string): Admin {
    let admin = this.admins.get(userId);
    if (admin) return admin;
    const views = new AdminViews();
    const file = new SnapshotFile({
      dir: this.folder,
      name: adminFileName(userId),
      holds: 'saved views',
      load: (snapshot) => {
        const own = snapshot as AdminViewsSnapshot | null;
        if (own?.version !== 2 || own.userId !== userId) throw new Error('not a file of this administrator’s views');
        views.load(own.lists);
      },
      snapshot: () => views.snapshot(userId),
      ...(this.options.onUnreadable ? { onUnreadable: this.options.onUnreadable } : {}),
    });
    admin = { views, file };
    this.admins.set(userId, admin);
    return admin;
  }

  /**
   * DATA_DIR/saved-views.json of an older version held every administrator's views in one file:
   * each administrator's go to their own file (one already there is kept: a split cut short
   * goes on where it stopped), then the old file is renamed `.migrated`.
   */
  private async migrate(): Promise<void> {
    const legacy = join(this.options.dir, LEGACY_FILE);
    let text: string;
    try {
      text = await readFile(legacy, 'utf8');
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    let users: [string, unknown][];
    try {
      const parsed = JSON.parse(text) as LegacyViewsSnapshot | null;
      if (parsed?.version !== 1 || typeof parsed.users !== 'object' || parsed.users === null)
        throw new Error('not a file of saved views');
      users = Object.entries(parsed.users);
    } catch (error) {
      const aside = `${legacy}.unreadable-${Date.now()}`;
      await rename(legacy, aside);
      this.options.onUnreadable?.(legacy, aside, error instanceof Error ? error.message : String(error));
      return;
    }
    for (const [userId, resources] of users) {
      if (typeof resources !== 'object' || resources === null) continue;
      const target = join(this.folder, adminFileName(userId));
      if (await exists(target)) continue;
      const lists = Object.fromEntries(
        Object.entries(resources)
          .map(([resource, views]) => [resource, cleanViews(views)] as const)
          .filter(([, views]) => views.length > 0),
      );
      await writeWhole(target, { version: 2, userId, lists } satisfies AdminViewsSnapshot);
    }
    await rename(legacy, `${legacy}.migrated`);
  }
}
