import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CALLS, PERMISSIONS, SAVED_VIEW_CALLS, SAVED_VIEW_LIMITS } from '../../server/contract/index.js';
import { adminFileName } from '../../server/saved-views/file-store.js';
import { SAME_ORIGIN, buildTestGateway } from './support/gateway.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../support/fake-backend.js';
import { cookieHeader, fakeLogIn, routeFakeLogin } from '../support/fake-session.js';
import { hasProgram, skipWithout } from '../support/ci.js';
import { RedisServer } from '../support/redis-server.js';
import { waitUntil } from '../support/wait.js';

/**
 * Saved list views per administrator at the gateway, through buildApp + inject against a fake
 * backend: kept in DATA_DIR by default, in a real redis-server with REDIS_URL. Two administrators
 * never see each other's views; the limits and malformed bodies answer catalogue errors.
 */

type Cookies = Record<string, string>;

/** The backend's permission call: token `tok-op` holds the users list only, every other token the users and groups lists. */
function routePermissions(backend: FakeBackend): void {
  backend.route(`GET ${CALLS.permission}`, (call, res) => {
    const held =
      call.headers['w-token'] === 'tok-op'
        ? [PERMISSIONS.userProfile]
        : [PERMISSIONS.userProfile, PERMISSIONS.groupProfile];
    sendJson(res, { code: 200, msg: 'ok', data: held.map((permission) => ({ permission })) });
  });
}

function calls(app: FastifyInstance) {
  const headers = (cookies: Cookies | null) => ({
    ...SAME_ORIGIN,
    ...(cookies ? { cookie: cookieHeader(cookies) } : {}),
  });
  return {
    list: (cookies: Cookies | null, resource = 'users') =>
      app.inject({ method: 'GET', url: SAVED_VIEW_CALLS.list(resource), headers: headers(cookies) }),
    put: (cookies: Cookies | null, body: unknown, resource = 'users') =>
      app.inject({
        method: 'PUT',
        url: SAVED_VIEW_CALLS.list(resource),
        headers: headers(cookies),
        payload: body as object,
      }),
    putRaw: (cookies: Cookies, payload: string, contentType = 'application/json') =>
      app.inject({
        method: 'PUT',
        url: SAVED_VIEW_CALLS.list('users'),
        headers: { ...headers(cookies), 'content-type': contentType },
        payload,
      }),
    remove: (cookies: Cookies | null, name: string, resource = 'users') =>
      app.inject({ method: 'DELETE', url: SAVED_VIEW_CALLS.one(resource, name), headers: headers(cookies) }),
  };
}

/** The behaviour every store must show; `fresh` builds a gateway on the same store (a restart, or another replica). */
function behaves(
  setup: () => {
    app: () => FastifyInstance;
    fresh: () => Promise<FastifyInstance>;
    alice: () => Cookies;
    bob: () => Cookies;
  },
) {
  it('keeps each administrator’s views apart, in their order, a save of the same name replacing in place', async () => {
    const { app, alice, bob } = setup();
    const c = calls(app());
    expect((await c.list(alice())).json()).toMatchObject({ code: 200, data: { list: [] } });
    expect((await c.put(alice(), { name: 'Banned', query: 'status=banned' })).statusCode).toBe(200);
    expect((await c.put(alice(), { name: ' 名前 ', query: 'keyword=%E5%BC%A0&sort=id' })).statusCode).toBe(200);
    const replaced = await c.put(alice(), { name: 'Banned', query: 'status=banned&pageSize=50' });
    expect(replaced.json().data.list).toEqual([
      { name: 'Banned', query: 'status=banned&pageSize=50' },
      { name: '名前', query: 'keyword=%E5%BC%A0&sort=id' },
    ]);
    expect(replaced.headers['cache-control']).toBe('no-store');

    // Bob sees none of Alice's, and his own of the same name is his.
    expect((await c.list(bob())).json().data.list).toEqual([]);
    await c.put(bob(), { name: 'Banned', query: 'status=normal' });
    expect((await c.list(bob())).json().data.list).toEqual([{ name: 'Banned', query: 'status=normal' }]);
    expect((await c.list(alice())).json().data.list).toHaveLength(2);
    // Another list's views are its own.
    expect((await c.list(alice(), 'groups')).json().data.list).toEqual([]);

    // Bob cannot delete Alice's view: he has none of that name left after deleting his own.
    expect((await c.remove(bob(), 'Banned')).statusCode).toBe(200);
    const again = await c.remove(bob(), 'Banned');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 404, error: 'SAVED_VIEW_NOT_FOUND' });
    expect((await c.list(alice())).json().data.list).toHaveLength(2);
    expect((await c.remove(alice(), '名前')).statusCode).toBe(200);
    expect((await c.list(alice())).json().data.list).toEqual([{ name: 'Banned', query: 'status=banned&pageSize=50' }]);
  });

  it('finds the views again from a gateway started afresh on the same store', async () => {
    const { app, fresh, alice } = setup();
    await calls(app()).put(alice(), { name: 'Kept', query: 'sort=-id' });
    const other = await fresh();
    try {
      const list = (await calls(other).list(alice())).json().data.list as { name: string }[];
      expect(list.map((v) => v.name)).toContain('Kept');
    } finally {
      await other.close();
    }
  });

  it('refuses one view past the limit of a list, and takes a replacement still', async () => {
    const { app, bob } = setup();
    const c = calls(app());
    for (let i = 0; i < SAVED_VIEW_LIMITS.maxPerResource; i++) {
      expect((await c.put(bob(), { name: `v${i}`, query: `pageSize=${i}` }, 'groups')).statusCode).toBe(200);
    }
    const full = await c.put(bob(), { name: 'one more', query: '' }, 'groups');
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({
      code: 409,
      error: 'SAVED_VIEWS_FULL',
      data: { max: SAVED_VIEW_LIMITS.maxPerResource, per: 'list' },
    });
    expect((await c.put(bob(), { name: 'v0', query: 'pageSize=100' }, 'groups')).statusCode).toBe(200);
    const list = (await c.list(bob(), 'groups')).json().data.list as { name: string; query: string }[];
    expect(list).toHaveLength(SAVED_VIEW_LIMITS.maxPerResource);
    expect(list[0]).toEqual({ name: 'v0', query: 'pageSize=100' });
  });

  it('caps the views of one administrator over every list, and takes a replacement still', async () => {
    // Bob keeps the 50 views of groups from the test above; the gateway takes 60 in all (PER_ADMIN).
    const { app, bob, alice } = setup();
    const c = calls(app());
    for (let i = 0; i < PER_ADMIN - SAVED_VIEW_LIMITS.maxPerResource; i++) {
      expect((await c.put(bob(), { name: `u${i}`, query: '' })).statusCode).toBe(200);
    }
    const full = await c.put(bob(), { name: 'one more', query: '' });
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ error: 'SAVED_VIEWS_FULL', data: { max: PER_ADMIN, per: 'administrator' } });
    expect((await c.put(bob(), { name: 'u0', query: 'sort=id' })).statusCode).toBe(200);
    // Another administrator's cap is their own.
    expect((await c.put(alice(), { name: 'hers', query: '' })).statusCode).toBe(200);
    expect((await c.remove(bob(), 'v1', 'groups')).statusCode).toBe(200);
    expect((await c.put(bob(), { name: 'one more', query: '' })).statusCode).toBe(200);
  });
}

/** SAVED_VIEWS_MAX_PER_ADMIN of the gateways below: a few more than one list's cap. */
const PER_ADMIN = SAVED_VIEW_LIMITS.maxPerResource + 10;

describe('saved views: requests every store refuses alike', () => {
  let backend: FakeBackend;
  let app: FastifyInstance;
  let alice: Cookies;

  beforeAll(async () => {
    backend = await startFakeBackend();
    routeFakeLogin(backend);
    routePermissions(backend);
    app = await buildTestGateway({ CHAT_BACKEND_URL: backend.url });
    alice = await fakeLogIn(app, { token: 'tok-a', userId: '11' });
  });
  afterAll(async () => {
    await app?.close();
    await backend?.close();
  });

  it('answers NOT_LOGGED_IN to every call without a session', async () => {
    const c = calls(app);
    for (const answer of [await c.list(null), await c.put(null, { name: 'x', query: '' }), await c.remove(null, 'x')]) {
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toMatchObject({ code: 401, error: 'NOT_LOGGED_IN' });
    }
  });

  it.each([
    ['no name', { query: 'a=1' }],
    ['a blank name', { name: '   ', query: 'a=1' }],
    ['a name past the limit', { name: 'n'.repeat(SAVED_VIEW_LIMITS.maxNameChars + 1), query: '' }],
    ['a query past the limit', { name: 'long', query: 'q'.repeat(SAVED_VIEW_LIMITS.maxQueryChars + 1) }],
    ['a query with a control character', { name: 'ctl', query: 'a=1\nb=2' }],
    ['a query starting with "?"', { name: 'q', query: '?a=1' }],
    ['a foreign member', { name: 'x', query: '', owner: '12' }],
    ['a number for a name', { name: 5, query: '' }],
    ['an array', [{ name: 'x', query: '' }]],
  ])('refuses %s with 400 BAD_REQUEST', async (_what, body) => {
    const answer = await calls(app).put(alice, body);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ code: 400, error: 'BAD_REQUEST' });
  });

  it('refuses a body that is not JSON, a body past the size limit and a bad list id', async () => {
    const c = calls(app);
    const broken = await c.putRaw(alice, '{"name": "x", ');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ error: 'BAD_REQUEST' });
    const form = await c.putRaw(alice, 'name=x&query=', 'application/x-www-form-urlencoded');
    expect(form.statusCode).toBe(415);
    expect(form.json()).toMatchObject({ error: 'UNSUPPORTED_MEDIA_TYPE' });
    const huge = await c.putRaw(
      alice,
      JSON.stringify({ name: 'x', query: '', pad: 'p'.repeat(SAVED_VIEW_LIMITS.maxBodyBytes) }),
    );
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ code: 413, error: 'BODY_TOO_LARGE' });
    const badResource = await c.list(alice, 'users:other');
    expect(badResource.statusCode).toBe(400);
    expect(badResource.json()).toMatchObject({ error: 'BAD_REQUEST' });
  });

  it('keeps views only of the lists the console has: an invented one or `__proto__` is 404, and nothing is kept', async () => {
    const c = calls(app);
    for (const resource of ['fake1', '__proto__', 'constructor']) {
      const put = await c.put(alice, { name: 'x', query: 'q'.repeat(SAVED_VIEW_LIMITS.maxQueryChars) }, resource);
      expect(put.statusCode, resource).toBe(404);
      expect(put.json()).toMatchObject({ code: 404, error: 'NOT_FOUND' });
      expect((await c.list(alice, resource)).statusCode).toBe(404);
      expect((await c.remove(alice, 'x', resource)).statusCode).toBe(404);
    }
    expect((await c.put(alice, { name: 'x', query: 'a=1' }, 'users')).json().data.list).toEqual([
      { name: 'x', query: 'a=1' },
    ]);
  });

  it('saves a view only of a list the caller may open, as the backend says', async () => {
    const operator = await fakeLogIn(app, { token: 'tok-op', userId: '21' });
    const c = calls(app);
    const refused = await c.put(operator, { name: 'mine', query: '' }, 'groups');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 403, error: 'FORBIDDEN' });
    expect((await c.list(operator, 'groups')).json().data.list).toEqual([]);
    expect((await c.put(operator, { name: 'mine', query: '' }, 'users')).statusCode).toBe(200);
  });

  it('refuses a save from another origin', async () => {
    const answer = await app.inject({
      method: 'PUT',
      url: SAVED_VIEW_CALLS.list('users'),
      headers: { origin: 'https://evil.example', cookie: cookieHeader(alice) },
      payload: { name: 'x', query: '' },
    });
    expect(answer.statusCode).toBe(403);
  });
});

describe('saved views in DATA_DIR', () => {
  let backend: FakeBackend;
  let app: FastifyInstance;
  let alice: Cookies;
  let bob: Cookies;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gw-views-'));
  const env = () => ({
    CHAT_BACKEND_URL: backend.url,
    DATA_DIR: dataDir,
    SESSION_SECRET: 'saved-views-test-secret-0123456789abcdef',
    SAVED_VIEWS_MAX_PER_ADMIN: String(PER_ADMIN),
  });

  beforeAll(async () => {
    backend = await startFakeBackend();
    routeFakeLogin(backend);
    routePermissions(backend);
    app = await buildTestGateway(env());
    alice = await fakeLogIn(app, { token: 'tok-a', userId: '11' });
    bob = await fakeLogIn(app, { token: 'tok-b', userId: '12' });
  });
  afterAll(async () => {
    await app?.close();
    await backend?.close();
  });

  behaves(() => ({ app: () => app, fresh: () => buildTestGateway(env()), alice: () => alice, bob: () => bob }));

  it('writes each administrator’s views to a file of their own, so a save rewrites that one alone', async () => {
    const folder = path.join(dataDir, 'saved-views');
    const read = (userId: string) =>
      JSON.parse(readFileSync(path.join(folder, adminFileName(userId)), 'utf8')) as {
        version: number;
        userId: string;
        lists: Record<string, unknown[]>;
      };
    expect(readdirSync(folder).sort()).toEqual([adminFileName('11'), adminFileName('12')].sort());
    expect(read('11')).toMatchObject({ version: 2, userId: '11' });
    const bobsBefore = readFileSync(path.join(folder, adminFileName('12')), 'utf8');
    await calls(app).put(alice, { name: 'another', query: 'b=2' });
    // Bob's file, with his 60 views, is not written again for Alice's save.
    expect(readFileSync(path.join(folder, adminFileName('12')), 'utf8')).toBe(bobsBefore);
    expect(read('11').lists.users).toContainEqual({ name: 'another', query: 'b=2' });
    expect(read('12')).toMatchObject({ version: 2, userId: '12' });
  });
});

const noRedis = skipWithout(hasProgram('redis-server') ? [] : ['redis-server'], 'saved views in Redis');

describe.skipIf(noRedis)('saved views in Redis', { timeout: 60_000 }, () => {
  let redis: RedisServer;
  let backend: FakeBackend;
  let app: FastifyInstance;
  let alice: Cookies;
  let bob: Cookies;
  const env = () => ({
    CHAT_BACKEND_URL: backend.url,
    REDIS_URL: redis.url,
    SESSION_SECRET: 'saved-views-test-secret-0123456789abcdef',
    SAVED_VIEWS_MAX_PER_ADMIN: String(PER_ADMIN),
  });
  const connected = async (gateway: FastifyInstance) => {
    await waitUntil(() => gateway.redis?.available === true, 'the gateway connected to Redis');
    return gateway;
  };

  beforeAll(async () => {
    redis = await RedisServer.start();
    backend = await startFakeBackend();
    routeFakeLogin(backend);
    routePermissions(backend);
    app = await connected(await buildTestGateway(env()));
    alice = await fakeLogIn(app, { token: 'tok-a', userId: '11' });
    bob = await fakeLogIn(app, { token: 'tok-b', userId: '12' });
  });
  afterAll(async () => {
    await app?.close();
    await backend?.close();
    await redis?.close();
  });

  // Another replica: its own DATA_DIR, the same Redis.
  behaves(() => ({
    app: () => app,
    fresh: async () => connected(await buildTestGateway(env())),
    alice: () => alice,
    bob: () => bob,
  }));

  it('answers 503 SAVED_VIEWS_UNAVAILABLE while Redis is away, and works again once it is back', async () => {
    await redis.stop();
    await waitUntil(() => app.redis?.available === false, 'the gateway saw Redis go');
    const away = await calls(app).list(alice);
    expect(away.statusCode).toBe(503);
    expect(away.json()).toMatchObject({ code: 503, error: 'SAVED_VIEWS_UNAVAILABLE' });
    await redis.start();
    await waitUntil(() => app.redis?.available === true, 'the gateway reconnected', { timeoutMs: 30_000 });
    expect((await calls(app).put(alice, { name: 'after', query: '' })).json().data.list).toEqual([
      { name: 'after', query: '' },
    ]);
  });
});
