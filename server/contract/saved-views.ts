/**
 * Saved list views, kept per administrator at the gateway. A view is a name and the query string
 * of a list's address (filters, keyword, sort, page size, columns), so a view's link works for
 * anyone who may open that list, saved or not.
 */

export const SAVED_VIEWS_PATH = '/api/saved-views';

export const SAVED_VIEW_CALLS = {
  /** GET: the views of one list; PUT {name, query}: saves one, replacing a view of that name. */
  list: (resource: string) => `${SAVED_VIEWS_PATH}/${encodeURIComponent(resource)}`,
  /** DELETE: removes the view of that name. */
  one: (resource: string, name: string) =>
    `${SAVED_VIEWS_PATH}/${encodeURIComponent(resource)}/${encodeURIComponent(name)}`,
} as const;

export const SAVED_VIEW_LIMITS = {
  /** Views one administrator may keep of one list; one more answers 409 SAVED_VIEWS_FULL. */
  maxPerResource: 50,
  maxNameChars: 60,
  maxQueryChars: 2_000,
  /** Largest accepted JSON body of a save, in bytes; larger answers 413. */
  maxBodyBytes: 4 * 1024,
  /** A list's id as the contract names it: letters, digits, dash and underscore. */
  resourcePattern: '^[A-Za-z0-9_-]{1,64}$',
} as const;

export interface SavedView {
  name: string;
  query: string;
}

/** The `data` of GET and PUT: the list's views in their order (a replaced view keeps its place). */
export interface SavedViewList {
  list: SavedView[];
}
