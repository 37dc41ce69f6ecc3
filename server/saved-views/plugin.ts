import fp from 'fastify-plugin';
import type { PrimaryChannel } from '../cluster/ipc.js';
import { FileSavedViewStore } from './file-store.js';
import { IpcSavedViewStore } from './ipc-store.js';
import { RedisSavedViewStore } from './redis-store.js';
import { registerSavedViewRoutes } from './routes.js';
import { LIST_RESOURCES } from '../contract/index.js';
import type { SavedViewStore } from './store.js';

export interface SavedViewsPluginOptions {
  /** Where views live. Default: Redis with REDIS_URL; the primary's in a cluster worker; else DATA_DIR/saved-views/. */
  store?: SavedViewStore;
  primary?: PrimaryChannel | null;
}

/**
 * Saved list views per administrator, kept at the gateway so they follow the administrator from
 * browser to browser (the UI kept them in one browser's storage before, and uploads those once).
 */
export default fp<SavedViewsPluginOptions>(
  async (app, options) => {
    const channel = options.primary ?? null;
    const store: SavedViewStore =
      options.store ??
      (app.redis
        ? new RedisSavedViewStore(app.redis, [...LIST_RESOURCES.keys()])
        : channel
          ? new IpcSavedViewStore(channel)
          : new FileSavedViewStore({
              dir: app.config.dataDir,
              onUnreadable: (file, aside, reason) =>
                app.log.warn({ file, aside, reason }, 'set aside an unreadable file of saved views'),
            }));
    await store.open();
    app.addHook('onClose', async () => {
      await store.close();
    });
    registerSavedViewRoutes(app, store);
  },
  { name: 'saved-views', dependencies: ['session', 'permissions'] },
);
