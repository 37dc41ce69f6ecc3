import type { ListResource } from '#contract';
import { parseListState, serialiseListState, type ListState } from './url-state.js';

/**
 * A saved view is a name and the query string of a list's URL (filters, keyword, sort, page
 * size, columns; never the page), so applying one and sharing its link are the same thing, and
 * what is stored is checked again by the URL parser when it is used.
 */
export interface SavedView {
  name: string;
  query: string;
}

export const MAX_VIEW_NAME = 60;
const MAX_QUERY = 2000;
const MAX_VIEWS = 50;

type ListShape = Pick<ListResource, 'fields' | 'defaultSort'>;

/** The views worth keeping from what storage holds: a broken entry is dropped, not the whole list. */
export function sanitiseViews(raw: unknown): SavedView[] {
  if (!Array.isArray(raw)) return [];
  const views: SavedView[] = [];
  for (const v of raw as unknown[]) {
    if (typeof v !== 'object' || v === null) continue;
    const { name, query } = v as Record<string, unknown>;
    if (typeof name !== 'string' || typeof query !== 'string' || query.length > MAX_QUERY) continue;
    const clean = name.trim().slice(0, MAX_VIEW_NAME);
    if (clean && !views.some((x) => x.name === clean)) views.push({ name: clean, query });
    if (views.length === MAX_VIEWS) break;
  }
  return views;
}

/** The query a view of this state keeps: from its first page, with the columns on screen. */
export function viewQuery(state: ListState, visible: readonly string[], resource: ListShape): string {
  return serialiseListState({ ...state, pageNum: 1, columns: [...visible] }, resource);
}

/** A stored query as the list would show it: whatever the resource no longer allows is gone. */
export function viewState(view: SavedView, resource: ListShape): ListState {
  return { ...parseListState(view.query, resource), pageNum: 1 };
}

export const normalisedQuery = (view: SavedView, resource: ListShape): string =>
  serialiseListState(viewState(view, resource), resource);

/** Saving under a name in use replaces that view in its place; a new name goes last. */
export function withView(views: readonly SavedView[], view: SavedView): SavedView[] {
  const name = view.name.trim().slice(0, MAX_VIEW_NAME);
  if (!name) return [...views];
  const next = { name, query: view.query };
  const at = views.findIndex((v) => v.name === name);
  if (at < 0) return [...views, next].slice(-MAX_VIEWS);
  return views.map((v, i) => (i === at ? next : v));
}

/** A view's address, to open in a new tab or send to a colleague. */
export const viewHref = (path: string, query: string): string => (query ? `${path}?${query}` : path);
