import { Suspense, lazy, useEffect, useMemo } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { navigate } from 'wouter/use-browser-location';
import { WITHDRAWAL_REVIEW_PERMISSION } from '#contract';
import type { Decision } from '../navigation.js';
import type { LeafRoute } from '../route-entry.js';
import { buildMenu, recordLinks } from '../menu.js';
import { RecordLinksContext } from '../../engine/record/record-links.js';
import { ownCallKey, permissions, unofferedScreens } from '../../api/session.js';
import { closeSidebar, device, fixedHeader, sidebarOpened, tagsView } from '../../lib/settings.js';
import { ErrorBoundary } from '../error-boundary.js';
import { Splash } from '../../ui/splash.js';
import { useT } from '../../i18n/index.js';
import { loadScreenTitles } from '../../i18n/resources/index.js';
import ErrorPage from '../../pages/error-page.js';
import NotOfferedPage from '../../pages/not-offered-page.js';
import { Navbar } from './navbar.js';
import { SettingsDrawer } from './settings-drawer.js';
import { TagsView, type CurrentView } from './tags-view.js';
import { SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH, Sidebar } from './sidebar.js';
import { connectWithdrawals, withdrawalCount } from '../../api/withdrawals.js';
import { loggedElsewhereOpen, sessionEndedBy } from '../logged-elsewhere.js';
import { ReloginDialog } from '../relogin-dialog.js';
import { playChime } from './chime.js';
import { BrowserLocation, KeptScreens } from './kept-screens.js';
import { sessionLost } from '../../lib/session-lost.js';
import { onSessionRestored, sessionEpoch } from '../../lib/session-restored.js';

// Management screens are declarations on the screen engine; this one lazy page shows any of them.
const ScreenPage = lazy(() => import('../../screens/screen-page.js'));

/** A kept list screen's page (see kept-screens.tsx); one function, so kept screens never redraw for it. */
const renderKept = (route: LeafRoute) => <ScreenPage route={route} screen={route.screen!} />;

/** List screens are kept mounted when left; forms, records and other pages are built at each visit. */
function keptRoute(decision: FrameDecision, recordId: string | undefined): LeafRoute | null {
  if (decision.kind !== 'page' || recordId !== undefined) return null;
  const { route } = decision;
  return route.screen?.kind === 'list' && !route.meta.noCache ? route : null;
}

// Our API client already toasts failures; retrying a failed call three times would toast three times.
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 } },
});

/** No permission yet: one array, so the menu is not rebuilt on every render. */
const NONE: readonly string[] = [];

type FrameDecision = Extract<Decision, { kind: 'page' | 'forbidden' | 'unoffered' | 'refresh' }>;

/**
 * /redirect/{path*}: renders nothing for one pass, so the screen behind `to` mounts afresh, and
 * reads its data again: what it had read is marked stale (nothing is asked for here, with no
 * screen shown), so the screen asks again as it mounts.
 */
function Refresh({ to }: { to: string }) {
  useEffect(() => {
    void queryClient.invalidateQueries({ refetchType: 'none' });
    navigate(to, { replace: true });
  }, [to]);
  return null;
}

export default function Layout({ decision }: { decision: FrameDecision }) {
  useSignals();
  const t = useT();
  const held = permissions.value ?? NONE;
  const unoffered = unofferedScreens.value;
  const menu = useMemo(() => buildMenu(held, undefined, unoffered), [held, unoffered]);
  const path = decision.kind === 'refresh' ? decision.to.split('?')[0]! : decision.route.path;
  // A record's page: the menu shows its list, the breadcrumb and a refresh the record itself.
  const recordId = decision.kind === 'page' ? decision.recordId : undefined;
  const here = recordId === undefined ? path : `${path}/${recordId}`;
  const links = useMemo(() => recordLinks(held, unoffered), [held, unoffered]);
  const mobile = device.value === 'mobile';
  const opened = sidebarOpened.value;
  // A backend without the count (its map marks it unsupported) has no badge and no event stream.
  const epoch = sessionEpoch.value;
  const showBadge = held.includes(WITHDRAWAL_REVIEW_PERMISSION) && !unoffered.has(ownCallKey('withdrawalCount'));

  // A screen whose route names no title is titled by its resource's label: the menu needs the labels.
  useEffect(loadScreenTitles, []);

  useEffect(() => {
    if (!showBadge) return;
    const stop = connectWithdrawals({
      // When the page is idle: building the audio the first time blocks the page for tens of
      // milliseconds, and a rise often comes while a list is being drawn.
      onRise: () =>
        typeof requestIdleCallback === 'function'
          ? requestIdleCallback(playChime, { timeout: 1000 })
          : setTimeout(playChime, 0),
      // No screen call may be coming to reveal the lost session (an admin idle on a page): the
      // backend dropping the token opens the 'logged in elsewhere' dialog, the gateway ending
      // the session goes to the login form.
      onSessionEnded: (reason) => {
        // The dialog already asks to log in again over the page: whatever ended the gateway's
        // session meanwhile (a mistyped password there ends it, as on the login page) changes
        // nothing; dropping the session now would take the page and its typed work with it.
        if (loggedElsewhereOpen.value) return;
        // Ended by another login or by age: the dialog logs in again over the page. Logged out
        // on purpose (another tab): the login form.
        if (reason === 'logged-out') return sessionLost();
        sessionEndedBy.value = reason === 'expired' ? 'expired' : 'backend';
        loggedElsewhereOpen.value = true;
      },
    });
    return () => {
      stop();
      withdrawalCount.value = 0;
    };
    // A new session (logged in again in place) gets a stream of its own.
  }, [showBadge, epoch]);

  // Logged in again in place: what failed or was under way with the old session asks again.
  useEffect(
    () =>
      onSessionRestored(() => {
        void queryClient.refetchQueries({
          predicate: (q) => q.state.status === 'error' || q.state.fetchStatus !== 'idle',
        });
      }),
    [],
  );

  const offset = mobile ? 0 : opened ? SIDEBAR_WIDTH : SIDEBAR_COLLAPSED_WIDTH;
  // The page's tab in the tab bar: pages of the route table only, not a refresh in passing or a
  // page refused.
  const route = decision.kind === 'page' ? decision.route : null;
  const current = useMemo<CurrentView | null>(
    () =>
      route
        ? {
            path: here,
            title: route.meta.title,
            record: recordId,
            affix: route.meta.affix,
            noCache: route.meta.noCache,
          }
        : null,
    [route, here, recordId],
  );

  const kept = keptRoute(decision, recordId);
  let content;
  if (kept) content = null;
  else if (decision.kind === 'refresh') content = <Refresh to={decision.to} />;
  else if (decision.kind === 'forbidden') content = <ErrorPage code={401} />;
  else if (decision.kind === 'unoffered') content = <NotOfferedPage route={decision.route} />;
  else if (decision.route.screen)
    content = <ScreenPage route={decision.route} screen={decision.route.screen} recordId={recordId} />;
  else if (decision.route.page) {
    const Page = decision.route.page;
    content = <Page route={decision.route} />;
  }

  return (
    <QueryClientProvider client={queryClient}>
      <RecordLinksContext value={links}>
        <div className="flex flex-1 flex-col bg-slate-50" data-testid="layout" data-device={device.value}>
          <a
            href="#main-content"
            className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[60] focus:rounded focus:bg-white focus:px-3 focus:py-2"
          >
            {t('app.skipToContent')}
          </a>
          {mobile && opened && (
            <div
              className="fixed inset-0 z-30 bg-black/30"
              data-testid="sidebar-backdrop"
              aria-hidden="true"
              onClick={() => closeSidebar(false)}
            />
          )}
          <Sidebar menu={menu} path={path} showBadge={showBadge} />
          <div className="flex min-w-0 flex-1 flex-col transition-[margin] duration-200" style={{ marginLeft: offset }}>
            <header className={fixedHeader.value ? 'sticky top-0 z-20' : ''} data-testid="header">
              <Navbar path={here} held={held} unoffered={unoffered} />
              {tagsView.value && current && (
                <Suspense fallback={null}>
                  <TagsView current={current} />
                </Suspense>
              )}
            </header>
            <main id="main-content" className="min-w-0 flex-1" tabIndex={-1}>
              <KeptScreens current={kept} dropPath={decision.kind === 'refresh' ? path : null} render={renderKept} />
              {!kept && (
                <BrowserLocation>
                  <ErrorBoundary key={here}>
                    <Suspense fallback={<Splash />}>{content}</Suspense>
                  </ErrorBoundary>
                </BrowserLocation>
              )}
            </main>
          </div>
          <SettingsDrawer />
          <ReloginDialog />
        </div>
      </RecordLinksContext>
    </QueryClientProvider>
  );
}
