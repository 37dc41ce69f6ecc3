import { useEffect, useLayoutEffect, useRef } from 'react';
import { QueryObserver, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * How long the page of a screen taken out of view stays cached. A list screen left for another is
 * kept built for a while and shown again as it was; a screen let go for good frees its page then.
 */
export const HELD_WHILE_HIDDEN_MS = 5 * 60_000;

/**
 * Keeps the cached answer for `queryKey` while the screen showing it is hidden.
 *
 * List pages are dropped from the cache as soon as nothing shows them, so paging through a long
 * list does not grow the tab's memory. A hidden screen runs no effect and so shows nothing: its
 * page was dropped too, and going back to the screen asked for it again, dimming the rows until
 * the answer came (a call, a repaint and a render on every switch). Here a disabled observer, which
 * never fetches, holds the page from the moment the screen is hidden until it is shown again; a
 * page left by paging or sorting within the screen is not held.
 */
export function useHeldWhileHidden(queryKey: QueryKey): void {
  const client = useQueryClient();
  const shown = useRef(queryKey);
  const release = useRef<(() => void) | null>(null);
  useLayoutEffect(() => {
    shown.current = queryKey;
  });
  useEffect(() => {
    // Runs when the screen is shown (first built, or shown again) and cleans up when it is hidden
    // or let go: never for a change of page, which changes only the key.
    release.current?.();
    release.current = null;
    return () => {
      const holder = new QueryObserver(client, { queryKey: shown.current, enabled: false });
      const unsubscribe = holder.subscribe(() => undefined);
      const timer = setTimeout(unsubscribe, HELD_WHILE_HIDDEN_MS);
      release.current = () => {
        clearTimeout(timer);
        unsubscribe();
      };
    };
  }, [client]);
}
