import { useLayoutEffect, useRef } from 'react';

/**
 * A list's scroll position per history entry, put back when the entry is shown again (the
 * browser's back from a record's page). The browser cannot do it itself: when it restores the
 * position the list's rows are not loaded yet, so the page is too short and the position is lost.
 * Each entry the list shows gets a key in its history state; the position is noted as the window
 * scrolls, and restored once the entry's rows are drawn. A new visit (a menu click) has a new
 * entry, so it starts at the top as before.
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
 * `url`: what the list shows (a new one is a new entry); `ready`: the rows of this entry are
 * drawn, so the page is as tall as when it was left.
 */
export function useScrollMemory(url: string, ready: boolean): void {
  const key = useRef<string | null>(null);
  const restored = useRef<string | null>(null);

  useLayoutEffect(() => {
    const mine = entryKey();
    key.current = mine;
    const onScroll = () => {
      // After a navigation the entry is another page's: its scrolling is not this list's.
      if (currentKey() === mine) note(mine, window.scrollY);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [url]);

  useLayoutEffect(() => {
    const mine = key.current;
    if (!ready || !mine || restored.current === mine) return;
    restored.current = mine;
    const y = positions.get(mine);
    if (y !== undefined && y > 0) window.scrollTo(0, y);
  }, [ready, url]);
}
