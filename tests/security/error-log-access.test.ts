import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALLS,
  GATEWAY_PATHS,
  PERMISSIONS,
  WITHDRAWAL_REVIEW_PERMISSION,
  type ErrorLogEntry,
} from '../../server/contract/index.js';
import { loadConfig } from '../../server/config.js';
import { sendJson, type FakeBackend } from '../support/fake-backend.js';
import { fakeLogInOver, logInOver } from '../support/fake-session.js';
import { RedisServer } from '../support/redis-server.js';
import { waitUntil } from '../support/wait.js';
import { startGateway, startRecordingBackend, useSandboxGateway } from './support/rig.js';

/**
 * Who reads the UI error log. Any logged-in account (the sandbox's limited `operator` too) read
 * and cleared every administrator's entries. Now each reads its own user's entries; holders of
 * ERROR_LOG_ADMIN_PERMISSION (as the backend's permission call says) read, and alone clear,
 * everyone's, the anonymous ones (posted before a login) included. And an anonymous flood (1,500
 * posts from 50 addresses) evicted a logged-in session's entry: anonymous entries now have a
 * small lane of their own, in the files and in Redis alike.
 */

/** The backend session of the administrator who holds the error-log permission. */
const ROOT = { token: 'tok-root', userId: '1' };
const ALICE = { token: 'tok-alice', userId: '7' };
const BOB = { token: 'tok-bob', userId: '8' };

interface Page {
  total: number;
  list: ErrorLogEntry[];
  scope?: 'own' | 'all';
}

/** The permission call answers ERROR_LOG_ADMIN_PERMISSION's default for ROOT only. */
async function startBackend(): Promise<FakeBackend> {
  const backend = await startRecordingBackend();
  backend.route(`GET ${CALLS.permission}`, (call, res) => {
    const held = [{ permission: WITHDRAWAL_REVIEW_PERMISSION }];
    if (call.headers['w-token'] === ROOT.token) held.push({ permission: PERMISSIONS.adminUser });
    sendJson(res, { code: 200, msg: 'ok', data: held });
  });
  return backend;
}

class Console {
  constructor(
    readonly app: FastifyInstance,
    readonly url: string,
  ) {}

  /** Posts an entry, with a session or from `address` without one; resolves with the status. */
  async post(message: string, from: { cookie?: string; address?: string } = {}): Promise<number> {
    const answer = await this.app.inject({
      method: 'POST',
      url: GATEWAY_PATHS.errorLog,
      remoteAddress: from.address ?? '127.0.0.1',
      headers: {
        origin: 'http://localhost',
        host: 'localhost',
        'content-type': 'application/json',
        ...(from.cookie ? { cookie: from.cookie } : {}),
      },
      payload: JSON.stringify({ message, url: '/flood', stack: 's'.repeat(message.startsWith('flood') ? 6_000 : 10) }),
    });
    return answer.statusCode;
  }

  async list(cookie: string, query = 'pageNum=1&pageSize=100'): Promise<Page> {
    const answer = await fetch(`${this.url}${GATEWAY_PATHS.errorLog}?${query}`, { headers: { cookie } });
    expect(answer.status).toBe(200);
    return ((await answer.json()) as { data: Page }).data;
  }

  async messages(cookie: string): Promise<string[]> {
    return (await this.list(cookie)).list.map((entry) => entry.message);
  }

  async clear(cookie: string): Promise<void> {
    const answer = await fetch(`${this.url}${GATEWAY_PATHS.errorLog}`, {
      method: 'DELETE',
      headers: { cookie, origin: this.url },
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ code: 200, msg: 'ok' });
  }

  /** A clear the caller has no right to: refused, and nothing is removed. */
  async clearRefused(cookie: string): Promise<void> {
    const answer = await fetch(`${this.url}${GATEWAY_PATHS.errorLog}`, {
      method: 'DELETE',
      headers: { cookie, origin: this.url },
    });
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({ code: 403, error: 'FORBIDDEN' });
  }
}

/** Three administrators, one holding the permission, and an entry written before any login. */
async function checkAccess(gateway: Console): Promise<void> {
  const root = await fakeLogInOver(gateway.url, ROOT);
  const alice = await fakeLogInOver(gateway.url, ALICE);
  const bob = await fakeLogInOver(gateway.url, BOB);
  expect(await gateway.post('before login')).toBe(200);
  expect(await gateway.post('alice 1', { cookie: alice })).toBe(200);
  expect(await gateway.post('bob 1', { cookie: bob })).toBe(200);
  expect(await gateway.post('alice 2', { cookie: alice })).toBe(200);
  expect(await gateway.post('root 1', { cookie: root })).toBe(200);

  // Each reads its own user's entries only, in the usual shape; filters and paging still apply.
  expect(await gateway.list(alice)).toMatchObject({
    scope: 'own',
    total: 2,
    list: [
      { message: 'alice 2', userId: '7' },
      { message: 'alice 1', userId: '7' },
    ],
  });
  expect(await gateway.messages(bob)).toEqual(['bob 1']);
  expect((await gateway.list(alice, 'pageNum=2&pageSize=1')).list.map((e) => e.message)).toEqual(['alice 1']);
  expect((await gateway.list(bob, 'keyword=alice')).total).toBe(0);
  // The holder reads everyone's, the anonymous one included, newest first across both lanes.
  expect(await gateway.messages(root)).toEqual(['root 1', 'alice 2', 'bob 1', 'alice 1', 'before login']);
  expect((await gateway.list(root, 'pageNum=2&pageSize=2')).list.map((e) => e.message)).toEqual(['bob 1', 'alice 1']);

  expect((await gateway.list(root)).scope).toBe('all');

  // Clearing is the holder's alone: Alice may not wipe even her own entries, which stay for the holder.
  await gateway.clearRefused(alice);
  expect(await gateway.messages(alice)).toEqual(['alice 2', 'alice 1']);
  expect(await gateway.messages(root)).toEqual(['root 1', 'alice 2', 'bob 1', 'alice 1', 'before login']);
  await gateway.clear(root);
  expect(await gateway.list(root)).toEqual({ total: 0, list: [], scope: 'all' });
  expect(await gateway.messages(bob)).toEqual([]);
  expect(await gateway.messages(alice)).toEqual([]);
}

/**
 * A flood of anonymous posts, each from its own address (so the per-address rate limit does not
 * stop it), far past the anonymous share: the logged-in entries all stay, and the newest
 * anonymous ones are still there for the holder to read.
 */
async function checkFlood(gateway: Console, posts: number): Promise<void> {
  const root = await fakeLogInOver(gateway.url, ROOT);
  const alice = await fakeLogInOver(gateway.url, ALICE);
  expect(await gateway.post('alice before the flood', { cookie: alice })).toBe(200);
  for (let i = 0; i < posts; i++) {
    expect(await gateway.post(`flood ${i}`, { address: `10.0.${i >> 8}.${i & 255}` })).toBe(200);
  }
  expect(await gateway.messages(alice)).toEqual(['alice before the flood']);
  const all = await gateway.messages(root);
  expect(all).toContain('alice before the flood');
  expect(all[0]).toBe(`flood ${posts - 1}`);
}

describe('error log access and the anonymous share', () => {
  let backend: FakeBackend;
  beforeAll(async () => {
    backend = await startBackend();
  });
  afterAll(async () => {
    await backend.close();
  });

  it('has a configurable permission, the administrators page by default', () => {
    expect(loadConfig({}).errorLogAdminPermission).toBe('/manage/management/adminUser');
    expect(loadConfig({ ERROR_LOG_ADMIN_PERMISSION: '/manage/system/errorLog' }).errorLogAdminPermission).toBe(
      '/manage/system/errorLog',
    );
    expect(() => loadConfig({ ERROR_LOG_ADMIN_PERMISSION: 'two words' })).toThrow(/ERROR_LOG_ADMIN_PERMISSION/);
  });

  describe('in the local files', () => {
    let gateway: Console;
    let close: () => Promise<void>;
    beforeAll(async () => {
      // Small files, so that a flood fills the anonymous lane many times over.
      const started = await startGateway(backend.url, {}, { errorLogMaxFileBytes: 64 * 1024 });
      gateway = new Console(started.app, started.url);
      close = () => started.app.close();
    });
    afterAll(async () => {
      await close();
    });

    it('lets each administrator read and clear their own entries, and the holder everyone’s', async () => {
      await checkAccess(gateway);
    });

    it('keeps the entries of logged-in sessions through an anonymous flood', async () => {
      await checkFlood(gateway, 120);
    });

    it('answers a session that lacks the permission with its own entries only, and with a custom permission name', async () => {
      const custom = await startGateway(backend.url, { ERROR_LOG_ADMIN_PERMISSION: '/manage/system/errorLog' });
      try {
        const other = new Console(custom.app, custom.url);
        const root = await fakeLogInOver(custom.url, ROOT);
        expect(await other.post('anonymous')).toBe(200);
        expect(await other.post('root own', { cookie: root })).toBe(200);
        // ROOT holds the administrators page, not the permission this gateway names.
        expect(await other.messages(root)).toEqual(['root own']);
      } finally {
        await custom.app.close();
      }
    });
  });

  describe('shared through Redis', () => {
    let redis: RedisServer;
    let gateway: Console;
    let close: () => Promise<void>;
    beforeAll(async () => {
      redis = await RedisServer.start();
      const started = await startGateway(backend.url, { REDIS_URL: redis.url, ERROR_LOG_MAX_ENTRIES: '100' });
      await waitUntil(() => started.app.redis!.available, 'the gateway to reach Redis');
      gateway = new Console(started.app, started.url);
      close = () => started.app.close();
    });
    afterAll(async () => {
      await close();
      await redis.close();
    });

    it('lets each administrator read and clear their own entries, and the holder everyone’s', async () => {
      await checkAccess(gateway);
    });

    it('keeps the entries of logged-in sessions through an anonymous flood, the anonymous stream within its tenth', async () => {
      await checkFlood(gateway, 150);
      const share = gateway.app.redis!;
      expect(await share.command.xlen(share.key('error-log:anonymous'))).toBe(10);
      expect(gateway.app.errorLogTarget()).toBe('redis');
    });

    it('keeps the newest ERROR_LOG_MAX_ENTRIES entries of logged-in sessions, trimming the oldest at each write', async () => {
      const root = await fakeLogInOver(gateway.url, ROOT);
      await gateway.clear(root);
      // Past the cap of 100 by 30, a fresh login every 25 so the per-session rate limit stays out of it.
      let writer = root;
      for (let i = 0; i < 130; i++) {
        if (i % 25 === 0) writer = await fakeLogInOver(gateway.url, ROOT);
        expect(await gateway.post(`kept ${i}`, { cookie: writer })).toBe(200);
      }
      const share = gateway.app.redis!;
      expect(await share.command.xlen(share.key('error-log'))).toBe(100);
      const page = await gateway.list(root, 'pageNum=1&pageSize=100&keyword=kept');
      expect(page.total).toBe(100);
      expect(page.list.map((entry) => entry.message)).toEqual(Array.from({ length: 100 }, (_, i) => `kept ${129 - i}`));
    });
  });

  describe('against the sandbox backend, with its real accounts', () => {
    const sandbox = useSandboxGateway();

    async function call(
      method: 'GET' | 'DELETE' | 'POST',
      cookie: string | null,
      body?: unknown,
    ): Promise<{ status: number; data: unknown }> {
      const { url } = sandbox();
      const answer = await fetch(`${url}${GATEWAY_PATHS.errorLog}${method === 'GET' ? '?pageSize=100' : ''}`, {
        method,
        headers: {
          origin: url,
          ...(cookie ? { cookie } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: answer.status, data: ((await answer.json()) as { data?: unknown }).data };
    }
    const messages = async (cookie: string) => ((await call('GET', cookie)).data as Page).list.map((e) => e.message);

    it('gives the limited operator account its own entries only, named by account, and no clear', async () => {
      const { url } = sandbox();
      const admin = await logInOver(url, { account: 'admin', password: 'admin123' });
      const operator = await logInOver(url, { account: 'operator', password: 'operator123' });
      expect((await call('POST', null, { message: 'sandbox anonymous', url: '/login' })).status).toBe(200);
      expect((await call('POST', admin, { message: 'sandbox admin', url: '/x' })).status).toBe(200);
      expect((await call('POST', operator, { message: 'sandbox operator', url: '/y' })).status).toBe(200);

      expect(await messages(operator)).toEqual(['sandbox operator']);
      expect(await messages(admin)).toEqual(['sandbox operator', 'sandbox admin', 'sandbox anonymous']);
      // Each entry names the account its session logged in with, not only the backend's id.
      const all = (await call('GET', admin)).data as Page;
      expect(all.list.map((e) => e.account)).toEqual(['operator', 'admin', null]);
      expect(((await call('GET', operator)).data as Page).scope).toBe('own');
      expect((await call('DELETE', operator)).status).toBe(403);
      expect(await messages(operator)).toEqual(['sandbox operator']);
      expect((await call('DELETE', admin)).status).toBe(200);
      expect(await messages(admin)).toEqual([]);
    });
  });
});
