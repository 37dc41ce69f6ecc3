import type { LeafRoute } from '../route-entry.js';

/**
 * How many list screens stay mounted: the one shown and the last few left. Going back to one of
 * them shows it as it was (rows, selection, scroll of its table) without building it again, as a
 * tab bar's kept pages do; a screen older than that is built afresh when visited.
 */
export const KEPT_SCREENS = 4;

export interface KeptEntry {
  path: string;
  route: LeafRoute;
  /** A new key per mount: a screen dropped and visited again starts afresh. */
  key: number;
}

let nextKey = 0;

/**
 * Which screens are kept: `entries` in the order they were last shown (the current one last),
 * with the current one added, the one refreshed dropped, and the oldest past the limit dropped.
 * Returns the same array when nothing changes.
 */
export function keptEntries(
  entries: readonly KeptEntry[],
  current: LeafRoute | null,
  dropPath: string | null,
  limit = KEPT_SCREENS,
): readonly KeptEntry[] {
  let next = dropPath === null ? entries : entries.filter((e) => e.path !== dropPath);
  if (current) {
    const at = next.findIndex((e) => e.path === current.path);
    if (at === -1) next = [...next, { path: current.path, route: current, key: ++nextKey }];
    else if (at !== next.length - 1 || next[at]!.route !== current)
      next = [...next.slice(0, at), ...next.slice(at + 1), { ...next[at]!, route: current }];
  }
  if (next.length > limit) next = next.slice(next.length - limit);
  return next.length === entries.length && next.every((e, i) => e === entries[i]) ? entries : next;
}
