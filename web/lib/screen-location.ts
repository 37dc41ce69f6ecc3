import { createContext, useContext } from 'react';

/** Where a screen is: its path and its query string (without the `?`). */
export interface ScreenLocation {
  path: string;
  search: string;
}

/**
 * The address a screen shows. The layout provides the browser's; a screen kept mounted while
 * another is shown gets its own, so that hidden, it keeps the page, sort and filters it was left on
 * rather than following the other screen's query string, and is not redrawn at every move.
 */
export const ScreenLocationContext = createContext<ScreenLocation | null>(null);

export function useScreenLocation(): ScreenLocation {
  const location = useContext(ScreenLocationContext);
  if (!location) throw new Error('useScreenLocation needs a ScreenLocationContext above it (the layout provides one)');
  return location;
}
