import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ALL_PERMISSIONS, CALLS, PERMISSIONS, RESOURCES, resourceCalls } from '../../server/contract/index.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { SAME_ORIGIN, buildTestGateway } from './support/gateway.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../support/fake-backend.js';

/**
 * The map's `auth` and `permissions` at work in the gateway, against the sandbox's real OpenIM
 * and Shiku dialects: the gateway sends the backend's own login (md5 of the form's password), keeps
 * its token in the sealed cookie, carries it (with operationID, or Shiku's signature) on the
 * calls it makes, and answers the UI's permission call from the map's table.
 */

const usersList = resourceCalls(RESOURCES.find((r) => r.id === 'users')!).list;
const OPENIM_LIMITED = ALL_PERMISSIONS.filter((p) => p !== PERMISSIONS.adminUser);

const OPENIM_MAP: BackendMapFile = {
  // The users' search is the chat API's, a service of its own beside the admin API.
  services: { chat: { env: 'OPENIM_CHAT_API_URL' } },
  answer: { code: '/errCode', message: '/errMsg', data: '/data', success: [0] },
  refusals: { '1501': 401, '1502': 401, '1503': 401, '1505': 401, '1507': 401, '20101': 401 },
  auth: {
    login: {
      path: '/account/login',
      password: 'md5',
      extra: { version: '1' },
      answer: { token: '/data/adminToken', userId: '/data/adminUserID', keep: { level: '/data/level' } },
    },
    token: { headers: ['token'] },
    generated: [{ value: 'uuid', header: 'operationID' }],
  },
  permissions: { from: 'level', table: { '100': 'all', '80': OPENIM_LIMITED } },
  resources: {
    users: {
      calls: {
        list: {
          service: 'chat',
          method: 'POST',
          path: '/user/search/full',
          template: {
            pagination: { pageNumber: '{pageNum}', showNumber: '{pageSize}' },
            keyword: '{keyword}',
            genders: 0,
            normal: 0,
          },
          answer: { list: '/data/users', total: '/data/total' },
        },
      },
    },
  },
};

const SHIKU_MAP: BackendMapFile = {
  answer: { code: '/resultCode', message: '/resultMsg', data: '/data', success: [1] },
  refusals: { '0': 400, '1030101': 401, '1030102': 401 },
  auth: {
    login: {
      path: '/console/login',
      in: 'form',
      fields: { code: 'googlecode' },
      password: 'md5',
      // Shiku's googlecode is a required int: the form's empty code goes as 0 (AdminController 641).
      whenEmpty: { code: 0 },
      answer: {
        token: '/data/access_Token',
        userId: '/data/account',
        keep: { role: '/data/role', apiKey: '/data/apiKey' },
      },
    },
    signer: { name: 'shiku', options: { apiKey: 'mihuanim' } },
  },
  permissions: {
    from: 'role',
    table: { '6': 'all', '5': [PERMISSIONS.userProfile, PERMISSIONS.groupProfile, PERMISSIONS.sensitiveWord] },
    otherwise: [],
  },
  resources: {
    users: {
      calls: {
        list: {
          path: '/console/userList',
          params: { pageNum: 'page', pageSize: 'limit' },
          answer: { list: '/data', total: '/count' },
        },
      },
    },
  },
};

function writeMap(map: BackendMapFile): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'gw-auth-')), 'map.json');
  writeFileSync(file, JSON.stringify(map));
  return file;
}

async function logIn(app: FastifyInstance, account: string, password: string) {
  const res = await app.inject({
    method: 'POST',
    url: CALLS.login,
    headers: SAME_ORIGIN,
    payload: { account, password },
  });
  return { res, cookies: Object.fromEntries(res.cookies.map((c) => [c.name, c.value])) };
}

describe.each([
  {
    dialect: 'openim' as const,
    map: OPENIM_MAP,
    userId: 'imAdmin',
    limited: { account: 'operator', password: 'operator123', held: OPENIM_LIMITED },
  },
  {
    dialect: 'shiku' as const,
    map: SHIKU_MAP,
    userId: null,
    limited: {
      account: 'operator',
      password: 'operator123',
      held: [PERMISSIONS.userProfile, PERMISSIONS.groupProfile, PERMISSIONS.sensitiveWord],
    },
  },
])('a backend map with auth, against the $dialect dialect', ({ dialect, map, userId, limited }) => {
  let sandbox: StartedSandbox;
  let app: FastifyInstance;

  beforeAll(async () => {
    sandbox = await startSandbox({ dialect, port: 0, seed: 11, withdrawalTickMs: 0 });
    const services: Record<string, string> = sandbox.services.chat
      ? { OPENIM_CHAT_API_URL: sandbox.services.chat }
      : {};
    app = await buildTestGateway({
      CHAT_BACKEND_URL: sandbox.url,
      UPSTREAM_TIMEOUT_MS: '5000',
      BACKEND_MAP: writeMap(map),
      ...services,
    });
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
  });

  it('logs in with the backend’s own call, answers the contract’s shape and keeps the token out of the browser', async () => {
    const { res, cookies } = await logIn(app, 'admin', 'admin123');
    expect(res.statusCode).toBe(200);
    const body = res.json() as { code: number; data: { userId: string } };
    expect(body.code).toBe(200);
    if (userId) expect(body.data.userId).toBe(userId);
    expect(Object.keys(body.data)).toEqual(['userId']);
    expect(cookies.token).toMatch(/^v1\./);
    const session = await app.inject({ method: 'GET', url: '/api/session', cookies });
    expect(session.json()).toMatchObject({ loggedIn: true, userId: body.data.userId });
  });

  it('makes an authenticated call the backend accepts', async () => {
    const { cookies } = await logIn(app, 'admin', 'admin123');
    const res = await app.inject({ method: 'GET', url: `${usersList}?pageNum=1&pageSize=5`, cookies });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { code: number; data: { list: unknown[]; total: number } };
    expect(body.code, res.body).toBe(200);
    expect(body.data.list.length).toBeGreaterThan(0);
    expect(body.data.total).toBeGreaterThan(0);
  });

  it('passes a refused login on as refused, with no session', async () => {
    const { res, cookies } = await logIn(app, 'admin', 'wrong-password');
    expect(res.statusCode).toBe(200);
    const body = res.json() as { code: number; msg: string };
    expect(body.code).not.toBe(200);
    expect(body.msg).not.toBe('');
    expect(cookies.token).toBeUndefined();
  });

  it('answers the UI’s permission call from the map’s table, by the level or role the login kept', async () => {
    const admin = await logIn(app, 'admin', 'admin123');
    const all = await app.inject({ method: 'GET', url: CALLS.permission, cookies: admin.cookies });
    expect(all.statusCode).toBe(200);
    expect(all.headers['cache-control']).toBe('no-store');
    expect(all.json()).toEqual({ code: 200, msg: 'ok', data: ALL_PERMISSIONS.map((permission) => ({ permission })) });

    const operator = await logIn(app, limited.account, limited.password);
    expect(operator.res.json()).toMatchObject({ code: 200 });
    const some = await app.inject({ method: 'GET', url: CALLS.permission, cookies: operator.cookies });
    expect((some.json() as { data: { permission: string }[] }).data.map((e) => e.permission)).toEqual(limited.held);

    const none = await app.inject({ method: 'GET', url: CALLS.permission });
    expect(none.statusCode).toBe(401);
  });
});

describe('the proxy and the gateway’s own calls with a map’s auth', () => {
  let backend: FakeBackend;
  let app: FastifyInstance;

  const MAP: BackendMapFile = {
    answer: { code: '/code', message: '/message', data: '/data', success: [0] },
    auth: {
      login: {
        path: '/auth/sign-in',
        fields: { account: 'username', password: 'pwd', code: 'otp' },
        password: 'sha256',
        answer: { token: '/data/jwt', userId: '/data/uid', keep: { perms: '/data/scope' } },
      },
      token: { headers: ['authorization'], prefix: 'Bearer ', cookie: 'SESSION' },
      userId: { query: 'uid' },
      generated: [
        { value: 'uuid', header: 'x-trace' },
        { value: 'epoch-millis', query: 'ts' },
      ],
    },
    permissions: { call: { path: '/auth/perms' }, list: '/data/items' },
  };

  beforeAll(async () => {
    backend = await startFakeBackend();
    backend.route('POST /auth/sign-in', (call, res) => {
      const sent = JSON.parse(call.body) as Record<string, string>;
      if (sent.pwd !== '240be518fabd2724ddb6f04eeb1da5967448d7e831c08c8fa822809f74c720a9')
        return sendJson(res, { code: 4001, message: 'bad password' });
      sendJson(res, { code: 0, data: { jwt: 'jwt-1', uid: 42, scope: 'x' } });
    });
    backend.route('GET /auth/perms', (_call, res) =>
      sendJson(res, { code: 0, data: { items: [PERMISSIONS.cashWithdrawalCheck, { permission: PERMISSIONS.push }] } }),
    );
    backend.route('GET /manage/anything', (call, res) =>
      sendJson(res, { code: 200, msg: 'ok', data: { url: call.url } }),
    );
    app = await buildTestGateway({
      CHAT_BACKEND_URL: backend.url,
      UPSTREAM_TIMEOUT_MS: '2000',
      BACKEND_MAP: writeMap(MAP),
      LOGIN_MAX_FAILURES: '3',
    });
  });

  afterAll(async () => {
    await app?.close();
    await backend?.close();
  });

  it('sends the login as the map says (names, sha256, the code) and refuses what the backend refuses', async () => {
    const refused = await app.inject({
      method: 'POST',
      url: CALLS.login,
      headers: SAME_ORIGIN,
      payload: { account: 'a', password: 'nope', code: '123' },
    });
    expect(refused.json()).toEqual({ code: 4001, msg: 'bad password' });
    const sent = JSON.parse(backend.calls.at(-1)!.body) as Record<string, string>;
    expect(sent).toEqual({ username: 'a', pwd: expect.stringMatching(/^[0-9a-f]{64}$/), otp: '123' });
    expect(backend.calls.at(-1)!.headers['x-trace']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('carries the token, user id and fresh generated values on proxied calls, over the browser’s own names', async () => {
    const { cookies } = await logIn(app, 'a', 'admin123');
    expect(cookies.token).toBeDefined();
    const first = await app.inject({ method: 'GET', url: '/manage/anything?q=a%20b&uid=forged&ts=1', cookies });
    expect(first.statusCode, first.body).toBe(200);
    const second = await app.inject({ method: 'GET', url: '/manage/anything?q=c', cookies });
    const [one, two] = backend.calls.filter((c) => c.url.startsWith('/manage/anything')).slice(-2);
    expect(one!.headers.authorization).toBe('Bearer jwt-1');
    expect(one!.headers.cookie).toBe('SESSION=jwt-1');
    expect(one!.headers['w-token']).toBeUndefined();
    const query = new URLSearchParams(one!.url.split('?')[1]);
    expect(query.getAll('uid')).toEqual(['42']);
    expect(query.getAll('ts')).toHaveLength(1);
    expect(query.get('q')).toBe('a b');
    expect(one!.url).toContain('q=a%20b');
    expect(one!.headers['x-trace']).not.toBe(two!.headers['x-trace']);
    expect(second.statusCode).toBe(200);
  });

  it('reads the permissions from the map’s call, for the UI and the gateway alike', async () => {
    const { cookies } = await logIn(app, 'a', 'admin123');
    const res = await app.inject({ method: 'GET', url: CALLS.permission, cookies });
    expect(res.json()).toEqual({
      code: 200,
      msg: 'ok',
      data: [{ permission: PERMISSIONS.cashWithdrawalCheck }, { permission: PERMISSIONS.push }],
    });
    const asked = backend.calls.filter((c) => c.url.startsWith('/auth/perms')).at(-1)!;
    expect(asked.headers.authorization).toBe('Bearer jwt-1');
  });

  it('counts the backend’s refusals against the login throttle, as for the contract’s login', async () => {
    const attempt = () =>
      app.inject({
        method: 'POST',
        url: CALLS.login,
        headers: SAME_ORIGIN,
        payload: { account: 'throttled', password: 'nope' },
      });
    for (let i = 0; i < 3; i += 1) expect((await attempt()).json()).toMatchObject({ code: 4001 });
    const before = backend.calls.length;
    const throttled = await attempt();
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json()).toMatchObject({ error: 'RATE_LIMITED' });
    expect(backend.calls.length).toBe(before);
  });
});
