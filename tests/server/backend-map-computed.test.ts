import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESOURCES, type Resource } from '../../server/contract/index.js';
import { BackendMap, type Prepared } from '../../server/backend-map/engine.js';
import { consoleCalls } from '../../server/backend-map/calls.js';
import { exchange } from '../../server/backend-map/exchange.js';
import { BackendMapError, parseBackendMap } from '../../server/backend-map/load.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { ConfigError, loadConfig } from '../../server/config.js';
import { isStrongPassword } from '../../server/contract/validation.js';
import { GatewayError } from '../../server/errors.js';

/**
 * The expressions that compute what a call sends or what its answer means, each both ways: values
 * a call generates (a password, today) and answers back (`result`), digests of what it sends
 * (`hash`, `{name|md5}`), values a backend keeps as text (`asText`), end bounds that exclude
 * themselves (`exclusiveEnd`), counts keyed by day (`days`), a base URL per call (`service`), and
 * the figures of the console's own calls the map marks absent.
 */

const byId = (id: string) => RESOURCES.find((r) => r.id === id)!;
const callOf = (resource: Resource, kind: string, action?: string) =>
  consoleCalls(resource).find((c) => c.kind === kind && (action === undefined || c.action === action))!;
const ready = (p: Prepared) => {
  if ('unsupported' in p) throw new Error(`unsupported ${p.unsupported}`);
  return p;
};
const bodyOf = (p: Exclude<Prepared, { unsupported: string }>) =>
  JSON.parse(p.request.body!.text) as Record<string, unknown>;
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const ok = (data: unknown) => ({ errCode: 0, errMsg: '', data });

const MAP: BackendMapFile = {
  answer: { code: '/errCode', message: '/errMsg', data: '/data', success: [0] },
  timeZone: '+08:00',
  services: { chat: { env: 'CHAT_API_URL' } },
  resources: {
    users: {
      id: 'string',
      calls: { list: { service: 'chat', method: 'POST', path: '/user/search', template: { page: '{pageNum}' } } },
      actions: {
        resetPassword: {
          method: 'POST',
          path: '/user/password/reset',
          generate: { password: 'password' },
          template: { userID: '{id}', newPassword: '{password|md5}', check: '{password|sha256}' },
          answer: { result: { password: '{password}' } },
        },
      },
    },
    admins: {
      fields: { password: { hash: 'md5' } },
      calls: { create: { method: 'POST', path: '/admin/add', in: 'form' } },
    },
    siteFunctions: {
      fields: {
        maxGroupMembers: { asText: true },
        walletEnabled: { asText: true },
        chatRoomName: { asText: true },
      },
      calls: {
        saveConfig: {
          method: 'POST',
          path: '/config/set',
          template: { config: { max: '{maxGroupMembers}', wallet: '{walletEnabled}', name: '{chatRoomName}' } },
        },
      },
    },
    billingRecords: {
      fields: { createTime: { time: 'epoch-millis' }, amount: { money: 'yuan', asText: true } },
      calls: { list: { path: '/bills', dates: { format: 'epoch-millis', exclusiveEnd: true } } },
    },
    dailyStatistics: {
      fields: { rechargeAmount: { money: 'yuan' } },
      calls: {
        list: {
          path: '/stats/register',
          dates: { format: 'yyyy-MM-dd', exclusiveEnd: true },
          answer: { days: { registrations: '/data/date_count', rechargeAmount: '/data/money' } },
        },
      },
    },
  },
  console: {
    calls: {
      count: {
        path: '/stats/today',
        generate: { startDate: 'today', endDate: 'today' },
        dates: { format: 'epoch-millis', exclusiveEnd: true },
        fields: { userCount: { name: 'total' }, onlineUsers: { absent: true } },
        answer: { days: { newUsersToday: '/data/date_count' } },
      },
    },
  },
};
const map = new BackendMap(parseBackendMap(JSON.stringify(MAP), 'computed.json'));

describe('generated values and the answer made of them (generate, result)', () => {
  const reset = () => ready(map.prepare(callOf(byId('users'), 'action', 'resetPassword'), { id: 10023 }));

  it('sends a new password’s digests and answers the password itself, never the same twice', () => {
    const first = reset();
    const sent = bodyOf(first);
    expect(sent.userID).toBe('10023');
    const answered = map.answer(first, 200, {}, { errCode: 0, errMsg: '' }).body as {
      code: number;
      data: { password: string };
    };
    expect(answered.code).toBe(200);
    const { password } = answered.data;
    expect(isStrongPassword(password)).toBe(true);
    expect(password).toMatch(/^[A-Za-z2-9]{12}$/);
    expect(sent.newPassword).toBe(md5(password));
    expect(sent.check).toBe(createHash('sha256').update(password).digest('hex'));
    expect(JSON.stringify(sent)).not.toContain(password);
    const second = reset();
    expect(bodyOf(second).newPassword).not.toBe(sent.newPassword);
  });

  it('keeps a refusal the backend’s, without the generated value', () => {
    expect(map.answer(reset(), 200, {}, { errCode: 1001, errMsg: 'new password == current password' }).body).toEqual({
      code: 1001,
      msg: 'new password == current password',
    });
  });

  it('puts a generated value over one the browser sent under its name', () => {
    const p = ready(
      map.prepare(callOf(byId('users'), 'action', 'resetPassword'), { id: 1, password: 'chosen-by-the-browser' }),
    );
    const { data } = map.answer(p, 200, {}, ok({})).body as { data: { password: string } };
    expect(data.password).not.toBe('chosen-by-the-browser');
    expect(bodyOf(p).newPassword).toBe(md5(data.password));
  });

  it('makes today in the map’s time zone, a range the date formats then write', () => {
    const p = ready(map.prepareOwn('count', 'GET', {}));
    const { startDate: start, endDate: end } = Object.fromEntries(
      new URLSearchParams(p.request.path.split('?')[1]),
    ) as Record<string, string>;
    // +08:00: today starts at 16:00 UTC of the day before; the exclusive end is a day later.
    expect(Number(end) - Number(start)).toBe(86_400_000);
    expect(new Date(Number(start)).toISOString()).toMatch(/T16:00:00\.000Z$/);
    const now = Date.now();
    expect(Number(start)).toBeLessThanOrEqual(now);
    expect(Number(end)).toBeGreaterThan(now);
  });
});

describe('digests of what is sent (hash, {name|md5})', () => {
  it('sends a hashed field as its md5 in a form body, and an empty one as empty', () => {
    const p = ready(
      map.prepare(callOf(byId('admins'), 'save'), { account: 'ops', nickname: 'Ops', password: 'Secret12345' }),
    );
    const form = new URLSearchParams(p.request.body!.text);
    expect(form.get('password')).toBe(md5('Secret12345'));
    expect(form.get('account')).toBe('ops');
    const empty = ready(map.prepare(callOf(byId('admins'), 'save'), { account: 'ops', password: '' }));
    expect(new URLSearchParams(empty.request.body!.text).get('password')).toBe('');
  });

  it('reads a hashed field back as the backend wrote it (a digest cannot be undone)', () => {
    const p = ready(map.prepare(callOf(byId('admins'), 'list'), { pageNum: 1, pageSize: 1 }));
    const body = map.answer(p, 200, {}, ok({ list: [{ id: 1, password: 'abc' }], total: 1 })).body as {
      data: { list: unknown[] };
    };
    expect(body.data.list).toEqual([{ id: 1, password: 'abc' }]);
  });

  it('refuses an unknown placeholder filter at start, naming the place', () => {
    const bad = { resources: { users: { actions: { ban: { template: { reason: '{reason|rot13}' } } } } } };
    expect(() => parseBackendMap(JSON.stringify(bad), 'm.json')).toThrow(
      'm.json at /resources/users/actions/ban/template: "{reason|rot13}": no filter "rot13"',
    );
  });
});

describe('values kept as text (asText)', () => {
  const save = (input: Record<string, unknown>) =>
    bodyOf(ready(map.prepare(callOf(byId('siteFunctions'), 'saveConfig'), input))).config;

  it('writes numbers and switches as their text, and leaves text as it is', () => {
    expect(save({ maxGroupMembers: 500, walletEnabled: false, chatRoomName: 'Chat' })).toEqual({
      max: '500',
      wallet: 'false',
      name: 'Chat',
    });
  });

  it('reads the text back as the number or switch, and text that is none as it came', () => {
    const p = ready(map.prepare(callOf(byId('siteFunctions'), 'config'), {}));
    const { data } = map.answer(p, 200, {}, ok({ maxGroupMembers: '500', walletEnabled: 'true', chatRoomName: '500' }))
      .body as { data: unknown };
    expect(data).toEqual({ maxGroupMembers: 500, walletEnabled: true, chatRoomName: '500' });
    const odd = map.answer(p, 200, {}, ok({ maxGroupMembers: 'lots', walletEnabled: 'yes' })).body as { data: unknown };
    expect(odd.data).toEqual({ maxGroupMembers: 'lots', walletEnabled: 'yes' });
  });

  it('applies a field’s own transform first: yuan as text both ways', () => {
    const p = ready(map.prepare(callOf(byId('billingRecords'), 'list'), { pageNum: 1, pageSize: 1 }));
    const { data } = map.answer(p, 200, {}, ok({ list: [{ amount: '12.30' }], total: 1 })).body as {
      data: { list: unknown[] };
    };
    expect(data.list).toEqual([{ amount: 1230 }]);
    const filter = ready(map.prepare(callOf(byId('billingRecords'), 'list'), { amount: 1230 }));
    expect(filter.request.path).toContain('amount=12.3');
  });
});

describe('end bounds that leave themselves out (dates.exclusiveEnd)', () => {
  it('sends the next day’s first instant as a filter’s end, and the day’s first as its start', () => {
    const p = ready(
      map.prepare(callOf(byId('billingRecords'), 'list'), { createTimeFrom: '2024-06-01', createTimeTo: '2024-06-30' }),
    );
    const query = new URLSearchParams(p.request.path.split('?')[1]);
    expect(query.get('createTimeFrom')).toBe(String(Date.UTC(2024, 5, 1) - 8 * 3_600_000));
    expect(query.get('createTimeTo')).toBe(String(Date.UTC(2024, 6, 1) - 8 * 3_600_000));
  });

  it('sends the next date of a day range, month and year ends included', () => {
    const p = ready(
      map.prepare(callOf(byId('dailyStatistics'), 'list'), { startDate: '2024-12-25', endDate: '2024-12-31' }),
    );
    expect(p.request.path).toBe('/stats/register?startDate=2024-12-25&endDate=2025-01-01');
  });
});

describe('counts keyed by day (answer.days)', () => {
  const stats = () =>
    ready(map.prepare(callOf(byId('dailyStatistics'), 'list'), { startDate: '2024-06-01', endDate: '2024-06-04' }));

  it('makes one row per day of the range from maps of days, zero where the backend named none', () => {
    const json = ok({ date_count: { '2024-06-02': 3, '2024-06-04': 1 }, money: { '2024-06-02': '12.30' } });
    expect(map.answer(stats(), 200, {}, json).body).toEqual({
      code: 200,
      msg: '',
      data: {
        list: [
          { date: '2024-06-01', registrations: 0, rechargeAmount: 0 },
          { date: '2024-06-02', registrations: 3, rechargeAmount: 1230 },
          { date: '2024-06-03', registrations: 0, rechargeAmount: 0 },
          { date: '2024-06-04', registrations: 1, rechargeAmount: 0 },
        ],
        total: 4,
      },
    });
  });

  it('reads a list of one-key objects, Shiku’s shape, and a Go nil map as no days', () => {
    const json = ok({ date_count: [{ '2024-06-03': 2.0 }, { '2024-06-01': 5 }], money: null });
    const { data } = map.answer(stats(), 200, {}, json).body as { data: { list: Record<string, unknown>[] } };
    expect(data.list.map((r) => r.registrations)).toEqual([5, 0, 2, 0]);
  });

  it('refuses a key that is no day and a count that is no number as bad answers', () => {
    expect(() => map.answer(stats(), 200, {}, ok({ date_count: { '2024-6-1': 1 } }))).toThrow(GatewayError);
    expect(() => map.answer(stats(), 200, {}, ok({ date_count: { '2024-06-01': 1 } }))).not.toThrow();
    expect(() => map.answer(stats(), 200, {}, ok({ date_count: { '2024-06-01': 'many' } }))).toThrow(
      /registrations.*2024-06-01/,
    );
    expect(() => map.answer(stats(), 200, {}, ok({ date_count: 0 }))).toThrow(/not a map of days/);
    // Money keeps its rule: no fraction of a fen.
    expect(() => map.answer(stats(), 200, {}, ok({ money: { '2024-06-01': '1.234' } }))).toThrow(/rechargeAmount/);
  });

  it('sums the days into a figure for the console’s own call, the map of days leaving the figures', () => {
    const p = ready(map.prepareOwn('count', 'GET', {}));
    const body = map.answer(p, 200, {}, ok({ total: 3000, date_count: { '2026-11-26': 21 } })).body;
    expect(body).toEqual({ code: 200, msg: '', data: { userCount: 3000, newUsersToday: 21 } });
    expect(map.answer(p, 200, {}, ok({ total: 3000, date_count: null })).body).toMatchObject({
      data: { newUsersToday: 0 },
    });
  });

  it('refuses days on a call that is no statistics, and a series the screen lacks', () => {
    const onList = { resources: { users: { calls: { list: { answer: { days: { registrations: '/data' } } } } } } };
    expect(() => parseBackendMap(JSON.stringify(onList), 'm.json')).toThrow(
      'm.json at /resources/users/calls/list/answer/days: counts keyed by day',
    );
    const unknown = { resources: { dailyStatistics: { calls: { list: { answer: { days: { likes: '/data' } } } } } } };
    expect(() => parseBackendMap(JSON.stringify(unknown), 'm.json')).toThrow(
      /at \/resources\/dailyStatistics\/calls\/list\/answer\/days\/likes: no series "likes"/,
    );
    expect(() =>
      parseBackendMap(
        JSON.stringify({ console: { calls: { withdrawalCount: { answer: { days: { n: '/data' } } } } } }),
        'm.json',
      ),
    ).toThrow(/withdrawalCount\/answer\/days/);
  });
});

describe('several backend calls for one console call (also): the map’s checks', () => {
  const problem = (value: unknown) => {
    try {
      parseBackendMap(JSON.stringify(value), 'm.json');
    } catch (error) {
      expect(error).toBeInstanceOf(BackendMapError);
      return (error as Error).message;
    }
    throw new Error('the map was accepted');
  };

  it('prepares every call from the same input, in order', () => {
    const spread = new BackendMap(
      parseBackendMap(
        JSON.stringify({
          resources: {
            siteFunctions: {
              calls: {
                saveConfig: {
                  path: '/config/set',
                  also: [{ path: '/register/set', template: { allow: '{registerEnabled}' } }],
                },
              },
            },
          },
        }),
        'm.json',
      ),
    );
    const p = ready(
      spread.prepare(callOf(byId('siteFunctions'), 'saveConfig'), { registerEnabled: false, chatRoomName: 'x' }),
    );
    expect(p.request.path).toBe('/config/set');
    expect(p.also?.map((s) => [s.request.path, JSON.parse(s.request.body!.text)])).toEqual([
      ['/register/set', { allow: false }],
    ]);
  });

  it('is for settings, statistics and the console’s figures only; every call of it has a path and no also, bulk or sort', () => {
    expect(problem({ resources: { users: { calls: { list: { also: [{ path: '/x' }] } } } } })).toMatch(
      /at \/resources\/users\/calls\/list\/also: one console call over several/,
    );
    expect(problem({ console: { calls: { logout: { path: '/out', also: [{ path: '/x' }] } } } })).toMatch(
      /\/console\/calls\/logout\/also/,
    );
    expect(problem({ resources: { siteFunctions: { calls: { config: { also: [{}] } } } } })).toMatch(
      /config\/also\/0: a call of `also` needs its own path/,
    );
    expect(
      problem({
        resources: { siteFunctions: { calls: { config: { also: [{ path: '/x', also: [{ path: '/y' }] }] } } } },
      }),
    ).toMatch(/config\/also\/0\/also: a call of `also` has no `also`/);
    expect(
      problem({ resources: { siteFunctions: { calls: { config: { also: [{ path: '/x', unsupported: true }] } } } } }),
    ).toMatch(/also\/0\/unsupported/);
    // A plan (each, repeat, merge) is the first call's; its `also` calls follow it once.
    expect(
      problem({ resources: { siteFunctions: { calls: { saveConfig: { also: [{ path: '/x', merge: 'config' }] } } } } }),
    ).toMatch(/saveConfig\/also\/0\/merge: a call of `also` has no merge/);
  });

  it('keeps a planned call’s also calls: a merged save reads the config, saves, then makes its also calls', async () => {
    const both = new BackendMap(
      parseBackendMap(
        JSON.stringify({
          resources: {
            siteFunctions: {
              calls: {
                config: { path: '/config/get', answer: { record: '/config' } },
                saveConfig: {
                  path: '/config/set',
                  in: 'form',
                  merge: 'config',
                  also: [{ path: '/register/set', template: { allow: '{registerEnabled}' } }],
                },
              },
            },
          },
        }),
        'm.json',
      ),
    );
    const p = both.prepare(callOf(byId('siteFunctions'), 'saveConfig'), { registerEnabled: true, chatRoomName: 'x' });
    if ('unsupported' in p) throw new Error(p.unsupported);
    expect(p.plan?.kind).toBe('merge');
    expect(p.request.path).toBe('/config/get');
    expect(p.also?.map((s) => [s.request.path, JSON.parse(s.request.body!.text)])).toEqual([
      ['/register/set', { allow: true }],
    ]);
    // Sent: the read, the save over the record read, then the also call.
    const sent: string[] = [];
    const answered = await exchange(p, {
      send: async (request) => {
        sent.push(`${request.path.split('?')[0]} ${request.body?.text ?? ''}`);
        return { status: 200, headers: {}, body: Buffer.from('') };
      },
      read: async (_answer, request) =>
        request.path === '/config/get'
          ? { code: 200, data: { config: { kept: 'yes', chatRoomName: 'old' } } }
          : { code: 200 },
    });
    expect(answered.body).toMatchObject({ code: 200 });
    expect(sent).toEqual([
      '/config/get ',
      '/config/set registerEnabled=true&chatRoomName=x&kept=yes',
      '/register/set {"allow":true}',
    ]);
  });
});

describe('a base URL per call (services)', () => {
  it('marks the calls that name a service, and leaves the others to CHAT_BACKEND_URL', () => {
    expect(ready(map.prepare(callOf(byId('users'), 'list'), { pageNum: 1 })).request.service).toBe('chat');
    expect(
      ready(map.prepare(callOf(byId('users'), 'action', 'resetPassword'), { id: 1 })).request.service,
    ).toBeUndefined();
  });

  it('refuses a service the map does not name, and a variable that is not a service’s own', () => {
    const unknown = { resources: { users: { calls: { list: { service: 'chat' } } } } };
    expect(() => parseBackendMap(JSON.stringify(unknown), 'm.json')).toThrow(
      'm.json at /resources/users/calls/list/service: no service "chat"',
    );
    for (const env of ['REDIS_URL', 'CHAT_BACKEND_URL']) {
      expect(() => parseBackendMap(JSON.stringify({ services: { chat: { env } } }), 'm.json')).toThrow(
        `m.json at /services/chat/env: ${env} is the gateway's own`,
      );
    }
    // Only a URL variable: a map cannot have the gateway read a secret of its own as an address.
    expect(() => parseBackendMap(JSON.stringify({ services: { chat: { env: 'SESSION_SECRET' } } }), 'm.json')).toThrow(
      /\/services\/chat\/env/,
    );
  });

  it('reads each service’s address from its variable at start, refusing a bad one by name, unset as CHAT_BACKEND_URL', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'map-services-'));
    const file = path.join(dir, 'map.json');
    writeFileSync(file, JSON.stringify({ services: { chat: { env: 'CHAT_API_URL' } } }));
    const env = {
      BACKEND_MAP: file,
      CHAT_BACKEND_URL: 'http://admin:10009',
      RESPONSE_AES_KEY: '0123456789abcdef',
      DATA_DIR: dir,
    };
    expect(loadConfig(env).backendMap?.services).toEqual({ chat: null });
    expect(loadConfig({ ...env, CHAT_API_URL: 'http://chat:10008/' }).backendMap?.services).toEqual({
      chat: 'http://chat:10008',
    });
    expect(() => loadConfig({ ...env, CHAT_API_URL: 'ftp://chat' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, CHAT_API_URL: 'ftp://chat' })).toThrow(/CHAT_API_URL/);
  });
});

describe('figures of the console’s own calls a backend lacks', () => {
  it('lists them in the offer under the call, as a screen’s absent fields are', () => {
    expect(map.offer().unsupported.fields['console.count']).toEqual(['onlineUsers']);
  });
});
