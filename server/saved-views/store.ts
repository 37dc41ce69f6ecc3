import { SAVED_VIEW_LIMITS, type SavedView } from '../contract/saved-views.js';

export type PutOutcome = { saved: true; list: SavedView[] } | { saved: false; reason: 'full' };

/**
 * Where administrators' saved views live: a file under DATA_DIR in one process (file-store.ts),
 * the cluster primary's file for WORKERS > 1 (ipc-store.ts), or Redis shared by every replica
 * (redis-store.ts). Views are keyed by the backend's user id and the list's resource id; a save
 * under a name in use replaces that view in its place, and the limit is checked in the same step
 * as the save, so two tabs saving at once cannot pass it together.
 */
export interface SavedViewStore {
  open(): Promise<void>;
  list(userId: string, resource: string): Promise<SavedView[]>;
  put(userId: string, resource: string, view: SavedView, max: number): Promise<PutOutcome>;
  /** False when there was no view of that name. */
  remove(userId: string, resource: string, name: string): Promise<boolean>;
  close(): Promise<void>;
}

/** The plain state the file store writes and the cluster primary serves: user -> resource -> views. */
export interface ViewsSnapshot {
  version: 1;
  users: Record<string, Record<string, SavedView[]>>;
}

const isView = (value: unknown): value is SavedView =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as SavedView).name === 'string' &&
  typeof (value as SavedView).query === 'string' &&
  (value as SavedView).name.length <= SAVED_VIEW_LIMITS.maxNameChars &&
  (value as SavedView).query.length <= SAVED_VIEW_LIMITS.maxQueryChars;

/** One process's views in memory, with the store's rules; the file store persists it after each change. */
export class ViewTable {
  private readonly users = new Map<string, Map<string, SavedView[]>>();

  /** A hand-edited or damaged entry is skipped, not the whole file. */
  load(snapshot: ViewsSnapshot): void {
    for (const [userId, resources] of Object.entries(snapshot.users ?? {})) {
      if (typeof resources !== 'object' || resources === null) continue;
      for (const [resource, views] of Object.entries(resources)) {
        if (!Array.isArray(views)) continue;
        const clean = views.filter(isView).map(({ name, query }) => ({ name, query }));
        if (clean.length > 0) this.of(userId).set(resource, clean);
      }
    }
  }

  snapshot(): ViewsSnapshot {
    const users: ViewsSnapshot['users'] = {};
    for (const [userId, resources] of this.users) {
      const own: Record<string, SavedView[]> = {};
      for (const [resource, views] of resources) if (views.length > 0) own[resource] = views;
      if (Object.keys(own).length > 0) users[userId] = own;
    }
    return { version: 1, users };
  }

  list(userId: string, resource: string): SavedView[] {
    return [...(this.users.get(userId)?.get(resource) ?? [])];
  }

  put(userId: string, resource: string, view: SavedView, max: number): PutOutcome {
    const views = this.list(userId, resource);
    const at = views.findIndex((v) => v.name === view.name);
    if (at >= 0) views[at] = { name: view.name, query: view.query };
    else if (views.length >= max) return { saved: false, reason: 'full' };
    else views.push({ name: view.name, query: view.query });
    this.of(userId).set(resource, views);
    return { saved: true, list: [...views] };
  }

  remove(userId: string, resource: string, name: string): boolean {
    const views = this.list(userId, resource);
    const next = views.filter((v) => v.name !== name);
    if (next.length === views.length) return false;
    this.of(userId).set(resource, next);
    return true;
  }

  private of(userId: string): Map<string, SavedView[]> {
    let resources = this.users.get(userId);
    if (!resources) {
      resources = new Map();
      this.users.set(userId, resources);
    }
    return resources;
  }
}
