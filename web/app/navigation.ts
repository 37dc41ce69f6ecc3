import { PUBLIC_ROUTES, safeRedirectPath } from '#contract/gateway';
import { isAllowed } from '#contract/permissions';
import { loginUrl } from '../lib/login-redirect.js';
import {
  ALL_OFFERED,
  HOME_PATH,
  findRoute,
  findRouteIgnoringCase,
  isUnoffered,
  type GroupRoute,
  type LeafRoute,
  type Unoffered,
} from './routes.js';

export type Decision =
  | { kind: 'redirect'; to: string }
  | { kind: 'public'; path: string }
  | { kind: 'load-permissions' }
  | { kind: 'refresh'; to: string }
  /** `recordId`: the page of one record of the route's list. */
  | { kind: 'page'; route: LeafRoute; recordId?: string | undefined }
  | { kind: 'forbidden'; route: LeafRoute }
  /** A permitted screen the backend does not offer (its backend map marks it unsupported). */
  | { kind: 'unoffered'; route: LeafRoute };

export interface GuardState {
  loggedIn: boolean;
  /** null = not loaded yet for this session. */
  permissions: readonly string[] | null;
  /** Screens the backend does not offer, by resource id. */
  unoffered?: Unoffered;
}

export const REDIRECT_PREFIX = '/redirect';

/** "/a/b/" and "/a/b" are the same screen. */
export function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export function firstAllowedChild(
  group: GroupRoute,
  held: readonly string[],
  unoffered: Unoffered = ALL_OFFERED,
): LeafRoute | undefined {
  return group.children.find((c) => isAllowed(c.meta.permission, held) && !isUnoffered(c, unoffered));
}

const PUBLIC_FOLDED = new Map(PUBLIC_ROUTES.map((p) => [p.toLowerCase(), p]));

/**
 * A record's id in a path: letters, digits, `_` and `-` (anything else could be read as a file or
 * a deeper path by the gateway). record-nav.ts makes the links with the same rule.
 */
export const RECORD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A record's page: a list screen's path (in any case), a slash, a record id. */
export function recordRoute(path: string): { route: LeafRoute; id: string } | undefined {
  const at = path.lastIndexOf('/');
  const id = path.slice(at + 1);
  const list = at > 0 && RECORD_ID.test(id) ? findRouteIgnoringCase(path.slice(0, at)) : undefined;
  if (list?.kind === 'leaf' && list.screen?.kind === 'list') return { route: list, id };
}

/**
 * The route guard as one pure decision: where the browser at `pathname` + `search`
 * should be and what it shows there.
 */
export function decide(pathname: string, search: string, state: GuardState): Decision {
  const path = normalizePath(pathname);
  const query = search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : '';
  if (path === '/') return { kind: 'redirect', to: HOME_PATH };

  if (PUBLIC_ROUTES.includes(path)) {
    if (path === '/login' && state.loggedIn) return { kind: 'redirect', to: '/' };
    return { kind: 'public', path };
  }
  const publicCanonical = PUBLIC_FOLDED.get(path.toLowerCase());
  if (publicCanonical) return { kind: 'redirect', to: publicCanonical + query };

  const known = findRoute(path);
  const record = known ? undefined : recordRoute(path);
  if (!known) {
    const folded = record ? `${record.route.path}/${record.id}` : findRouteIgnoringCase(path)?.path;
    if (folded && folded !== path) return { kind: 'redirect', to: folded + query };
  }

  if (!state.loggedIn) return { kind: 'redirect', to: loginUrl(path + query) };
  if (state.permissions === null) return { kind: 'load-permissions' };
  const held = state.permissions;

  if (path === REDIRECT_PREFIX || path.startsWith(`${REDIRECT_PREFIX}/`)) {
    const target = safeRedirectPath(path.slice(REDIRECT_PREFIX.length) || '/');
    return { kind: 'refresh', to: target + query };
  }

  // A record's page is its list's, for whoever may see the list.
  const route = record?.route ?? known;
  // The 404 page names the address that was asked for, so a mistyped link can be told apart from a removed screen.
  if (!route) return { kind: 'redirect', to: `/404?from=${encodeURIComponent(path + query)}` };
  if (route.kind === 'group') {
    const child = firstAllowedChild(route, held, state.unoffered);
    return child ? { kind: 'redirect', to: child.path } : { kind: 'redirect', to: '/401' };
  }
  if (!isAllowed(route.meta.permission, held)) return { kind: 'forbidden', route };
  if (isUnoffered(route, state.unoffered ?? ALL_OFFERED)) return { kind: 'unoffered', route };
  return { kind: 'page', route, recordId: record?.id };
}
