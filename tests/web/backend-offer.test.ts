import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  PERMISSIONS as P,
  RESOURCES,
  type BackendOffer,
  type ListResource,
  type OwnCallName,
} from '../../server/contract/index.js';
import { missingCallOf } from '../../web/api/client.js';
import { buildMenu } from '../../web/app/menu.js';
import { decide } from '../../web/app/navigation.js';
import { LEAF_ROUTES } from '../../web/app/routes.js';
import { searchEntries } from '../../web/app/search.js';
import { offeredResource } from '../../web/engine/shared/offer.js';
import { ownCallKey } from '../../web/api/session.js';

/** The screens a menu can list: the error pages are reached by address only. */
const MENU_LEAVES = LEAF_ROUTES.filter((r) => !r.meta.hidden);

/** What the UI does with the backend map's gaps: screens gone as if unpermitted, buttons and fields gone, missing calls named. */

const UNOFFERED = new Set(['googleVerify', 'suggestions', 'channelStatistics']);
const pathOf = (id: string) => LEAF_ROUTES.find((r) => r.screen?.id === id)!.path;

function menuPaths(menu: ReturnType<typeof buildMenu>): string[] {
  return menu.flatMap((m) => (m.children ? m.children.map((c) => c.path!) : [m.path!]));
}

describe('screens the backend does not offer', () => {
  it('are absent from the menu and the header search, leaving their neighbours under the same permission', () => {
    const menu = menuPaths(buildMenu(ALL_PERMISSIONS, undefined, UNOFFERED));
    const search = searchEntries(ALL_PERMISSIONS, (k) => k, undefined, UNOFFERED).map((e) => e.path);
    for (const id of UNOFFERED) {
      expect(menu).not.toContain(pathOf(id));
      expect(search).not.toContain(pathOf(id));
    }
    // Suggestions share the distribution-address permission; that screen stays.
    expect(menu).toContain(pathOf('distributionAddresses'));
    expect(menu).toHaveLength(MENU_LEAVES.length - UNOFFERED.size);
  });

  it('answer their URL with the not-offered page, and a group skips them', () => {
    const state = { loggedIn: true, permissions: ALL_PERMISSIONS, unoffered: UNOFFERED };
    const google = LEAF_ROUTES.find((r) => r.screen?.id === 'googleVerify')!;
    expect(decide(google.path, '', state)).toEqual({ kind: 'unoffered', route: google });
    // Without the permission it stays a permission matter.
    expect(decide(google.path, '', { ...state, permissions: [P.userProfile] })).toEqual({
      kind: 'forbidden',
      route: google,
    });
    expect(decide(pathOf('users'), '', state)).toMatchObject({ kind: 'page' });
    if (google.group && google.group.children[0] === google) {
      const next = google.group.children.find((c) => !UNOFFERED.has(c.screen?.id ?? ''))!;
      expect(decide(google.group.path, '', state)).toEqual({ kind: 'redirect', to: next.path });
    }
  });
});

describe('own calls the backend does not offer', () => {
  const noDeployment = new Set<OwnCallName>(['monitoring', 'runner', 'importDatabase']);
  const unoffered = new Set([...noDeployment].map(ownCallKey));
  const deployment = LEAF_ROUTES.filter((r) => r.needs?.some((n) => noDeployment.has(n)));

  it('take the deployment pages that need them out of the menu, the search and their group', () => {
    expect(deployment.map((r) => r.path)).toEqual([
      '/deployconfig/monitor',
      '/deployconfig/switch',
      '/deployconfig/migration',
    ]);
    const menu = buildMenu(ALL_PERMISSIONS, undefined, unoffered);
    expect(menu.find((m) => m.path === '/deployconfig')).toBeUndefined();
    expect(searchEntries(ALL_PERMISSIONS, (k) => k, undefined, unoffered).map((e) => e.path)).not.toContain(
      '/deployconfig/switch',
    );
    const state = { loggedIn: true, permissions: ALL_PERMISSIONS, unoffered };
    expect(decide('/deployconfig/switch', '', state)).toEqual({ kind: 'unoffered', route: deployment[1] });
  });

  it('leave a page whose own calls are offered in place', () => {
    const onlyMonitor = new Set([ownCallKey('monitoring')]);
    const menu = menuPaths(buildMenu(ALL_PERMISSIONS, undefined, onlyMonitor));
    expect(menu).toContain('/deployconfig/switch');
    expect(menu).not.toContain('/deployconfig/monitor');
    // A resource id never has a dot, so no screen is taken for an own call.
    expect(menu).toHaveLength(MENU_LEAVES.length - 1);
  });
});

describe('offeredResource', () => {
  const users = RESOURCES.find((r) => r.id === 'users') as ListResource;
  const offer: BackendOffer = {
    unsupported: {
      resources: [],
      calls: { users: ['update', 'detail'] },
      actions: { users: ['resetPassword'] },
      fields: { users: ['avatar', 'balance'] },
      filters: {},
      console: [],
    },
  };

  it('drops the buttons, actions, columns, filters and form fields the backend lacks', () => {
    const offered = offeredResource(users, offer);
    expect(offered.edit).toBe(false);
    expect(offered.detail).toBe(false);
    expect(offered.actions!.map((a) => a.name)).not.toContain('resetPassword');
    expect(offered.actions!.map((a) => a.name)).toContain('ban');
    expect(offered.fields.map((f) => f.key)).not.toEqual(expect.arrayContaining(['avatar']));
    expect(offered.fields.map((f) => f.key)).not.toContain('balance');
    expect(offered.fields).toHaveLength(users.fields.length - 2);
  });

  it('offers on every row an action whose condition reads a field the backend lacks', () => {
    const noStatus: BackendOffer = { unsupported: { ...offer.unsupported, fields: { users: ['status'] } } };
    const offered = offeredResource(users, noStatus);
    const ban = offered.actions!.find((a) => a.name === 'ban' && a.target === 'row')!;
    expect(ban.when).toBeUndefined();
    // A condition on a field the backend has stays.
    expect(offered.actions!.find((a) => a.name === 'setPrivileged')!.when).toEqual({
      field: 'privileged',
      in: [false],
    });
  });

  it('keeps the column of a field the backend cannot filter by, without its filter', () => {
    const groups = RESOURCES.find((r) => r.id === 'groups') as ListResource;
    const noDates: BackendOffer = { unsupported: { ...offer.unsupported, filters: { groups: ['createTime'] } } };
    const offered = offeredResource(groups, noDates);
    const createTime = offered.fields.find((f) => f.key === 'createTime')!;
    expect(createTime.column).toBe(true);
    expect(createTime.filter).toBeFalsy();
    expect(groups.fields.find((f) => f.key === 'createTime')!.filter).toBe(true);
    expect(offered.fields.find((f) => f.key === 'status')!.filter).toBe(true);
  });

  it("offers only the options of an input the map can send, and leaves the list's own options whole", () => {
    const mass = RESOURCES.find((r) => r.id === 'massMessages') as ListResource;
    const some: BackendOffer = {
      unsupported: { ...offer.unsupported, calls: {}, actions: {}, fields: {} },
      // Read leniently: a value that is no list of names is passed over.
      inputOptions: { massMessages: { segment: ['online', 'all', 7 as unknown as string], title: 'x' as never } },
    };
    const offered = offeredResource(mass, some);
    const send = offered.actions!.find((a) => a.name === 'send')!;
    expect(send.inputs!.find((i) => i.key === 'segment')!.options).toEqual(['all', 'online']);
    expect(send.inputs!.find((i) => i.key === 'title')).toEqual(
      mass.actions![0]!.inputs!.find((i) => i.key === 'title'),
    );
    // The history's filter reads what was sent before, on any audience.
    expect(offered.fields.find((f) => f.key === 'segment')!.options).toEqual(
      mass.fields.find((f) => f.key === 'segment')!.options,
    );
  });

  it('keeps a resource the map leaves whole as it is', () => {
    const groups = RESOURCES.find((r) => r.id === 'groups')!;
    expect(offeredResource(groups, offer)).toBe(groups);
  });
});

describe('missing calls', () => {
  it("name the gateway's call after mapping, or the UI's own when a backend says it has no such path", () => {
    expect(
      missingCallOf(
        {
          code: 404,
          msg: 'x',
          error: 'BACKEND_NO_SUCH_CALL',
          data: { method: 'GET', path: '/manage/user/page' },
        } as never,
        'GET',
        '/manage/user/userProfile/list',
      ),
    ).toEqual({ method: 'GET', path: '/manage/user/page' });
    expect(missingCallOf({ code: 404, msg: 'No such interface: GET /manage/x' }, 'GET', '/manage/x')).toEqual({
      method: 'GET',
      path: '/manage/x',
    });
    // A record that is not there is not a missing call.
    expect(missingCallOf({ code: 404, msg: 'users record 3 not found' }, 'GET', '/manage/x')).toBeNull();
    expect(missingCallOf({ code: 200, msg: 'ok' }, 'GET', '/manage/x')).toBeNull();
  });
});
