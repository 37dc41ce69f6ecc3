import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  BILLING_RECORDS,
  LOGIN_RECORDS,
  PERMISSIONS as P,
  RESOURCES,
  USERS,
  WITHDRAWAL_REVIEW,
  type ListResource,
} from '../../server/contract/index.js';
import { RECORD_ID, decide, recordRoute } from '../../web/app/navigation.js';
import { breadcrumbFor, recordLinks } from '../../web/app/menu.js';
import { LEAF_ROUTES, findRoute } from '../../web/app/routes.js';
import { LINKABLE_ID, recordPath } from '../../web/lib/record-nav.js';
import { relatedColumns, relatedFilters, relatedListUrl, unfilteredRows } from '../../web/engine/record/related.js';
import { filterKeys } from '../../web/engine/list/url-state.js';
import { RELATED_LISTS } from '../../web/screens/views.js';

/** The pure parts of record pages: their paths, the guard and the breadcrumb, links, related lists. */

const admin = { loggedIn: true, permissions: ALL_PERMISSIONS };
const operator = {
  loggedIn: true,
  permissions: [P.userProfile, P.groupProfile, P.sensitiveWord, P.onlineStatistics, P.billRecord],
};
const lists = new Map(RESOURCES.filter((r): r is ListResource => r.kind === 'list').map((r) => [r.id, r]));

describe('record paths', () => {
  it("is the list's path, a slash and the id", () => {
    expect(recordPath('/userpage/userset', 10023)).toBe('/userpage/userset/10023');
    expect(recordPath('/WithDrawMoneyCheck', '459')).toBe('/WithDrawMoneyCheck/459');
    expect(recordPath('/groupset', 'a1_b-2')).toBe('/groupset/a1_b-2');
  });

  it('has none for an id a path cannot carry', () => {
    for (const id of ['', 'a.b', 'a/b', '../x', 'x y', null, undefined, {}, 'x'.repeat(65)])
      expect(recordPath('/groupset', id), String(id)).toBeNull();
  });

  it('makes links by the rule the route guard reads them with', () => {
    expect(LINKABLE_ID.source).toBe(RECORD_ID.source);
    expect(LINKABLE_ID.flags).toBe(RECORD_ID.flags);
  });

  it('names a record of every list screen, and of nothing else', () => {
    for (const route of LEAF_ROUTES) {
      const found = recordRoute(`${route.path}/12`);
      if (route.screen?.kind === 'list') expect(found, route.path).toEqual({ route, id: '12' });
      else expect(found, route.path).toBeUndefined();
    }
    expect(recordRoute('/userpage/userset/a.b')).toBeUndefined();
    expect(recordRoute('/nowhere/12')).toBeUndefined();
  });
});

describe('guard decisions for record pages', () => {
  it("shows a record's page to whoever may see its list", () => {
    const users = findRoute('/userpage/userset');
    expect(decide('/userpage/userset/10023', '', admin)).toEqual({ kind: 'page', route: users, recordId: '10023' });
    expect(decide('/userpage/userset/10023/', '', operator)).toEqual({ kind: 'page', route: users, recordId: '10023' });
    expect(decide('/WithDrawMoneyCheck/459', '', admin)).toMatchObject({ kind: 'page', recordId: '459' });
    expect(decide('/WithDrawMoneyCheck/459', '', operator)).toEqual({
      kind: 'forbidden',
      route: findRoute('/WithDrawMoneyCheck'),
    });
  });

  it('treats it as not offered when the backend lacks its list', () => {
    expect(decide('/groupset/5', '', { ...admin, unoffered: new Set(['groups']) })).toEqual({
      kind: 'unoffered',
      route: findRoute('/groupset'),
    });
  });

  it("redirects another case of the list's path to its spelling, keeping the query", () => {
    expect(decide('/UserPage/UserSet/10023', '?x=1', admin)).toEqual({
      kind: 'redirect',
      to: '/userpage/userset/10023?x=1',
    });
    expect(decide('/withdrawmoneycheck/7', '', admin)).toEqual({ kind: 'redirect', to: '/WithDrawMoneyCheck/7' });
  });

  it('sends a visitor to the login form with the record as the way back', () => {
    expect(decide('/userpage/userset/10023', '', { loggedIn: false, permissions: null })).toEqual({
      kind: 'redirect',
      to: `/login?redirect=${encodeURIComponent('/userpage/userset/10023')}`,
    });
  });

  it('is a 404 under a screen that has no records, or for an id a path cannot carry', () => {
    for (const path of [
      '/dashboard/3',
      '/siteconfig/function/3',
      '/operation/statistics/3',
      '/userpage/userset/a.b',
      '/userpage/userset/1/2',
    ]) {
      expect(decide(path, '', admin), path).toEqual({ kind: 'redirect', to: `/404?from=${encodeURIComponent(path)}` });
    }
  });
});

describe("a record page's breadcrumb", () => {
  it('ends list > record, the list a link back to it as it was', () => {
    expect(breadcrumbFor('/userpage/userset/10023')).toEqual([
      { title: 'route.dashboard', path: '/dashboard' },
      { title: 'route.userpage', path: '/userpage' },
      { title: 'route.userset', path: '/userpage/userset', list: true },
      { title: 'route.userset', record: '10023' },
    ]);
    expect(breadcrumbFor('/WithDrawMoneyCheck/459').slice(-2)).toEqual([
      { title: 'route.withdrawCheck', path: '/WithDrawMoneyCheck', list: true },
      { title: 'route.withdrawCheck', record: '459' },
    ]);
  });

  it("leaves a list's own breadcrumb as it was", () => {
    expect(breadcrumbFor('/userpage/userset').at(-1)).toEqual({ title: 'route.userset' });
  });
});

describe('links between records', () => {
  it("point to a resource's list only for who may open it", () => {
    expect(recordLinks(ALL_PERMISSIONS).listPath('withdrawalReview')).toBe('/WithDrawMoneyCheck');
    expect(recordLinks(operator.permissions).listPath('users')).toBe('/userpage/userset');
    expect(recordLinks(operator.permissions).listPath('withdrawalReview')).toBeUndefined();
    expect(recordLinks(ALL_PERMISSIONS, new Set(['groups'])).listPath('groups')).toBeUndefined();
    // A settings screen has no records.
    expect(recordLinks(ALL_PERMISSIONS).listPath('siteFunctions')).toBeUndefined();
  });
});

describe('related lists', () => {
  const user = { id: 103000, account: 'sakura2825', nickname: 'ねこ' };
  const withdrawals = { resource: WITHDRAWAL_REVIEW as ListResource, filter: { userAccount: 'account' } };

  it("are filtered by the record's values, or not shown at all", () => {
    expect(relatedFilters(withdrawals, user)).toEqual({ userAccount: 'sakura2825' });
    expect(relatedFilters(withdrawals, { id: 1, account: '' })).toBeNull();
    // A filter the resource (as the backend offers it) does not have: never a list of everyone's.
    expect(
      relatedFilters(
        {
          resource: { ...WITHDRAWAL_REVIEW, fields: WITHDRAWAL_REVIEW.fields.filter((f) => f.key !== 'userAccount') },
          filter: withdrawals.filter,
        },
        user,
      ),
    ).toBeNull();
  });

  it('open their whole list with the same filters', () => {
    expect(relatedListUrl('/WithDrawMoneyCheck', WITHDRAWAL_REVIEW, { userAccount: 'sakura2825' })).toBe(
      '/WithDrawMoneyCheck?userAccount=sakura2825',
    );
    expect(relatedListUrl('/loginuser', LOGIN_RECORDS, { account: 'a b&c' })).toBe('/loginuser?account=a+b%26c');
  });

  it('tell rows a backend did not filter', () => {
    const rows = [{ id: 1, userAccount: 'sakura2825' }, { id: 2, userAccount: 'other' }, { id: 3 }];
    expect(unfilteredRows(rows, { userAccount: 'sakura2825' }).map((r) => r.id)).toEqual([2]);
  });

  it('show the id, what names a row beside the filter, its status and its time', () => {
    expect(relatedColumns(WITHDRAWAL_REVIEW, ['userAccount']).map((f) => f.key)).toEqual([
      'id',
      'amount',
      'method',
      'state',
      'createTime',
    ]);
    expect(relatedColumns(BILLING_RECORDS, ['userAccount']).map((f) => f.key)).toEqual([
      'id',
      'type',
      'amount',
      'createTime',
    ]);
    expect(relatedColumns(LOGIN_RECORDS, ['account']).map((f) => f.key)).toEqual(['id', 'time', 'result']);
  });

  it('are declared on list screens, over list resources, by filters those lists have and fields the record has', () => {
    const declared = LEAF_ROUTES.filter((r) => r.screen?.kind === 'list' && r.screen.options?.related);
    expect(declared.map((r) => r.path).sort()).toEqual(['/WithDrawMoneyCheck', '/userpage/userset']);
    for (const route of declared) {
      const screen = route.screen as Extract<NonNullable<typeof route.screen>, { kind: 'list' }>;
      const own = lists.get(screen.id)!;
      for (const [id, filter] of Object.entries(RELATED_LISTS[screen.options!.related!])) {
        const related = lists.get(id);
        expect(related, `${route.path} relates ${id}`).toBeDefined();
        for (const [key, field] of Object.entries(filter)) {
          expect(filterKeys(related!), `${id} filters by ${key}`).toContain(key);
          expect(
            own.fields.map((f) => f.key),
            `${screen.id} has ${field}`,
          ).toContain(field);
        }
      }
    }
    expect(USERS.detail).toBe(true);
  });
});
