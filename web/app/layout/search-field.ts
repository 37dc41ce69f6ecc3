// The header search's field, shared by the closed field and the open panel that replaces it: while
// the screen labels the panel needs load, the field already looks as it will, so nothing moves.
export const SEARCH_FIELD =
  'w-full min-w-0 rounded-md border border-slate-300 px-2 py-1 text-sm disabled:bg-white sm:w-60 lg:w-72';
