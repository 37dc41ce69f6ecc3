import {
  Activity,
  Suspense,
  memo,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { createPortal } from 'react-dom';
import { useLocation, useSearch } from 'wouter';
import type { LeafRoute } from '../route-entry.js';
import { keptEntries, type KeptEntry } from './kept-entries.js';
import { ScreenLocationContext } from '../../lib/screen-location.js';
import { ErrorBoundary } from '../error-boundary.js';
import { Splash } from '../../ui/splash.js';

/**
 * Puts the screen's own element into the page while it is shown and takes it out while it is not.
 * Rendered before the screen: React runs layout effects in tree order, so the element is in the
 * page before the screen's own layout effects measure anything.
 */
function Attach({
  slot,
  container,
  shown,
}: {
  slot: RefObject<HTMLDivElement | null>;
  container: HTMLElement;
  shown: boolean;
}) {
  useLayoutEffect(() => {
    if (!shown) return;
    slot.current?.appendChild(container);
    return () => container.remove();
  }, [shown, slot, container]);
  return null;
}

interface KeptProps {
  entry: KeptEntry;
  shown: boolean;
  /** The browser's query string while shown; undefined while hidden (it keeps its own). */
  search: string | undefined;
  render: (route: LeafRoute) => ReactNode;
}

/**
 * One kept screen. Hidden, React's Activity keeps its state and DOM but runs none of its effects
 * (no calls, no key handlers, no subscriptions), and its element is out of the document: nothing
 * hidden can be found, focused, read by assistive technology or matched by a query.
 */
const KeptScreen = memo(function KeptScreen({ entry, shown, search, render }: KeptProps) {
  const [container] = useState(() => document.createElement('div'));
  const slot = useRef<HTMLDivElement>(null);
  const [left, setLeft] = useState(search ?? '');
  // The address it was left at, kept while hidden. Set while rendering (React's "state from
  // props" pattern): a hidden screen must never read another screen's query string.
  if (search !== undefined && search !== left) setLeft(search);
  const own = search ?? left;
  const location = useMemo(() => ({ path: entry.path, search: own }), [entry.path, own]);
  const { route } = entry;
  const body = useMemo(() => render(route), [render, route]);
  return (
    <>
      <div ref={slot} />
      <Attach slot={slot} container={container} shown={shown} />
      <Activity mode={shown ? 'visible' : 'hidden'}>
        {createPortal(
          <ScreenLocationContext value={location}>
            <ErrorBoundary resetKey={own ? `${entry.path}?${own}` : entry.path}>
              <Suspense fallback={<Splash />}>{body}</Suspense>
            </ErrorBoundary>
          </ScreenLocationContext>,
          container,
        )}
      </Activity>
    </>
  );
});

/**
 * The list screens kept mounted, the shown one among them. `current` is the list screen shown
 * (null when the page is something else: a record's page, a dashboard, a refresh); `dropPath` is
 * a screen to build afresh (a refresh of it is under way).
 */
export function KeptScreens({
  current,
  dropPath,
  render,
}: {
  current: LeafRoute | null;
  dropPath: string | null;
  render: (route: LeafRoute) => ReactNode;
}) {
  const search = useSearch();
  const [entries, setEntries] = useState<readonly KeptEntry[]>([]);
  const next = keptEntries(entries, current, dropPath);
  // Adjusted while rendering, so a screen shown for the first time mounts in this same pass.
  if (next !== entries) setEntries(next);
  // Drawn in the order they were first kept, so showing one never moves another's element.
  const ordered = useMemo(() => [...next].sort((a, b) => a.key - b.key), [next]);
  return (
    <>
      {ordered.map((entry) => {
        const shown = current !== null && entry.path === current.path;
        return (
          <KeptScreen key={entry.key} entry={entry} shown={shown} search={shown ? search : undefined} render={render} />
        );
      })}
    </>
  );
}

/** The browser's address as the screen's own: for a screen that is not kept (a record's page, a form). */
export function BrowserLocation({ children }: { children: ReactNode }) {
  const [path] = useLocation();
  const search = useSearch();
  const location = useMemo(() => ({ path, search }), [path, search]);
  return <ScreenLocationContext value={location}>{children}</ScreenLocationContext>;
}
