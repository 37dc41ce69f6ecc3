/**
 * Saved list views, kept per administrator at the gateway. A view is a name and the query string
 * of a list's address (filters, keyword, sort, page size, columns), so a view's link works for
 * anyone who may open that list, saved or not.
 */
import { Type, type Static } from '@sinclair/typebox';

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

const viewsResource = Type.String({ pattern: SAVED_VIEW_LIMITS.resourcePattern });
// A name with something to read in it; surrounding spaces are dropped before it is kept.
const viewName = Type.String({ minLength: 1, maxLength: SAVED_VIEW_LIMITS.maxNameChars, pattern: '\\S' });

/** The list whose views a call reads or saves: GET and PUT /api/saved-views/{resource}. */
export const SavedViewListParamsSchema = Type.Object({ resource: viewsResource });
/** One view: DELETE /api/saved-views/{resource}/{name}. */
export const SavedViewParamsSchema = Type.Object({ resource: viewsResource, name: viewName });

/** A view, as PUT saves it and GET lists it. */
export const SavedViewSchema = Type.Object(
  {
    name: viewName,
    // The query string of a list's address, without its "?", and no control characters.
    query: Type.String({
      maxLength: SAVED_VIEW_LIMITS.maxQueryChars,
      pattern: '^[^?\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$|^$',
    }),
  },
  { additionalProperties: false },
);
export type SavedView = Static<typeof SavedViewSchema>;

/** The `data` of GET and PUT: the list's views in their order (a replaced view keeps its place). */
export const SavedViewListSchema = Type.Object({ list: Type.Array(SavedViewSchema) });
export type SavedViewList = Static<typeof SavedViewListSchema>;
