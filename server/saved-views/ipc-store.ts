import type { PrimaryChannel, RpcHandler } from '../cluster/ipc.js';
import type { SavedView } from '../contract/saved-views.js';
import { FileSavedViewStore } from './file-store.js';
import type { PutOutcome, SavedViewStore, ViewLimits } from './store.js';

/** The calls the cluster primary answers for saved views (server/cluster/primary.ts). */
export const SAVED_VIEW_IPC = {
  list: 'savedViews.list',
  put: 'savedViews.put',
  remove: 'savedViews.remove',
} as const;

/**
 * A cluster worker's saved views (WORKERS > 1 without REDIS_URL): every call goes to the primary,
 * which owns the files, so a view saved through one worker is listed by every other.
 */
export class IpcSavedViewStore implements SavedViewStore {
  constructor(private readonly channel: PrimaryChannel) {}

  async open(): Promise<void> {}

  list(userId: string, resource: string): Promise<SavedView[]> {
    return this.channel.call<SavedView[]>(SAVED_VIEW_IPC.list, { userId, resource });
  }

  put(userId: string, resource: string, view: SavedView, limits: ViewLimits): Promise<PutOutcome> {
    return this.channel.call<PutOutcome>(SAVED_VIEW_IPC.put, { userId, resource, view, limits });
  }

  remove(userId: string, resource: string, name: string): Promise<boolean> {
    return this.channel.call<boolean>(SAVED_VIEW_IPC.remove, { userId, resource, name });
  }

  /** The primary closes the file once every worker has exited. */
  async close(): Promise<void> {}
}

type Params = { userId: string; resource: string; view: SavedView; limits: ViewLimits; name: string };

/** The primary's side: its file store, opened before any worker starts, and the handlers serving the workers. */
export async function savedViewsPrimary(
  dataDir: string,
  onUnreadable?: (file: string, aside: string, reason: string) => void,
) {
  const store = new FileSavedViewStore({ dir: dataDir, ...(onUnreadable ? { onUnreadable } : {}) });
  await store.open();
  const of = (params: unknown) => params as Params;
  const handlers: Record<string, RpcHandler> = {
    [SAVED_VIEW_IPC.list]: (p) => store.list(of(p).userId, of(p).resource),
    [SAVED_VIEW_IPC.put]: (p) => store.put(of(p).userId, of(p).resource, of(p).view, of(p).limits),
    [SAVED_VIEW_IPC.remove]: (p) => store.remove(of(p).userId, of(p).resource, of(p).name),
  };
  return { store, handlers };
}
