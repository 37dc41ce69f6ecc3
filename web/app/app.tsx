import { Suspense, lazy, useEffect } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { Redirect, useLocation, useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { decide, type Decision } from './navigation.js';
import { afterLoginTarget, loginUrl } from '../lib/login-redirect.js';
import { forgetSession, loadPermissions, logout, permissions, session, unofferedScreens } from '../api/session.js';
import { onSessionLost } from '../lib/session-lost.js';
import { hasUnsavedChanges } from '../lib/leave-guard.js';
import { loggedElsewhereOpen, sessionEndedBy } from './logged-elsewhere.js';
import { pageTitle, siteTitle } from './title.js';
import { toast } from '../lib/toast.js';
import { Toaster } from '../ui/toaster.js';
import { Splash } from '../ui/splash.js';
import { fullStylesReady } from '../ui/full-styles.js';
import { ErrorBoundary } from './error-boundary.js';
import { t, useT } from '../i18n/index.js';
import type { TitleKey } from '../i18n/index.js';

const LoginPage = lazy(() => import('../pages/login-page.js'));
const ErrorPage = lazy(() => import('../pages/error-page.js'));
// The frame and everything behind the login (Headless UI, TanStack Query, fuse.js, the whole UI's
// stylesheet) load only here, side by side.
const Layout = lazy(() => Promise.all([import('./layout/layout.js'), fullStylesReady()]).then(([layout]) => layout));

let permissionLoad: Promise<void> | null = null;

// The gateway refused the session (idle, too old, logged out in another tab): forgetting it is
// enough, the guard then sends the user to the login form with the page they were on. Not while a
// form holds unsaved changes: going to the login form would throw them away (and the form's leave
// guard, holding the router back as it unmounts, left a blank page instead). The frame's dialog
// then logs in again over the page, as when another login ended the session.
onSessionLost(() => {
  if (!hasUnsavedChanges()) return forgetSession();
  sessionEndedBy.value = 'expired';
  loggedElsewhereOpen.value = true;
});

/** The first navigation after login loads the permission list; a failure logs out. */
function startPermissionLoad(wanted: string): void {
  if (permissionLoad) return;
  permissionLoad = loadPermissions()
    .then(() => undefined)
    .catch(async (error: unknown) => {
      // The session was refused meanwhile: the guard is already on its way to the login form.
      if (!session.value?.loggedIn) return;
      const text = error instanceof Error && error.message ? error.message : t('api.hasError');
      await logout();
      toast.error(text);
      navigate(loginUrl(wanted), { replace: true });
    })
    .finally(() => {
      permissionLoad = null;
    });
}

function titleKeyOf(decision: Decision): TitleKey | null {
  switch (decision.kind) {
    case 'page':
    case 'forbidden':
    case 'unoffered':
      return decision.route.meta.title;
    case 'public':
      if (decision.path === '/login') return 'route.login';
      if (decision.path === '/404') return 'route.page404';
      if (decision.path === '/401') return 'route.page401';
      return null;
    case 'refresh':
      return 'route.redirect';
    default:
      return null;
  }
}

export function App() {
  useSignals();
  // The hook, not the module's t: a language whose messages load after the switch re-renders the
  // banner and rewrites the tab title, instead of both lagging one switch behind.
  const tr = useT();
  const [pathname] = useLocation();
  const search = useSearch();
  const info = session.value;
  const held = permissions.value;

  const decision: Decision | null = info
    ? decide(pathname, search, { loggedIn: info.loggedIn, permissions: held, unoffered: unofferedScreens.value })
    : null;
  const wanted = pathname + (search ? `?${search}` : '');

  useEffect(() => {
    if (decision?.kind === 'load-permissions') startPermissionLoad(wanted);
  }, [decision?.kind, wanted]);

  const titleKey = decision ? titleKeyOf(decision) : null;
  const site = siteTitle.value;
  useEffect(() => {
    if (decision?.kind === 'redirect') return;
    document.title = pageTitle(titleKey ? tr(titleKey) : null, site);
  }, [titleKey, site, tr, decision?.kind]);

  return (
    <>
      {/* One column of the window's height: the banner takes its line and the screen the rest, so the banner adds no scroll. */}
      <div className="flex min-h-dvh flex-col">
        {info?.sandbox && (
          <div
            role="note"
            data-testid="sandbox-banner"
            className="shrink-0 bg-amber-400 px-3 py-1 text-center text-sm font-medium text-amber-950"
          >
            {tr('app.sandboxBanner')} {tr('app.sandboxDialect', { dialect: info.sandboxDialect ?? 'default' })}
          </div>
        )}
        <ErrorBoundary>
          <Suspense fallback={<Splash />}>
            {decision ? <Screen decision={decision} search={search} /> : <Splash />}
          </Suspense>
        </ErrorBoundary>
      </div>
      <Toaster />
    </>
  );
}

/** Landing point of an external sign-in: continue to the (same-origin) redirect target. */
function AuthRedirect({ search }: { search: string }) {
  useEffect(() => {
    navigate(afterLoginTarget(search), { replace: true });
  }, [search]);
  return <Splash />;
}

function Screen({ decision, search }: { decision: Decision; search: string }) {
  switch (decision.kind) {
    case 'redirect':
      // wouter redirects only on mount; the key makes a chained redirect (/login -> / -> /dashboard) mount again.
      return <Redirect key={decision.to} to={decision.to} replace />;
    case 'load-permissions':
      return <Splash />;
    case 'public':
      if (decision.path === '/login') return <LoginPage next={afterLoginTarget(search)} />;
      if (decision.path === '/auth-redirect') return <AuthRedirect search={search} />;
      return <ErrorPage code={decision.path === '/401' ? 401 : 404} />;
    default:
      return <Layout decision={decision} />;
  }
}
