import { useSyncExternalStore } from 'react';

/** Below Tailwind's `sm` breakpoint: a phone held upright. */
const NARROW = '(max-width: 639.98px)';

const query =
  typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(NARROW) : null;

function subscribe(onChange: () => void): () => void {
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

/**
 * Whether the window is phone-narrow. Lists draw either their table or their cards, not both
 * hidden by CSS, so a 100-row page is drawn once.
 */
export function useNarrow(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => query?.matches ?? false,
    () => false,
  );
}
