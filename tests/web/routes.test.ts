import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, PERMISSIONS as P } from '../../server/contract/index.js';
import { decide, normalizePath } from '../../web/app/navigation.js';
import { afterLoginTarget } from '../../web/lib/login-redirect.js';
import { GROUP_ROUTES, LEAF_ROUTES, findRoute } from '../../web/app/routes.js';
import { AUDIT_TRAIL_PATH, activityPath } from '../../web/api/audit.js';

const admin = { loggedIn: true, permissions: ALL_PERMISSIONS };
const operator = {
  loggedIn: true,
  permissions: [P.userProfile, P.groupProfile, P.sensitiveWord, P.onlineStatistics, P.billRecord],
};
const guest = { loggedIn: false, permissions: null };

describe('route table', () => {
  it('has unique paths and names', () => {
    const all = [...LEAF_ROUTES, ...GROUP_ROUTES];
    expect(new Set(all.map((r) => r.path)).size).toBe(all.length);
    expect(new Set(all.map((r) => r.path.toLowerCase())).size).toBe(all.length);
    expect(new Set(all.map((r) => r.name)).size).toBe(all.length);
  });
  it('keeps the original console URLs', () => {
    for (const p of [
      '/SignInConfig',
      '/WithDrawMoneyCheck',
      '/sensitivewords',
      '/groupset',
      '/finance/OnlineRecharge',
      '/siteconfig/function',
      '/operation/statistics',
      '/userpage/userset',
      '/deployconfig/monitor',
      '/deployconfig/switch',
      '/deployconfig/migration',
      '/system/admins',
      '/system/record',
      '/system/googleverify',
      '/operation/channel_statistics',
      '/BlackList',
      '/interface/interface',
      '/push/pushconfig',
      '/shortmessage/message',
      '/versionupdate/appupdate',
      '/error/401',
      '/error/404',
      '/error-log/log',
      '/dashboard',
    ]) {
      expect(findRoute(p)?.kind, p).toBe('leaf');
    }
  });
  it('uses every permission of the contract at least once', () => {
    const used = new Set(LEAF_ROUTES.flatMap((r) => r.meta.permission ?? []));
    expect(ALL_PERMISSIONS.filter((p) => !used.has(p))).toEqual([]);
  });
  it('has the audit trail beside the operation log, for the same permission, where the links of other screens lead', () => {
    const trail = findRoute(AUDIT_TRAIL_PATH);
    expect(trail).toMatchObject({ kind: 'leaf', meta: { permission: [P.record] } });
    expect(trail?.kind === 'leaf' && trail.group?.path).toBe('/system');
    const system = GROUP_ROUTES.find((g) => g.path === '/system')!.children.map((c) => c.path);
    expect(system.indexOf(AUDIT_TRAIL_PATH)).toBe(system.indexOf('/system/record') + 1);
    expect(activityPath('support_tanaka')).toBe(`${AUDIT_TRAIL_PATH}?actor=support_tanaka`);
  });
  it('gives the dashboard the affix flag', () => {
    expect(findRoute('/dashboard')?.meta.affix).toBe(true);
  });
});

describe('guard decisions', () => {
  it('sends / to the dashboard', () => {
    expect(decide('/', '', admin)).toEqual({ kind: 'redirect', to: '/dashboard' });
  });
  it('sends a guest to the login page with the wanted path', () => {
    expect(decide('/finance/OnlineRecharge', 'a=1', guest)).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Ffinance%2FOnlineRecharge%3Fa%3D1',
    });
  });
  it('lets anyone see the public routes and sends a logged-in user away from /login', () => {
    for (const p of ['/login', '/auth-redirect', '/404', '/401'])
      expect(decide(p, '', guest)).toEqual({ kind: 'public', path: p });
    expect(decide('/login', '', admin)).toEqual({ kind: 'redirect', to: '/' });
  });
  it('loads the permissions on the first navigation after login', () => {
    expect(decide('/dashboard', '', { loggedIn: true, permissions: null })).toEqual({ kind: 'load-permissions' });
  });
  it('sends unknown paths to 404', () => {
    expect(decide('/no/such/page', '', admin)).toEqual({ kind: 'redirect', to: '/404?from=%2Fno%2Fsuch%2Fpage' });
    expect(decide('/no/such/page', '?a=1', admin)).toEqual({
      kind: 'redirect',
      to: '/404?from=%2Fno%2Fsuch%2Fpage%3Fa%3D1',
    });
  });
  it('matches case-sensitively and redirects another case to the known path', () => {
    expect(decide('/withdrawmoneycheck', '', admin)).toEqual({ kind: 'redirect', to: '/WithDrawMoneyCheck' });
    expect(decide('/FINANCE/onlinerecharge', '?x=1', guest)).toEqual({
      kind: 'redirect',
      to: '/finance/OnlineRecharge?x=1',
    });
    expect(decide('/Login', '', guest)).toEqual({ kind: 'redirect', to: '/login' });
    expect(decide('/WithDrawMoneyCheck', '', admin)).toMatchObject({ kind: 'page' });
  });
  it('refuses a screen the user may not open', () => {
    expect(decide('/finance/OnlineRecharge', '', operator)).toMatchObject({ kind: 'forbidden' });
    expect(decide('/BillingRecords', '', operator)).toMatchObject({ kind: 'page' });
  });
  it('opens a group at its first permitted child', () => {
    expect(decide('/finance', '', operator)).toEqual({ kind: 'redirect', to: '/BillingRecords' });
    expect(decide('/deployconfig', '', operator)).toEqual({ kind: 'redirect', to: '/401' });
  });
  it('refreshes through /redirect only to a same-origin path', () => {
    expect(decide('/redirect/finance/OnlineRecharge', 'x=1', admin)).toEqual({
      kind: 'refresh',
      to: '/finance/OnlineRecharge?x=1',
    });
    expect(decide('/redirect//evil.example', '', admin)).toEqual({ kind: 'refresh', to: '/' });
  });
  it('ignores a trailing slash', () => {
    expect(normalizePath('/dashboard/')).toBe('/dashboard');
    expect(decide('/dashboard/', '', admin)).toMatchObject({ kind: 'page' });
  });
  it('honours only same-origin redirect targets after login', () => {
    expect(afterLoginTarget('redirect=%2FBillingRecords')).toBe('/BillingRecords');
    expect(afterLoginTarget('redirect=https%3A%2F%2Fevil.example')).toBe('/');
    expect(afterLoginTarget('redirect=%2F%2Fevil.example')).toBe('/');
    expect(afterLoginTarget('')).toBe('/');
  });
});
