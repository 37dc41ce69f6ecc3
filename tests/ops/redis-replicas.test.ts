import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { CALLS, GATEWAY_PATHS, WITHDRAWAL_REVIEW_PERMISSION } from '../../server/contract/index.js';
import { hasProgram, skipWithout } from '../support/ci.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../support/fake-backend.js';
import { fakeLogInOver, routeFakeLogin } from '../support/fake-session.js';
import { freshCall, removeTempDirs, tempDir, waitHealthy } from '../support/processes.js';
import { freePort } from '../support/ports.js';
import { gatewayProcess } from './support/held-backend.js';
import { RedisServer } from '../support/redis-server.js';
import { SseClient } from '../support/sse-client.js';
import { sleep, waitUntil } from '../support/wait.js';

/**
 * Replicas that share one Redis (REDIS_URL): two gateways over real HTTP, on one fake backend
 * (which counts the withdrawal polls per session) and one real redis-server that the tests start, kill and start again. What one replica learns
 * (an error, a logout, a withdrawal count) the other knows; without Redis each goes on alone.
 */

const SECRET = 'replicas-share-this-session-secret-0123456789';
const POLL_MS = 400;
const REDIS_PASSWORD = 'hush-redis-password';
const MAX_STREAMS = 2;

interface Replica {
  app: FastifyInstance;
  port: number;
  origin: string;
  logs: Array<Record<string, unknown>>;
  dataDir: string;
}

let redis: RedisServer;
let backend: FakeBackend;
/** The pending count the fake backend answers per token; 'ended' answers 401 (session over). */
const counts = new Map<string, number | 'ended'>();
let sessions = 0;
let a: Replica;
let b: Replica;

async function startReplica(redisUrl: string): Promise<Replica> {
  const dataDir = tempDir('redis-replica-data-');
  const config = loadConfig({
    SESSION_SECRET: SECRET,
    CHAT_BACKEND_URL: backend.url,
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    UI_DIR: tempDir('redis-replica-ui-'),
    REDIS_URL: redisUrl,
    WITHDRAWAL_POLL_MS: String(POLL_MS),
    EVENTS_MAX_PER_SESSION: String(MAX_STREAMS),
  });
  const logs: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.startsWith('{')) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = await buildApp({ config, logger: { level: 'info', stream } as FastifyServerOptions['logger'] });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  return { app, port, origin: `http://127.0.0.1:${port}`, logs, dataDir };
}

const COUNT_PATH = loadConfig({}).withdrawalCountPath;

function startBackend(): Promise<FakeBackend> {
  return startFakeBackend().then((fake) => {
    routeFakeLogin(fake);
    fake.route(`GET ${CALLS.permission}`, (call, res) => {
      if (!counts.has(String(call.headers['w-token']))) return sendJson(res, { code: 401, msg: 'Please log in again' });
      sendJson(res, { code: 200, msg: 'ok', data: [{ permission: WITHDRAWAL_REVIEW_PERMISSION }] });
    });
    fake.route(`GET ${COUNT_PATH}`, (call, res) => {
      const count = counts.get(String(call.headers['w-token']));
      if (count === undefined || count === 'ended') return sendJson(res, { code: 401, msg: 'Please log in again' });
      sendJson(res, { code: 200, msg: 'ok', data: count });
    });
    return fake;
  });
}

/** A new backend session logged in through `replica`; returns its token and Cookie header. */
async function logIn(replica: Replica, count = 3): Promise<{ token: string; cookie: string }> {
  const token = `tok-${++sessions}`;
  counts.set(token, count);
  return { token, cookie: await fakeLogInOver(replica.origin, { token, userId: `u-${sessions}` }) };
}

/** Upstream polls of the session's count, by every replica together. */
function pollsOf(token: string): number {
  return backend.calls.filter((c) => c.url.split('?')[0] === COUNT_PATH && c.headers['w-token'] === token).length;
}

function shared(replica: Replica): boolean {
  return replica.app.redis?.available === true;
}

async function postError(replica: Replica, message: string): Promise<Response> {
  return fetch(`${replica.origin}${GATEWAY_PATHS.errorLog}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: replica.origin },
    body: JSON.stringify({ message, url: '/dashboard' }),
  });
}

async function listedMessages(replica: Replica, cookie: string, keyword: string): Promise<string[]> {
  const res = await fetch(`${replica.origin}${GATEWAY_PATHS.errorLog}?pageNum=1&pageSize=50&keyword=${encodeURIComponent(keyword)}`, { headers: { cookie } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: { list: Array<{ message: string }> } };
  return body.data.list.map((entry) => entry.message);
}

async function logOut(replica: Replica, cookie: string): Promise<void> {
  const res = await fetch(`${replica.origin}${GATEWAY_PATHS.logout}`, { method: 'POST', headers: { cookie, origin: replica.origin } });
  expect(res.status).toBe(204);
}

async function permissionStatus(replica: Replica, cookie: string): Promise<number> {
  return (await fetch(`${replica.origin}${CALLS.permission}`, { headers: { cookie } })).status;
}

async function readyz(replica: Replica): Promise<{ status: number; text: string }> {
  const res = await fetch(`${replica.origin}/readyz`);
  return { status: res.status, text: await res.text() };
}

const skip = skipWithout(hasProgram('redis-server') ? [] : ['redis-server'], 'the tests of replicas sharing Redis');

describe.skipIf(skip)('two replicas sharing one Redis', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    redis = await RedisServer.start({ password: REDIS_PASSWORD });
    backend = await startBackend();
    a = await startReplica(redis.url);
    b = await startReplica(redis.url);
    await waitUntil(() => shared(a) && shared(b), 'both replicas connected to Redis');
  });

  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await backend?.close();
    await redis?.close();
    removeTempDirs();
  });

  it('an error logged through one replica is listed by the other', async () => {
    const { cookie } = await logIn(b);
    expect((await postError(a, 'shared-error-one')).status).toBe(200);
    expect(await listedMessages(b, cookie, 'shared-error-one')).toEqual(['shared-error-one']);
    // Cleared through one replica, gone from the other.
    const cleared = await fetch(`${b.origin}${GATEWAY_PATHS.errorLog}`, { method: 'DELETE', headers: { cookie, origin: b.origin } });
    expect(cleared.status).toBe(200);
    expect(await listedMessages(a, cookie, 'shared-error-one')).toEqual([]);
    const ready = await readyz(a);
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toEqual({ status: 'ready', details: { redis: 'connected', errorLog: 'shared in Redis' } });
  });

  it('a logout on one replica is refused by the other at once', async () => {
    const { cookie } = await logIn(a);
    expect(await permissionStatus(b, cookie)).toBe(200);
    await logOut(a, cookie);
    expect(await permissionStatus(b, cookie)).toBe(401);
  });

  it('failed logins are counted across replicas', async () => {
    const login = (replica: Replica) =>
      fetch(`${replica.origin}${CALLS.login}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: replica.origin },
        body: JSON.stringify({ account: 'someone/1', password: 'wrong', code: '' }),
      });
    // LOGIN_MAX_FAILURES is 5 per account and address: three here and two there use them up.
    for (const replica of [a, a, a, b, b]) expect((await login(replica)).status).toBe(200);
    expect((await login(a)).status).toBe(429);
    expect((await login(b)).status).toBe(429);
  });

  it('sessions streamed by both replicas cost one upstream poll per period each, and both hear the count', async () => {
    const one = await logIn(a);
    const two = await logIn(b);
    const streams = [
      await SseClient.open(a.port, one.cookie),
      await SseClient.open(b.port, one.cookie),
      await SseClient.open(a.port, two.cookie),
      await SseClient.open(b.port, two.cookie),
    ];
    try {
      for (const stream of streams) await stream.waitFor(() => stream.counts().includes(3), 'a first count');
      const before = [pollsOf(one.token), pollsOf(two.token)];
      const periods = 10;
      await sleep(periods * POLL_MS);
      // One poll a period per session, give or take the periods at the window's two edges.
      for (const [i, token] of [one.token, two.token].entries()) {
        const made = pollsOf(token) - before[i]!;
        // Never more than one a period; at least half of them, however late a busy machine's timers run.
        expect(made).toBeGreaterThanOrEqual(periods / 2);
        expect(made).toBeLessThanOrEqual(periods + 2);
      }
      // A count one replica polled reaches the tabs of both.
      counts.set(one.token, 9);
      for (const stream of streams.slice(0, 2)) await stream.waitFor(() => stream.counts().includes(9), 'the new count');
      // So does the backend's word that a session is over.
      counts.set(two.token, 'ended');
      for (const stream of streams.slice(2)) await stream.waitFor(() => stream.ended, 'the ended session to close its streams');
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it('EVENTS_MAX_PER_SESSION holds across replicas', async () => {
    const { cookie } = await logIn(a);
    const first = await SseClient.open(a.port, cookie);
    const second = await SseClient.open(b.port, cookie);
    try {
      expect([first.status, second.status]).toEqual([200, 200]);
      const third = await SseClient.open(a.port, cookie);
      const fourth = await SseClient.open(b.port, cookie);
      expect([third.status, fourth.status]).toEqual([429, 429]);
      third.close();
      fourth.close();
      first.close();
      // Its slot is released, on whichever replica the next stream lands.
      await waitUntil(async () => {
        const next = await SseClient.open(b.port, cookie);
        next.close();
        return next.status === 200;
      }, 'a slot freed by the closed stream');
    } finally {
      first.close();
      second.close();
    }
  });

  it('the workers of a WORKERS=2 gateway (the shipped bundle) share with a replica as replicas do', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const gateway = gatewayProcess({
      CHAT_BACKEND_URL: backend.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: tempDir('redis-workers-data-'),
      UI_DIR: tempDir('redis-workers-ui-'),
      SESSION_SECRET: SECRET,
      REDIS_URL: redis.url,
      WORKERS: '2',
      WITHDRAWAL_POLL_MS: String(POLL_MS),
    });
    try {
      await waitHealthy(gateway, origin, 90_000);
      const connected = () =>
        new Set(
          gateway
            .logLines()
            .filter((l) => String(l.msg).startsWith('Redis is ready'))
            .map((l) => l.pid),
        ).size;
      await gateway.waitFor(() => connected() === 2, 'both workers to connect to Redis', 90_000);

      // Posted on fresh connections, so both workers take some; all are listed by the replica.
      for (let i = 0; i < 6; i++) {
        const answer = await freshCall(origin, GATEWAY_PATHS.errorLog, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin },
          body: JSON.stringify({ message: `from-the-workers-${i}`, url: '/ops' }),
        });
        expect(answer.status, answer.body).toBe(200);
      }
      const { token, cookie } = await logIn(a);
      expect(await listedMessages(a, cookie, 'from-the-workers')).toHaveLength(6);

      // One poll per period for a session streamed by a worker and by the replica.
      const streams = [await SseClient.open(port, cookie), await SseClient.open(a.port, cookie)];
      try {
        for (const stream of streams) await stream.waitFor(() => stream.counts().length > 0, 'a first count');
        const before = pollsOf(token);
        await sleep(8 * POLL_MS);
        expect(pollsOf(token) - before).toBeLessThanOrEqual(8 + 2);
      } finally {
        for (const stream of streams) stream.close();
      }

      // A logout through the workers is refused by the replica.
      const out = await freshCall(origin, GATEWAY_PATHS.logout, { method: 'POST', headers: { cookie, origin } });
      expect(out.status).toBe(204);
      expect(await permissionStatus(a, cookie)).toBe(401);
    } finally {
      await gateway.stop();
    }
  });

  it('without Redis the console goes on alone, and shares again once Redis is back', async () => {
    const session = await logIn(a);
    const stream = await SseClient.open(b.port, session.cookie);
    await stream.waitFor(() => stream.counts().length > 0, 'a first count');

    await redis.stop();
    await waitUntil(() => !shared(a) && !shared(b), 'both replicas to notice Redis is gone');
    try {
      // Logins, /manage calls and event streams go on.
      const during = await logIn(b);
      expect(await permissionStatus(a, during.cookie)).toBe(200);
      const late = await SseClient.open(a.port, during.cookie);
      await late.waitFor(() => late.counts().length > 0, 'a count while Redis is away');
      late.close();
      const polled = pollsOf(session.token);
      await waitUntil(() => pollsOf(session.token) > polled + 1, 'the replica polling its own session');
      expect(stream.ended).toBe(false);

      // The error log falls back to the local file, and says so: a log line, a metric, /readyz.
      expect((await postError(a, 'written-while-redis-away')).status).toBe(200);
      expect(await listedMessages(a, session.cookie, 'written-while-redis-away')).toEqual(['written-while-redis-away']);
      expect(a.logs.some((line) => String(line.msg).includes('the shared error log in Redis is unavailable'))).toBe(true);
      expect((await a.app.metrics.errorLogFallbackWrites.get()).values[0]?.value).toBe(1);
      expect((await a.app.metrics.redisUp.get()).values[0]?.value).toBe(0);
      const ready = await readyz(a);
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.text)).toMatchObject({ status: 'ready', details: { redis: 'unavailable' } });
      expect(ready.text).not.toContain(String(redis.port));
      expect(ready.text).not.toContain(REDIS_PASSWORD);
      expect(JSON.stringify(a.logs)).not.toContain(REDIS_PASSWORD);
      expect(ready.text).not.toContain(backend.url);

      // A logout during the outage still holds on the replica that made it.
      await logOut(b, during.cookie);
      expect(await permissionStatus(b, during.cookie)).toBe(401);

      await redis.start();
      await waitUntil(() => shared(a) && shared(b), 'both replicas to reconnect', { timeoutMs: 20_000 });

      // The Redis that came back is empty; the outage's logout was written back to it.
      await waitUntil(async () => (await permissionStatus(a, during.cookie)) === 401, 'the outage logout refused everywhere');
      expect((await postError(b, 'shared-again')).status).toBe(200);
      expect(await listedMessages(a, session.cookie, 'shared-again')).toEqual(['shared-again']);
      // What a replica wrote locally during the outage joins the shared log.
      await waitUntil(async () => (await listedMessages(b, session.cookie, 'written-while-redis-away')).length === 1, 'the outage entry shared');
      expect(a.logs.some((line) => String(line.msg).includes('answers again'))).toBe(true);
      expect((await a.app.metrics.redisUp.get()).values[0]?.value).toBe(1);
      await logOut(a, session.cookie);
      expect(await permissionStatus(b, session.cookie)).toBe(401);
      await stream.waitFor(() => stream.ended, 'the stream of the logged-out session to end');
    } finally {
      stream.close();
      await redis.start();
    }
  });

  it('a replica started while Redis is down starts and serves, and shares once Redis comes up', async () => {
    const late = await RedisServer.start();
    await late.stop();
    const replica = await startReplica(late.url);
    try {
      const { cookie } = await logIn(replica);
      expect(await permissionStatus(replica, cookie)).toBe(200);
      expect((await postError(replica, 'before-redis-came-up')).status).toBe(200);
      expect(await listedMessages(replica, cookie, 'before-redis-came-up')).toEqual(['before-redis-came-up']);
      expect(replica.logs.some((line) => String(line.msg).startsWith('Redis is not reachable yet'))).toBe(true);
      expect(JSON.parse((await readyz(replica)).text)).toMatchObject({ status: 'ready', details: { redis: 'unavailable' } });

      await late.start();
      await waitUntil(() => shared(replica), 'the replica to connect', { timeoutMs: 20_000 });
      expect((await postError(replica, 'after-redis-came-up')).status).toBe(200);
      expect(JSON.parse((await readyz(replica)).text)).toEqual({ status: 'ready', details: { redis: 'connected', errorLog: 'shared in Redis' } });
    } finally {
      await replica.app.close();
      await late.close();
    }
  });

  it('a replica closes at once while Redis is away, however long it has been retrying', async () => {
    const gone = await RedisServer.start();
    await gone.close();
    const replica = await startReplica(gone.url);
    await waitUntil(() => replica.logs.some((line) => String(line.msg).startsWith('Redis is not reachable yet')), 'the replica to notice');
    const started = Date.now();
    await replica.app.close();
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
