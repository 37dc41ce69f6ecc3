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
      const parts =
        r.group && r.group.children.length > 1 ? [t(r.group.meta.title), t(r.meta.title)] : [t(r.meta.title)];
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

/** The list screens whose records the header search looks for: declared searchable, permitted and offered. */
export function searchSources<S>(
  held: readonly string[],
  resolve: (resourceId: string) => S | undefined,
  routes: readonly LeafRoute[] = LEAF_ROUTES,
  unoffered: Unoffered = ALL_OFFERED,
): { source: S; listPath: string }[] {
  return routes.flatMap((r) => {
    if (r.screen?.kind !== 'list' || !r.screen.options?.search) return [];
    if (!isAllowed(r.meta.permission, held) || isUnoffered(r, unoffered)) return [];
    const source = resolve(r.screen.id);
    return source === undefined ? [] : [{ source, listPath: r.path }];
  });
}

/** Pages shown at most; the menu has forty, a search that matches more is not narrow enough to list them all. */
export const SEARCH_MAX_PAGES = 8;

export interface SearchOption {
  key: string;
  /** Where choosing it goes: a screen, a record's page, or a list filtered by the text. */
  path: string;
  title: string;
  detail?: string;
  kind: 'page' | 'record' | 'more';
  /** A record's row, which its page draws at once while reading the record. */
  seed?: { resourceId: string; row: Record<string, unknown> };
}

export interface SearchGroup {
  key: string;
  title: string;
  /** A record group waits for its answer, or could not be searched. */
  status: 'done' | 'loading' | 'error';
  options: SearchOption[];
}

/** The results by kind: pages first, then each searched resource in menu order; a resource that found nothing is left out. */
export function groupResults(
  pagesTitle: string,
  pages: readonly SearchEntry[],
  records: readonly SearchGroup[],
): SearchGroup[] {
  const groups: SearchGroup[] = [];
  if (pages.length > 0) {
    const options = pages.slice(0, SEARCH_MAX_PAGES).map((p): SearchOption => ({
      key: `page:${p.path}`,
      path: p.path,
      title: p.title,
      detail: p.path,
      kind: 'page',
    }));
    groups.push({ key: 'pages', title: pagesTitle, status: 'done', options });
  }
  for (const g of records) if (g.status !== 'done' || g.options.length > 0) groups.push(g);
  return groups;
}

/** Every group has its answer: an empty list now means nothing matches. */
export function settled(groups: readonly SearchGroup[]): boolean {
  return groups.every((g) => g.status !== 'loading');
}
