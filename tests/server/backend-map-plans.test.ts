import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../server/contract/index.js';
import { BackendMap, type Planned } from '../../server/backend-map/engine.js';
import { consoleCalls, type ConsoleCall } from '../../server/backend-map/calls.js';
import { parseBackendMap, BackendMapError } from '../../server/backend-map/load.js';
import { sendPlanned, type OneAnswer } from '../../server/backend-map/plan-run.js';
import type { Bound, Prepared } from '../../server/backend-map/bound.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { GatewayError } from '../../server/errors.js';

/**
 * The map's plan expressions (schema-call.ts), each both ways: values of the session and of the
 * clock placed in a call and a time read back as a switch; one request per id, one per generated
 * code, a read before a merged save; and how the answers of several requests become one.
 */

const byId = (id: string) => RESOURCES.find((r) => r.id === id)!;
const callOf = (id: string, kind: ConsoleCall['kind'], action?: string) =>
  consoleCalls(byId(id)).find((c) => c.kind === kind && (action === undefined || c.action === action))!;

const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);
const SESSION = { userId: '1000', kept: { adminId: '861000', role: '6' } };

const MAP: BackendMapFile = {
  answer: { code: '/resultCode', message: '/resultMsg', data: '/data', success: [1] },
  auth: {
    login: {
      path: '/login',
      answer: { token: '/data/token', userId: '/data/account', keep: { adminId: '/data/adminId', role: '/data/role' } },
    },
    token: { query: 'access_token' },
  },
  resources: {
    admins: {
      fields: { id: { name: 'userId' } },
      calls: {
        list: {
          path: '/adminList',
          session: { adminId: 'adminId', userId: 'userId' },
          answer: { list: '/data', total: '/count' },
        },
        delete: {
          method: 'POST',
          path: '/delAdmin',
          in: 'form',
          params: { id: 'adminId' },
          extra: { type: 5 },
          each: true,
        },
      },
    },
    groups: {
      id: 'string',
      fields: { muted: { name: 'talkTime', future: 'epoch-seconds' } },
      calls: {
        list: { path: '/roomList', answer: { list: '/data', total: '/count' } },
        update: {
          method: 'POST',
          path: '/room/{id}',
          template: { name: '{name}', by: '{operator}' },
          session: { operator: 'userId' },
        },
      },
      actions: {
        muteAll: {
          method: 'POST',
          path: '/updateRoom',
          in: 'form',
          params: { id: 'roomId' },
          session: { userId: 'userId' },
          now: { talkTime: { format: 'epoch-seconds', plusSeconds: 3600 } },
        },
        dissolve: { method: 'POST', path: '/deleteRoom', now: { at: { format: 'yyyy-MM-dd HH:mm:ss' } } },
      },
    },
    users: {
      actions: {
        ban: {
          method: 'POST',
          path: '/changeStatus',
          in: 'form',
          params: { id: 'userId' },
          extra: { status: -1 },
          bulk: { each: true },
        },
      },
    },
    inviteCodes: {
      id: 'string',
      fields: { maxUses: { absent: true }, expireTime: { absent: true } },
      actions: {
        generate: {
          method: 'POST',
          path: '/create/inviteCode',
          in: 'form',
          extra: { desc: '' },
          repeat: { count: 'count', max: 20, code: { param: 'inviteCode', length: 8, chars: 'ABCDEFGHJK' } },
        },
      },
    },
    siteFunctions: {
      fields: {
        maxGroupMembers: { name: 'maxUserSize' },
        customerServiceUrl: { name: 'helpUrl' },
        chatRoomName: { absent: true },
      },
      calls: {
        config: { path: '/config' },
        saveConfig: { method: 'POST', path: '/config/set', in: 'form', merge: 'config' },
      },
    },
  },
};

const map = new BackendMap(parseBackendMap(JSON.stringify(MAP), 'plans.json'));
const ready = (p: Planned) => {
  if ('unsupported' in p) throw new Error(p.unsupported);
  return p;
};
const form = (p: { request: { body?: { text: string } } }) =>
  Object.fromEntries(new URLSearchParams(p.request.body!.text));

function refuses(file: BackendMapFile, at: string, reason: RegExp): void {
  try {
    parseBackendMap(JSON.stringify(file), 'bad.json');
  } catch (error) {
    expect(error).toBeInstanceOf(BackendMapError);
    expect((error as BackendMapError).at).toBe(at);
    expect((error as BackendMapError).reason).toMatch(reason);
    return;
  }
  throw new Error('the map was accepted');
}

describe('session values in a call', () => {
  it('places the login’s user id and kept values as backend parameters, in a query, a form and a template', () => {
    const list = ready(map.prepare(callOf('admins', 'list'), { pageNum: '1', pageSize: '20' }, { session: SESSION }));
    const query = new URLSearchParams(list.request.path.split('?')[1]);
    expect(query.get('adminId')).toBe('861000');
    expect(query.get('userId')).toBe('1000');
    const muted = ready(
      map.prepare(callOf('groups', 'action', 'muteAll'), { id: 'abc' }, { session: SESSION, now: NOW }),
    );
    expect(form(muted)).toMatchObject({ roomId: 'abc', userId: '1000' });
    const update = ready(map.prepare(callOf('groups', 'save'), { id: 'abc', name: 'Team' }, { session: SESSION }));
    expect(update.request).toMatchObject({ method: 'POST', path: '/room/abc' });
    expect(JSON.parse(update.request.body!.text)).toEqual({ name: 'Team', by: '1000' });
  });

  it('refuses a call whose session lacks the value, and a map naming a value the login does not keep', () => {
    expect(() => map.prepare(callOf('admins', 'list'), {}, { session: { userId: '1000', kept: {} } })).toThrow(
      GatewayError,
    );
    expect(() => map.prepare(callOf('admins', 'list'), {}, {})).toThrow(/needs adminId, the session's adminId/);
    const unknown = structuredClone(MAP);
    unknown.resources!.admins!.calls!.list!.session = { adminId: 'telephone' };
    refuses(unknown, '/resources/admins/calls/list/session/adminId', /"telephone" is not a session value/);
    const ambiguous = structuredClone(MAP);
    ambiguous.auth!.login.answer.keep!.userId = '/data/userId';
    refuses(ambiguous, '/auth/login/answer/keep/userId', /keep this value under another name/);
    const loginless = structuredClone(MAP);
    delete loginless.auth;
    refuses(loginless, '/resources/admins/calls/list/session/adminId', /no "auth"/);
  });
});

describe('the clock in a call and a time read as a switch', () => {
  it('sends the time of the call in the named format, plus seconds', () => {
    const muted = ready(
      map.prepare(callOf('groups', 'action', 'muteAll'), { id: 'abc' }, { session: SESSION, now: NOW }),
    );
    expect(form(muted).talkTime).toBe(String(Math.floor(NOW / 1000) + 3600));
    const dissolved = ready(
      map.prepare(callOf('groups', 'action', 'dissolve'), { id: 'abc' }, { session: SESSION, now: NOW }),
    );
    expect(JSON.parse(dissolved.request.body!.text).at).toBe('2026-01-02 03:04:05');
  });

  it('reads a stored end as muted while it is later than now, and never sends the switch back', () => {
    const list = ready(map.prepare(callOf('groups', 'list'), { muted: 'true', pageNum: '1' }));
    expect(list.request.path).not.toContain('talkTime');
    expect(list.request.path).not.toContain('muted');
    const now = Math.floor(Date.now() / 1000);
    const rows = [
      { id: 'a', talkTime: now + 600 },
      { id: 'b', talkTime: now - 600 },
      { id: 'c', talkTime: 0 },
      { id: 'd', talkTime: -2 },
      { id: 'e', talkTime: null },
    ];
    const answer = map.answer(list, 200, {}, { resultCode: 1, data: rows, count: rows.length });
    expect((answer.body.data as { list: { muted: boolean }[] }).list.map((r) => r.muted)).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('one request per id', () => {
  it('sends a delete of several ids once per id, as {id} renamed, and a single id as one plain request', () => {
    const many = ready(map.prepare(callOf('admins', 'delete'), { ids: [7, 8, 9] }, { session: SESSION }));
    expect(many.plan?.kind).toBe('each');
    const plan = many.plan as Extract<Planned, { plan?: unknown }>['plan'] & { kind: 'each' };
    expect(plan.ids).toEqual([7, 8, 9]);
    expect(plan.requests.map((r) => Object.fromEntries(new URLSearchParams(r.body!.text)))).toEqual([
      { adminId: '7', type: '5' },
      { adminId: '8', type: '5' },
      { adminId: '9', type: '5' },
    ]);
    const one = ready(map.prepare(callOf('admins', 'delete'), { ids: [7] }, { session: SESSION }));
    expect(one.plan).toBeUndefined();
    expect(form(one)).toEqual({ adminId: '7', type: '5' });
  });

  it('sends a selection of an action’s bulk call once per id, with the inputs on each', () => {
    const bulk = ready(map.prepare(callOf('users', 'action', 'ban'), { ids: [1, 2], reason: 'spam' }));
    expect(bulk.plan?.kind).toBe('each');
    const requests = (bulk.plan as { requests: { body?: { text: string } }[] }).requests;
    expect(requests.map((r) => Object.fromEntries(new URLSearchParams(r.body!.text)))).toEqual([
      { userId: '1', reason: 'spam', status: '-1' },
      { userId: '2', reason: 'spam', status: '-1' },
    ]);
    const row = ready(map.prepare(callOf('users', 'action', 'ban'), { id: 3, reason: 'spam' }));
    expect(row.plan).toBeUndefined();
  });

  it('refuses `each` on a call that never carries ids', () => {
    const bad = structuredClone(MAP);
    bad.resources!.groups!.calls!.list!.each = true;
    refuses(bad, '/resources/groups/calls/list/each', /delete or an action's bulk call/);
  });
});

describe('a repeated call with generated codes', () => {
  it('sends `count` requests, each with a fresh code of the map’s length and characters, and not the count', () => {
    const made = ready(map.prepare(callOf('inviteCodes', 'action', 'generate'), { count: 5, maxUses: 1 }));
    const plan = made.plan as { kind: string; codes: string[]; requests: { body?: { text: string } }[] };
    expect(plan.kind).toBe('repeat');
    expect(plan.codes).toHaveLength(5);
    for (const code of plan.codes) expect(code).toMatch(/^[A-HJK]{8}$/);
    expect(plan.requests.map((r) => Object.fromEntries(new URLSearchParams(r.body!.text)))).toEqual(
      plan.codes.map((inviteCode) => ({ desc: '', inviteCode })),
    );
  });

  it('refuses a count outside 1 to max', () => {
    for (const count of [0, 21, 'x', 2.5])
      expect(() => map.prepare(callOf('inviteCodes', 'action', 'generate'), { count })).toThrow(
        /count must be a whole number from 1 to 20/,
      );
  });
});

describe('a merged settings save', () => {
  it('reads the settings first and sends the backend’s record with the console’s changes over it', () => {
    const save = ready(
      map.prepare(callOf('siteFunctions', 'saveConfig'), {
        maxGroupMembers: 300,
        chatRoomName: 'ignored',
        customerServiceUrl: 'https://h.example',
      }),
    );
    const plan = save.plan as {
      kind: string;
      read: Extract<Prepared, { bound: Bound }>;
      request: (record: Record<string, unknown>) => { body?: { text: string } };
    };
    expect(plan.kind).toBe('merge');
    expect(plan.read.request).toEqual({ method: 'GET', path: '/config' });
    const record = {
      id: 10000,
      maxUserSize: 1000,
      helpUrl: null,
      isKeyWord: 1,
      language: 'zh',
      nested: { a: 1 },
      list: [1],
    };
    expect(Object.fromEntries(new URLSearchParams(plan.request(record).body!.text))).toEqual({
      id: '10000',
      maxUserSize: '300',
      helpUrl: 'https://h.example',
      isKeyWord: '1',
      language: 'zh',
    });
  });

  it('refuses a merge anywhere but a saveConfig with a bound config call', () => {
    const elsewhere = structuredClone(MAP);
    elsewhere.resources!.admins!.calls!.list!.merge = 'config';
    refuses(elsewhere, '/resources/admins/calls/list/merge', /saveConfig/);
    const unread = structuredClone(MAP);
    unread.resources!.siteFunctions!.calls!.config = { unsupported: true };
    refuses(unread, '/resources/siteFunctions/calls/saveConfig/merge', /config call must be bound/);
  });
});

describe('the answer of several requests', () => {
  const ok: OneAnswer = { status: 200, body: { code: 200, msg: 'ok' }, json: { resultCode: 1 } };
  const refused = (msg: string): OneAnswer => ({
    status: 200,
    body: { code: 400, msg },
    json: { resultCode: 0, resultMsg: msg },
  });

  it('answers every id done, or each refusal by id with the first one’s code', async () => {
    const call = ready(map.prepare(callOf('users', 'action', 'ban'), { ids: [1, 2, 3], reason: 'r' }));
    const sent: string[] = [];
    const all = await sendPlanned(call, async (one) => (sent.push(one.request.body!.text), ok));
    expect(sent).toHaveLength(3);
    expect(all).toEqual({ status: 200, body: { code: 200, msg: 'ok', data: { done: [1, 2, 3] } } });
    const some = await sendPlanned(call, async (one) =>
      one.request.body!.text.includes('userId=2') ? refused('权限不足') : ok,
    );
    expect(some).toEqual({
      status: 200,
      body: {
        code: 400,
        msg: '1 of 3 refused: 权限不足',
        data: { done: [1, 3], refused: [{ id: 2, code: 400, msg: '权限不足' }] },
      },
    });
  });

  it('passes a first request that cannot be sent on as the call’s error, a later one as that id’s refusal', async () => {
    const call = ready(map.prepare(callOf('users', 'action', 'ban'), { ids: [1, 2], reason: 'r' }));
    const down = new GatewayError('UPSTREAM_UNREACHABLE');
    await expect(sendPlanned(call, async () => Promise.reject(down))).rejects.toBe(down);
    let n = 0;
    const later = await sendPlanned(call, async () => (n++ === 0 ? ok : Promise.reject(down)));
    expect(later.body).toMatchObject({
      code: down.status,
      data: { done: [1], refused: [{ id: 2, code: down.status }] },
    });
  });

  it('answers the generated codes made, stopping at the first refusal', async () => {
    const call = ready(map.prepare(callOf('inviteCodes', 'action', 'generate'), { count: 4 }));
    const codes = (call.plan as { codes: string[] }).codes;
    const all = await sendPlanned(call, async () => ok);
    expect(all.body).toEqual({ code: 200, msg: 'ok', data: { codes } });
    let n = 0;
    const some = await sendPlanned(call, async () => (++n <= 2 ? ok : refused('邀请码已存在')));
    expect(n).toBe(3);
    expect(some.body).toEqual({
      code: 400,
      msg: '2 of 4 made: 邀请码已存在',
      data: { codes: codes.slice(0, 2), refused: [{ code: 400, msg: '邀请码已存在' }] },
    });
    const none = await sendPlanned(call, async () => refused('系统当前没有开启邀请码'));
    expect(none.body).toEqual({ code: 400, msg: '系统当前没有开启邀请码' });
  });

  it('saves over the record read, and answers the read’s refusal without saving', async () => {
    const call = ready(map.prepare(callOf('siteFunctions', 'saveConfig'), { maxGroupMembers: 300 }));
    const sent: string[] = [];
    const saved = await sendPlanned(call, async (one) => {
      sent.push(`${one.request.method} ${one.request.path} ${one.request.body?.text ?? ''}`.trim());
      return one.request.path === '/config'
        ? { ...ok, json: { resultCode: 1, data: { maxUserSize: 1000, isKeyWord: 1 } } }
        : ok;
    });
    expect(saved.body.code).toBe(200);
    expect(sent).toEqual(['GET /config', 'POST /config/set maxUserSize=300&isKeyWord=1']);
    sent.length = 0;
    const unread = await sendPlanned(call, async (one) => (sent.push(one.request.path), refused('权限不足')));
    expect(unread.body).toEqual({ code: 400, msg: '权限不足' });
    expect(sent).toEqual(['/config']);
    await expect(sendPlanned(call, async () => ({ ...ok, json: { resultCode: 1, data: null } }))).rejects.toThrow(
      /no settings record/,
    );
  });
});
