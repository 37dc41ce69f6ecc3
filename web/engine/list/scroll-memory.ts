import { useLayoutEffect, useRef } from 'react';

/**
 * A list's scroll position per history entry, put back when the entry is shown again (the
 * browser's back from a record's page). The browser cannot do it itself: when it restores the
 * position the list's rows are not loaded yet, so the page is too short and the position is lost.
 *
 * An entry gets a key in its history state the first time its list is scrolled, and the position
 * is noted under that key; it is put back once the entry's rows are drawn again. A new visit (a
 * menu click, the next page) is a new entry without a key, so it starts where it did before, and
 * nothing is written or measured on its way: a history write is a round trip to the browser, and a
 * scroll inside a layout effect lays the new rows out twice, tens of milliseconds each on a busy
 * machine for every page of a list.
 */

interface EntryState {
  scrollKey?: unknown;
}

/** Positions by entry key; a tab keeps a few hundred at most, so the oldest are dropped past that. */
const positions = new Map<string, number>();
const MAX_POSITIONS = 200;
let made = 0;

function currentKey(): string | null {
  const key = (history.state as EntryState | null)?.scrollKey;
  return typeof key === 'string' ? key : null;
}

/** The current entry's key, given one first if it has none (its other state is kept). */
function entryKey(): string {
  const known = currentKey();
  if (known) return known;
  const key = `${Date.now().toString(36)}.${(made++).toString(36)}`;
  const state = history.state as Record<string, unknown> | null;
  history.replaceState({ ...(state && typeof state === 'object' ? state : {}), scrollKey: key }, '');
  return key;
}

function note(key: string, y: number): void {
  positions.delete(key);
  positions.set(key, y);
  if (positions.size > MAX_POSITIONS) positions.delete(positions.keys().next().value!);
}

/**
 * `url`: what the list shows (its path and query; a new one is a new entry); `ready`: the rows of
 * this entry are drawn, so the page is as tall as when it was left.
 */
export function useScrollMemory(url: string, ready: boolean): void {
  const restored = useRef<string | null>(null);
  /**
   * The entry's key when the list came to show it: only an entry that had one before (a step back
   * to it) has a position to put back. A new entry gets its key from the scroll that brought the
   * next-page button into view, and must not be scrolled to where it already is.
   */
  const arrivedWith = useRef<string | null>(null);

  useLayoutEffect(() => {
    arrivedWith.current = currentKey();
    const path = url.split('?')[0];
    const onScroll = () => {
      // A scroll event may arrive after a link to another page was followed: not this list's.
      if (location.pathname === path) note(entryKey(), window.scrollY);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [url]);

  useLayoutEffect(() => {
    const key = arrivedWith.current;
    if (!ready || !key || restored.current === key) return;
    restored.current = key;
    const y = positions.get(key);
    if (y !== undefined && y > 0) window.scrollTo(0, y);
  }, [ready, url]);
}
