import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { RESOURCES, SEGMENTS, resourceCalls, type Resource } from '../../server/contract/index.js';
import { BackendMap, type Prepared } from '../../server/backend-map/engine.js';
import { consoleCalls } from '../../server/backend-map/calls.js';
import { BackendMapError, parseBackendMap } from '../../server/backend-map/load.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { formatTime, parseTime } from '../../server/backend-map/values.js';

/** The mapping logic alone: requests out, answers back, and the map's own checks. */

const USERS = RESOURCES.find((r) => r.id === 'users')!;
const WITHDRAWALS = RESOURCES.find((r) => r.id === 'withdrawalReview')!;
const DAILY = RESOURCES.find((r) => r.id === 'dailyStatistics')!;

const MAP: BackendMapFile = {
  timeZone: '+08:00',
  answer: { code: '/code', message: '/message', data: '/data', success: [0, '0000'] },
  resources: {
    users: {
      fields: {
        registerTime: { name: 'createTime', time: 'yyyy-MM-dd HH:mm:ss' },
        lastLoginTime: { time: 'epoch-seconds' },
        balance: { money: 'yuan' },
        status: { values: { normal: 0, banned: 1 } },
        privileged: { name: 'vip', values: { true: 'Y', false: 'N' } },
        avatar: { absent: true },
      },
      calls: {
        list: {
          path: '/manage/user/page',
          params: { pageNum: 'current', pageSize: 'size', keyword: 'search' },
          sort: { field: 'orderBy', order: 'order' },
          dates: { from: '{name}Begin', to: '{name}End', format: 'yyyy-MM-dd HH:mm:ss' },
          extra: { deleted: 0 },
          answer: { list: '/data/records', total: '/data/total' },
        },
        detail: { path: '/manage/user/{id}', answer: { record: '/user' } },
        update: { method: 'PUT', path: '/manage/user/{userId}', params: { id: 'userId' }, in: 'form' },
        create: { unsupported: true },
      },
      actions: {
        ban: { path: '/manage/user/{id}/ban', params: { reason: 'remark' } },
        resetPassword: { unsupported: true },
      },
    },
    withdrawalReview: {
      calls: { list: { answer: { list: '/data/rows', totalHeader: 'X-Total-Count', totals: '/data/sum' } } },
      fields: { amount: { money: 'yuan' } },
    },
    dailyStatistics: {
      calls: { list: { params: { startDate: 'begin', endDate: 'end' }, dates: { format: 'epoch-millis' } } },
      fields: { rechargeAmount: { money: 'yuan' } },
    },
    googleVerify: { unsupported: true },
  },
};

const map = new BackendMap(MAP);
const callOf = (resource: Resource, kind: string, action?: string) =>
  consoleCalls(resource).find((c) => c.kind === kind && (action === undefined || c.action === action))!;
const ready = (p: Prepared) => {
  if ('unsupported' in p) throw new Error(`unsupported ${p.unsupported}`);
  return p;
};

describe('backend map: requests', () => {
  it('renames paging, encodes the sort as two parameters, maps filters and date bounds, adds fixed parameters', () => {
    const p = ready(
      map.prepare(callOf(USERS, 'list'), {
        pageNum: '2',
        pageSize: '20',
        keyword: 'ann',
        sort: '-registerTime',
        status: 'banned',
        privileged: 'true',
        registerTimeFrom: '2024-06-01',
        registerTimeTo: '2024-06-30',
      }),
    );
    expect(p.request.method).toBe('GET');
    const url = new URL(p.request.path, 'http://backend');
    expect(url.pathname).toBe('/manage/user/page');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      current: '2',
      size: '20',
      search: 'ann',
      orderBy: 'createTime',
      order: 'desc',
      status: '1',
      vip: 'Y',
      createTimeBegin: '2024-06-01 00:00:00',
      createTimeEnd: '2024-06-30 23:59:59',
      deleted: '0',
    });
  });

  it('puts an id into the path, sends a form body with renamed fields in the backend units, drops absent fields', () => {
    const p = ready(
      map.prepare(callOf(USERS, 'save'), {
        id: 7,
        nickname: 'Ann',
        balance: 1999,
        avatar: '/plate/a.png',
        privileged: false,
      }),
    );
    expect(p.request).toEqual({
      method: 'PUT',
      path: '/manage/user/7',
      body: { contentType: 'application/x-www-form-urlencoded', text: 'nickname=Ann&balance=19.99&vip=N' },
    });
    const ban = ready(map.prepare(callOf(USERS, 'action', 'ban'), { id: 7, reason: 'spam' }));
    expect(ban.request).toEqual({
      method: 'POST',
      path: '/manage/user/7/ban',
      body: { contentType: 'application/json', text: '{"remark":"spam"}' },
    });
  });

  it('formats a statistics range in the declared format, whole days in the backend zone', () => {
    const p = ready(map.prepare(callOf(DAILY, 'list'), { startDate: '2024-06-01', endDate: '2024-06-07' }));
    const url = new URL(p.request.path, 'http://backend');
    expect(Number(url.searchParams.get('begin'))).toBe(Date.parse('2024-06-01T00:00:00+08:00'));
    expect(Number(url.searchParams.get('end'))).toBe(Date.parse('2024-06-07T23:59:59+08:00'));
  });

  it('reports unsupported resources, calls and actions, and tells the UI', () => {
    expect(map.prepare(callOf(USERS, 'save'), { nickname: 'new' })).toEqual({ unsupported: 'users.create' });
    expect(map.prepare(callOf(USERS, 'action', 'resetPassword'), { id: 1 })).toEqual({
      unsupported: 'users.resetPassword',
    });
    const google = RESOURCES.find((r) => r.id === 'googleVerify')!;
    expect(map.prepare(callOf(google, 'list'), {})).toEqual({ unsupported: 'googleVerify.list' });
    expect(map.offer().unsupported).toEqual({
      resources: ['googleVerify'],
      calls: { users: ['create'] },
      actions: { users: ['resetPassword'] },
      fields: { users: ['avatar'] },
      filters: {},
      console: [],
    });
  });

  it('names the options of a select input the map can send, where its values name fewer than the contract', () => {
    expect(map.offer().inputOptions).toBeUndefined();
    const narrow = new BackendMap({
      resources: { massMessages: { fields: { segment: { values: { online: 'here', all: 'everyone' } } } } },
    });
    // In the contract's order, whatever the map's.
    expect(narrow.offer().inputOptions).toEqual({ massMessages: { segment: ['all', 'online'] } });
    const whole = Object.fromEntries(SEGMENTS.map((s) => [s, s.toUpperCase()]));
    const full = new BackendMap({ resources: { massMessages: { fields: { segment: { values: whole } } } } });
    expect(full.offer().inputOptions).toBeUndefined();
  });

  it('refuses a call that lacks what the backend path needs', () => {
    expect(() => map.prepare(callOf(USERS, 'detail'), {})).toThrow(/needs id/);
  });

  it('leaves an unnamed call as the console makes it', () => {
    const p = ready(map.prepare(callOf(USERS, 'delete'), { ids: [1, 2] }));
    expect(p.request).toEqual({
      method: 'POST',
      path: resourceCalls(USERS).remove,
      body: { contentType: 'application/json', text: '{"ids":[1,2]}' },
    });
  });
});

describe('backend map: answers', () => {
  const list = ready(map.prepare(callOf(USERS, 'list'), {}));

  it('reads the list and total where the map says and maps every row back', () => {
    const answer = map.answer(
      list,
      200,
      {},
      {
        code: 0,
        message: 'success',
        data: {
          records: [
            {
              id: 1,
              createTime: '2024-06-01 08:00:00',
              lastLoginTime: 1717200000,
              balance: '12.30',
              status: 1,
              vip: 'Y',
              extra: 'kept',
            },
            { id: 2, createTime: null, balance: 0.1, status: 9, vip: 'N' },
          ],
          total: '42',
        },
      },
    );
    expect(answer).toEqual({
      status: 200,
      body: {
        code: 200,
        msg: 'success',
        data: {
          total: 42,
          list: [
            {
              id: 1,
              registerTime: '2024-06-01T00:00:00.000Z',
              lastLoginTime: '2024-06-01T00:00:00.000Z',
              balance: 1230,
              status: 'banned',
              privileged: true,
              extra: 'kept',
            },
            // Values the map does not know pass as they came.
            { id: 2, registerTime: null, balance: 10, status: 9, privileged: false },
          ],
        },
      },
    });
  });

  it('reads a total from a header and maps the totals', () => {
    const p = ready(map.prepare(callOf(WITHDRAWALS, 'list'), {}));
    const answer = map.answer(
      p,
      200,
      { 'x-total-count': '3' },
      { code: 0, data: { rows: [{ id: 1, amount: 5.5 }], sum: { amount: '105.25', fee: 100 } } },
    );
    expect(answer.body.data).toEqual({ list: [{ id: 1, amount: 550 }], total: 3, totals: { amount: 10525, fee: 100 } });
  });

  it('maps a nested record of a detail in place', () => {
    const p = ready(map.prepare(callOf(USERS, 'detail'), { id: 1 }));
    const answer = map.answer(
      p,
      200,
      {},
      { code: '0000', data: { user: { id: 1, balance: 1, status: 0 }, wallet: { balance: 100 } } },
    );
    expect(answer.body).toEqual({
      code: 200,
      msg: 'ok',
      data: { user: { id: 1, balance: 100, status: 'normal' }, wallet: { balance: 100 } },
    });
  });

  it('turns a refusal into the console envelope and a missing path into BACKEND_NO_SUCH_CALL', () => {
    expect(map.answer(list, 200, {}, { code: 401, message: 'Login expired' })).toEqual({
      status: 200,
      body: { code: 401, msg: 'Login expired' },
    });
    expect(map.answer(list, 200, {}, { code: 'A0400', message: 'bad' })).toEqual({
      status: 200,
      body: { code: 500, msg: 'bad' },
    });
    expect(() => map.answer(list, 200, {}, { code: 404, message: 'No such interface: GET /manage/user/page' })).toThrow(
      expect.objectContaining({
        errorName: 'BACKEND_NO_SUCH_CALL',
        data: { method: 'GET', path: '/manage/user/page' },
      }),
    );
    expect(() => map.answer(list, 404, {}, { status: 404, error: 'Not Found' })).toThrow(
      expect.objectContaining({ errorName: 'BACKEND_NO_SUCH_CALL' }),
    );
  });

  it('says where the answer does not fit', () => {
    expect(() => map.answer(list, 200, {}, { code: 0, data: { list: [] } })).toThrow(
      /list at \/data\/records is not an array/,
    );
    expect(() => map.answer(list, 200, {}, { code: 0, data: { records: [], total: 'many' } })).toThrow(
      /total at \/data\/total is not a number/,
    );
  });

  it('maps every row of a 100-row list answer (its cost is measured by npm run bench -- --only map)', () => {
    const records = Array.from({ length: 100 }, (_, i) => ({
      id: i,
      account: `u${i}`,
      nickName: 'x',
      createTime: '2024-06-01 08:00:00',
      lastLoginTime: 1717200000,
      balance: '12.30',
      status: i % 2,
      vip: 'N',
      channel: 'web',
      phone: '1',
      lastLoginIp: '1.2.3.4',
    }));
    const json = { code: 0, data: { records, total: 100 } };
    // Wall-clock limits belong to the bench, where the machine and its load are written down.
    const { body } = map.answer(list, 200, {}, json) as unknown as {
      body: { data: { list: Record<string, unknown>[]; total: number } };
    };
    expect(body.data.total).toBe(100);
    expect(body.data.list.map((r) => r.account)).toEqual(records.map((r) => r.account));
    expect(body.data.list[1]).toMatchObject({ id: 1, balance: 1230, status: 'banned' });
  });
});

describe('backend map: values', () => {
  it('writes and reads times in the backend zone and formats', () => {
    const ms = Date.parse('2024-06-01T00:00:00Z');
    expect(formatTime(ms, 'yyyy-MM-dd HH:mm:ss', 480)).toBe('2024-06-01 08:00:00');
    expect(formatTime(ms, 'yyyy-MM-dd', -300)).toBe('2024-05-31');
    expect(formatTime(ms, 'epoch-seconds', 0)).toBe(1717200000);
    expect(parseTime('2024-06-01 08:00:00', 'yyyy-MM-dd HH:mm:ss', 480)).toBe(ms);
    expect(parseTime('1717200000000', 'epoch-millis', 0)).toBe(ms);
    expect(parseTime('2024-06-01T00:00:00Z', 'yyyy-MM-dd HH:mm:ss', 480)).toBe(ms);
    expect(parseTime('yesterday', 'iso', 0)).toBeNull();
  });
});

describe('backend map: bad maps', () => {
  it('stop the configuration with one line naming BACKEND_MAP, the file, the place and the fault', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'backend-map-'));
    const file = path.join(dir, 'map.json');
    writeFileSync(file, JSON.stringify({ resources: { users: { calls: { list: { method: 'FETCH' } } } } }));
    const base = { CHAT_BACKEND_URL: 'http://127.0.0.1:9' };
    expect(() => loadConfig({ ...base, BACKEND_MAP: file })).toThrow(
      new ConfigError(
        'BACKEND_MAP',
        `${file} at /resources/users/calls/list/method: must be one of "GET", "POST", "PUT", "PATCH", "DELETE"`,
      ),
    );
    expect(() => loadConfig({ ...base, BACKEND_MAP: path.join(dir, 'none.json') })).toThrow(
      /BACKEND_MAP: .*none\.json at \/: no such file/,
    );
    expect(loadConfig(base).backendMap).toBeNull();
  });

  const bad = (value: unknown) => {
    try {
      parseBackendMap(typeof value === 'string' ? value : JSON.stringify(value), 'map.json');
    } catch (error) {
      expect(error).toBeInstanceOf(BackendMapError);
      return (error as Error).message;
    }
    throw new Error('the map was accepted');
  };

  it('names the file, the JSON path and what is wrong', () => {
    expect(bad('{"resources": ')).toMatch(/^map\.json at \/: not JSON/);
    expect(bad({ resources: { users: { fields: { balance: { money: 'dollars' } } } } })).toBe(
      'map.json at /resources/users/fields/balance/money: must be one of "yuan", "cent"',
    );
    expect(bad({ resources: { users: { calls: { list: { answer: { list: 'data.records' } } } } } })).toMatch(
      /^map\.json at \/resources\/users\/calls\/list\/answer\/list: must match pattern/,
    );
    expect(bad({ resources: { users: { calls: { lsit: {} } } } })).toBe(
      'map.json at /resources/users/calls: unknown member "lsit"',
    );
    expect(bad({ resources: { usres: {} } })).toMatch(/^map\.json at \/resources\/usres: no resource "usres"/);
    expect(bad({ resources: { users: { fields: { createTime: { name: 'x' } } } } })).toMatch(
      /^map\.json at \/resources\/users\/fields\/createTime: users has no field/,
    );
    expect(bad({ resources: { users: { actions: { explode: {} } } } })).toMatch(/users has no action "explode"/);
    expect(bad({ resources: { siteFunctions: { calls: { list: {} } } } })).toMatch(
      /a settings screen makes no "list" call/,
    );
    expect(bad({ timeZone: 'Asia/Shanghai' })).toMatch(/^map\.json at \/timeZone: must match pattern/);
  });

  it('accepts an empty map', () => {
    expect(parseBackendMap('{}', 'map.json')).toEqual({});
  });
});
