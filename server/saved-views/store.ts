import { SAVED_VIEW_LIMITS, type SavedView } from '../contract/saved-views.js';

/** How many views a save may leave: per list (the contract's) and per administrator over every list (SAVED_VIEWS_MAX_PER_ADMIN). */
export interface ViewLimits {
  perList: number;
  perAdmin: number;
}

export type PutOutcome =
  { saved: true; list: SavedView[] } | { saved: false; reason: 'full'; per: 'list' | 'administrator' };

/**
 * Where administrators' saved views live: one file per administrator under DATA_DIR in one
 * process (file-store.ts), the cluster primary's files for WORKERS > 1 (ipc-store.ts), or Redis
 * shared by every replica (redis-store.ts). Views are keyed by the backend's user id and the list's
 * resource id; a save under a name in use replaces that view in its place, and both limits are
 * checked in the same step as the save, so two tabs saving at once cannot pass them together.
 */
export interface SavedViewStore {
  open(): Promise<void>;
  list(userId: string, resource: string): Promise<SavedView[]>;
  put(userId: string, resource: string, view: SavedView, limits: ViewLimits): Promise<PutOutcome>;
  /** False when there was no view of that name. */
  remove(userId: string, resource: string, name: string): Promise<boolean>;
  close(): Promise<void>;
}

/** One administrator's file: resource -> views. */
export interface AdminViewsSnapshot {
  version: 2;
  userId: string;
  lists: Record<string, SavedView[]>;
}

/** The single file of every administrator's views before version 2, read once to migrate it. */
export interface LegacyViewsSnapshot {
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

/** The views of one list as read from a file: a hand-edited or damaged entry is skipped, not the whole list. */
export function cleanViews(views: unknown): SavedView[] {
  return Array.isArray(views) ? views.filter(isView).map(({ name, query }) => ({ name, query })) : [];
}

/**
 * One administrator's views in memory, with the store's rules. Maps, never plain objects, so a
 * list id such as `__proto__` in an old file is a key like any other rather than a prototype.
 */
export class AdminViews {
  private readonly lists = new Map<string, SavedView[]>();
  private count = 0;

  /** Reads the `lists` of a file; entries that are not views are dropped. */
  load(lists: unknown): void {
    if (typeof lists !== 'object' || lists === null || Array.isArray(lists)) throw new Error('no lists of views');
    for (const [resource, views] of Object.entries(lists)) {
      const clean = cleanViews(views);
      if (clean.length > 0) this.set(resource, clean);
    }
  }

  snapshot(userId: string): AdminViewsSnapshot {
    // Object.fromEntries defines own properties, so no key can reach the prototype.
    return { version: 2, userId, lists: Object.fromEntries(this.lists) };
  }

  /** Every view over every list. */
  get total(): number {
    return this.count;
  }

  list(resource: string): SavedView[] {
    return [...(this.lists.get(resource) ?? [])];
  }

  put(resource: string, view: SavedView, limits: ViewLimits): PutOutcome {
    const views = this.list(resource);
    const at = views.findIndex((v) => v.name === view.name);
    if (at >= 0) views[at] = { name: view.name, query: view.query };
    else if (views.length >= limits.perList) return { saved: false, reason: 'full', per: 'list' };
    else if (this.count >= limits.perAdmin) return { saved: false, reason: 'full', per: 'administrator' };
    else views.push({ name: view.name, query: view.query });
    this.set(resource, views);
    return { saved: true, list: [...views] };
  }

  remove(resource: string, name: string): boolean {
    const views = this.list(resource);
    const next = views.filter((v) => v.name !== name);
    if (next.length === views.length) return false;
    this.set(resource, next);
    return true;
  }

  private set(resource: string, views: SavedView[]): void {
    this.count += views.length - (this.lists.get(resource)?.length ?? 0);
    if (views.length === 0) this.lists.delete(resource);
    else this.lists.set(resource, views);
  }
}
