import Fuse from 'fuse.js';
import { isAllowed } from '#contract/permissions';
import type { TFunction } from '../i18n/index.js';
import { ALL_OFFERED, LEAF_ROUTES, isUnoffered, type LeafRoute, type Unoffered } from './routes.js';

export interface SearchEntry {
  /** "Group > Screen", translated. */
  title: string;
  path: string;
}

export const SEARCH_MAX_QUERY = 32;

export function searchEntries(
  held: readonly string[],
  t: TFunction,
  routes: readonly LeafRoute[] = LEAF_ROUTES,
  unoffered: Unoffered = ALL_OFFERED,
): SearchEntry[] {
  return routes
    .filter((r) => !r.meta.hidden && isAllowed(r.meta.permission, held) && !isUnoffered(r, unoffered))
    .map((r) => {
      const parts = r.group && r.group.children.length > 1 ? [t(r.group.meta.title), t(r.meta.title)] : [t(r.meta.title)];
      return { title: parts.join(' > '), path: r.path };
    });
}

/** Fuzzy: threshold 0.4, title weight 0.7, path weight 0.3, query cut at 32 characters. */
export function createSearch(entries: readonly SearchEntry[]): (query: string) => SearchEntry[] {
  const fuse = new Fuse(entries, {
    shouldSort: true,
    threshold: 0.4,
    location: 0,
    distance: 100,
    minMatchCharLength: 1,
    keys: [
      { name: 'title', weight: 0.7 },
      { name: 'path', weight: 0.3 },
    ],
  });
  return (query) => {
    const q = query.trim().slice(0, SEARCH_MAX_QUERY);
    if (!q) return [];
    return fuse.search(q).map((r) => r.item);
  };
}
