import type { SavedView } from '#contract/saved-views';
import { sanitiseViews } from './saved-views.js';

/**
 * Views this browser kept in localStorage before they were kept at the gateway. The first time a
 * list's views are read from the gateway and it has none, the browser's are uploaded once; after
 * that (or when the gateway already had some) the list is marked done, so a view deleted at the
 * gateway never comes back from an old copy.
 */

const PREFIX = 'console.';
const localKey = (resourceId: string) => `${PREFIX}views.${resourceId}`;
const doneKey = (resourceId: string) => `${PREFIX}views-uploaded.${resourceId}`;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function readJson(text: string | null): unknown {
  try {
    return text === null ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/** The views to upload for this list now: none once it is done, or when the gateway has its own. */
export function viewsToUpload(resourceId: string, atGateway: readonly SavedView[]): SavedView[] {
  const store = storage();
  if (!store || store.getItem(doneKey(resourceId)) !== null) return [];
  if (atGateway.length > 0) {
    markUploaded(resourceId);
    return [];
  }
  const views = sanitiseViews(readJson(store.getItem(localKey(resourceId))));
  if (views.length === 0) markUploaded(resourceId);
  return views;
}

/** Done with this list: the browser's copy goes, the gateway's is the one. */
export function markUploaded(resourceId: string): void {
  const store = storage();
  try {
    store?.setItem(doneKey(resourceId), '1');
    store?.removeItem(localKey(resourceId));
  } catch {
    /* quota or privacy mode: the next visit asks again, and finds the gateway's views */
  }
}
