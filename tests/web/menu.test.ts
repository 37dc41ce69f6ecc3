import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, PERMISSIONS as P } from '../../server/contract/index.js';
import { buildMenu, breadcrumbFor, openGroupFor } from '../../web/app/menu.js';
import { LEAF_ROUTES } from '../../web/app/routes.js';

const OPERATOR = [P.userProfile, P.groupProfile, P.sensitiveWord, P.onlineStatistics, P.billRecord];

function paths(menu: ReturnType<typeof buildMenu>): string[] {
  return menu.flatMap((m) => (m.children ? m.children.map((c) => c.path!) : [m.path!]));
}

describe('buildMenu', () => {
  it('shows every screen to a holder of every permission, but the error pages, reached by address only', () => {
    const menu = buildMenu(ALL_PERMISSIONS);
    expect(paths(menu).sort()).toEqual(
      LEAF_ROUTES.map((r) => r.path)
        .filter((p) => !p.startsWith('/error/'))
        .sort(),
    );
    expect(menu.map((m) => m.key)).not.toContain('/error');
  });

  it('hides groups with no permitted child and flattens one-child groups', () => {
    const menu = buildMenu(OPERATOR);
    expect(menu.map((m) => m.key)).toEqual([
      '/dashboard',
      '/userpage',
      '/sensitivewords',
      '/operation',
      '/BillingRecords',
      '/error-log/log',
    ]);
    const users = menu.find((m) => m.key === '/userpage')!;
    expect(users.children!.map((c) => c.path)).toEqual(['/userpage/userset', '/groupset']);
    // Online statistics opens both the IP blacklist and online users: the group stays a group.
    expect(paths(menu)).toContain('/onlineuser');
    expect(paths(menu)).not.toContain('/finance/OnlineRecharge');
    expect(paths(menu)).not.toContain('/deployconfig/monitor');
  });

  it('keeps one-child groups that ask to stay a group', () => {
    const page = LEAF_ROUTES.find((r) => r.path === '/error-log/log')!;
    const group = {
      kind: 'group' as const,
      path: '/g',
      name: 'G',
      meta: { title: 'route.errorLog' as const },
      children: [{ ...page, group: undefined }],
      alwaysShow: true,
    };
    expect(buildMenu([], [group]).find((m) => m.key === '/g')?.children?.length).toBe(1);
    expect(buildMenu([], [{ ...group, alwaysShow: false }]).map((m) => m.key)).toEqual(['/error-log/log']);
  });

  it('marks the withdrawal review entry and its group for the badge', () => {
    const finance = buildMenu(ALL_PERMISSIONS).find((m) => m.key === '/finance')!;
    expect(finance.badge).toBe('withdrawal');
    expect(finance.children!.find((c) => c.path === '/WithDrawMoneyCheck')!.badge).toBe('withdrawal');
  });

  it('finds the submenu holding a path', () => {
    const menu = buildMenu(ALL_PERMISSIONS);
    expect(openGroupFor(menu, '/WithDrawMoneyCheck')).toBe('/finance');
    expect(openGroupFor(menu, '/dashboard')).toBeNull();
  });
});

describe('breadcrumb', () => {
  it('is only the dashboard on the dashboard, not a link', () => {
    expect(breadcrumbFor('/dashboard')).toEqual([{ title: 'route.dashboard' }]);
  });
  it('starts with home and ends with an unlinked crumb', () => {
    expect(breadcrumbFor('/WithDrawMoneyCheck')).toEqual([
      { title: 'route.dashboard', path: '/dashboard' },
      { title: 'route.finance', path: '/finance' },
      { title: 'route.withdrawCheck' },
    ]);
  });
  it('does not repeat a one-child group', () => {
    expect(breadcrumbFor('/push/pushconfig')).toEqual([
      { title: 'route.dashboard', path: '/dashboard' },
      { title: 'route.push' },
    ]);
  });
});
