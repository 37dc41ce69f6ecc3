import { describe, expect, it } from 'vitest';
import { RESOURCES, type Resource } from '../../server/contract/index.js';
import { BackendMap, type Prepared } from '../../server/backend-map/engine.js';
import { consoleCalls } from '../../server/backend-map/calls.js';
import { exchange } from '../../server/backend-map/exchange.js';
import { BackendMapError, parseBackendMap } from '../../server/backend-map/load.js';
import { sessionForService } from '../../server/backend-map/services.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';

/**
 * The expressions a backend split as OpenIM is (chat backend + OpenIM Server) needs, each both
 * ways: a service's own token taken from a kept login value (`services.<name>.token`), a detail
 * read over several calls (`also` on a detail), list rows whose record is nested (`answer.lift`),
 * and several backend values read as one of the console's (`values` lists).
 */

const byId = (id: string) => RESOURCES.find((r) => r.id === id)!;
const callOf = (resource: Resource, kind: string, action?: string) =>
  consoleCalls(resource).find((c) => c.kind === kind && (action === undefined || c.action === action))!;
const ready = (p: Prepared) => {
  if ('unsupported' in p) throw new Error(`unsupported ${p.unsupported}`);
  return p;
};
const problem = (value: unknown) => {
  try {
    parseBackendMap(JSON.stringify(value), 'm.json');
  } catch (error) {
    expect(error).toBeInstanceOf(BackendMapError);
    return (error as Error).message;
  }
  throw new Error('the map was accepted');
};

const AUTH = {
  login: { path: '/login', answer: { token: '/data/token', userId: '/data/id', keep: { imToken: '/data/imToken' } } },
  token: { headers: ['token'] },
};

const MAP: BackendMapFile = {
  answer: { code: '/errCode', message: '/errMsg', data: '/data', success: [0] },
  services: { im: { env: 'IM_API_URL', token: 'imToken' }, chat: { env: 'CHAT_API_URL' } },
  auth: AUTH,
  resources: {
    groups: {
      id: 'string',
      fields: {
        id: { name: 'groupID' },
        name: { name: 'groupName' },
        muted: { name: 'status', values: { true: 3, false: [0, 1, 2] } },
        status: { name: 'status', values: { normal: [0, 1, 3], dissolved: 2 } },
      },
      calls: {
        list: {
          service: 'im',
          method: 'POST',
          path: '/groups',
          answer: { list: '/data/groups', lift: ['/groupInfo'], total: '/data/total' },
        },
        detail: {
          service: 'im',
          method: 'POST',
          path: '/groups/info',
          template: { groupIDs: ['{id}'] },
          answer: { record: '/infos/0', recordAs: '/group' },
          also: [
            {
              service: 'im',
              method: 'POST',
              path: '/groups/members',
              template: { groupID: '{id}' },
              answer: {
                record: '/group',
                recordAs: '/group',
                relations: { members: { at: '/members', fields: { userId: { name: 'userID', id: 'string' } } } },
              },
            },
          ],
        },
      },
      actions: { muteAll: { service: 'im', method: 'POST', path: '/groups/mute', template: { groupID: '{id}' } } },
    },
  },
};
const map = new BackendMap(parseBackendMap(JSON.stringify(MAP), 'im.json'));
const json = (value: unknown) => ({ status: 200, headers: {}, body: Buffer.from(JSON.stringify(value)) });

describe('a service’s own token (services.<name>.token)', () => {
  const session = { token: 'chat-token', userId: 'imAdmin', kept: { imToken: 'im-token' } };

  it('gives that service’s calls the kept value as their token, and every other call the login’s', () => {
    expect(sessionForService(MAP, 'im', session)).toEqual({ ...session, token: 'im-token' });
    expect(sessionForService(MAP, 'chat', session)).toBe(session);
    expect(sessionForService(MAP, undefined, session)).toBe(session);
    expect(sessionForService(MAP, 'im', null)).toBeNull();
  });

  it('sends an empty token from a session that kept no such value, for the backend to refuse', () => {
    expect(sessionForService(MAP, 'im', { token: 'chat-token', userId: 'x' })?.token).toBe('');
  });

  it('refuses at start a token the login does not keep, naming the place', () => {
    expect(problem({ ...MAP, services: { im: { env: 'IM_API_URL', token: 'level' } } })).toMatch(
      /m\.json at \/services\/im\/token: "level" is not a value the login keeps \(auth\.login\.answer\.keep: imToken\)/,
    );
    expect(problem({ services: { im: { env: 'IM_API_URL', token: 'imToken' } } })).toMatch(/keep: none/);
  });
});

describe('list rows with a nested record (answer.lift)', () => {
  it('reads the nested record’s members as the row’s own, the row’s own winning', async () => {
    const p = ready(map.prepare(callOf(byId('groups'), 'list'), { pageNum: 1, pageSize: 20 }));
    expect(p.request.service).toBe('im');
    const answered = await exchange(p, {
      send: async () => json({}),
      read: async () => ({
        errCode: 0,
        data: {
          total: 1,
          groups: [{ groupInfo: { groupID: '7', groupName: 'inner', status: 3 }, groupName: 'outer', owner: 'u1' }],
        },
      }),
    });
    expect(answered.body).toMatchObject({
      code: 200,
      data: { total: 1, list: [{ id: 7, name: 'outer', owner: 'u1', muted: true, status: 'normal' }] },
    });
    const row = (answered.body.data as { list: Record<string, unknown>[] }).list[0]!;
    expect(row).not.toHaveProperty('groupInfo');
  });

  it('is a list’s: refused on another call', () => {
    expect(
      problem({ resources: { groups: { calls: { detail: { path: '/g', answer: { lift: ['/groupInfo'] } } } } } }),
    ).toMatch(/\/resources\/groups\/calls\/detail\/answer\/lift: lift reads list rows/);
  });
});

describe('several backend values read as one (values lists)', () => {
  it('reads each listed value as the console’s and sends the first', async () => {
    const read = async (status: number) => {
      const p = ready(map.prepare(callOf(byId('groups'), 'list'), { pageNum: 1, pageSize: 20 }));
      const answered = await exchange(p, {
        send: async () => json({}),
        read: async () => ({ errCode: 0, data: { total: 1, groups: [{ groupInfo: { groupID: '1', status } }] } }),
      });
      const [row] = (answered.body.data as { list: Record<string, unknown>[] }).list;
      return [row!.muted, row!.status];
    };
    expect(await read(0)).toEqual([false, 'normal']);
    expect(await read(1)).toEqual([false, 'normal']);
    expect(await read(2)).toEqual([false, 'dissolved']);
    expect(await read(3)).toEqual([true, 'normal']);
    // A value no list names passes as it came, as a one-value table's does.
    expect(await read(9)).toEqual([9, 9]);
  });

  it('writes the first value of a list', () => {
    const withFilter = new BackendMap(
      parseBackendMap(
        JSON.stringify({
          resources: {
            groups: { fields: { status: { name: 's', values: { normal: [1, 3], dissolved: -1 } } } },
          },
        }),
        'm.json',
      ),
    );
    const p = ready(withFilter.prepare(callOf(byId('groups'), 'list'), { pageNum: 1, pageSize: 20, status: 'normal' }));
    expect(p.request.path).toMatch(/[?&]s=1(&|$)/);
  });
});

describe('a detail over several calls (also on a detail)', () => {
  it('reads the record from the first call and its relations from the next, to the same service', async () => {
    const p = ready(map.prepare(callOf(byId('groups'), 'detail'), { id: '42' }));
    expect([p.request.path, p.request.service]).toEqual(['/groups/info', 'im']);
    expect(p.also?.map((s) => [s.request.path, s.request.service, JSON.parse(s.request.body!.text)])).toEqual([
      ['/groups/members', 'im', { groupID: '42' }],
    ]);
    const answered = await exchange(p, {
      send: async () => json({}),
      read: async (_answer, request) =>
        request.path === '/groups/info'
          ? { errCode: 0, data: { infos: [{ groupID: '42', groupName: 'g', status: 0 }] } }
          : { errCode: 0, data: { total: 1, members: [{ userID: '1001' }] } },
    });
    expect(answered.body).toMatchObject({
      code: 200,
      data: { group: { id: 42, name: 'g', status: 'normal', muted: false }, members: [{ userId: 1001 }] },
    });
  });

  it('stops at the first refusal: no relations without the record', async () => {
    const p = ready(map.prepare(callOf(byId('groups'), 'detail'), { id: '42' }));
    const sent: string[] = [];
    const answered = await exchange(p, {
      send: async (request) => {
        sent.push(request.path);
        return json({});
      },
      read: async () => ({ errCode: 1004, errMsg: 'RecordNotFoundError' }),
    });
    expect(sent).toEqual(['/groups/info']);
    expect(answered.body).toMatchObject({ code: 1004 });
  });

  it('still refuses also on a list, an update and an action', () => {
    for (const [at, call] of [
      ['calls', 'list'],
      ['calls', 'update'],
      ['actions', 'muteAll'],
    ] as const) {
      expect(problem({ resources: { groups: { [at]: { [call]: { path: '/g', also: [{ path: '/x' }] } } } } })).toMatch(
        new RegExp(`/resources/groups/${at}/${call}/also: one console call over several`),
      );
    }
  });
});
