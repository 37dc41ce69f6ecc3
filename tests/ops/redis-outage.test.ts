import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasProgram, skipWithout } from '../support/ci.js';
import { removeTempDirs } from '../support/processes.js';
import { RedisServer } from '../support/redis-server.js';
import { SseClient } from '../support/sse-client.js';
import { waitUntil } from '../support/wait.js';
import {
  RedisRig,
  alone,
  listedMessages,
  logOut,
  metric,
  permissionStatus,
  postError,
  readyz,
  shared,
  type Replica,
} from './support/redis-rig.js';

/**
 * Losing Redis never stops the console: two replicas (the shipped bundle) sharing a real redis-server that the test
 * kills (SIGKILL, as a crash) and starts again empty, a replica started before Redis is up, and
 * one closed while it is away. Logins, /manage calls and event streams go on; the error log falls
 * back to the local file and says so; sharing resumes by itself.
 */

const REDIS_PASSWORD = 'hush-redis-password';

let redis: RedisServer;
let rig: RedisRig;
let a: Replica;
let b: Replica;

const skip = skipWithout(hasProgram('redis-server') ? [] : ['redis-server'], 'the tests of replicas losing Redis');

describe.skipIf(skip)('replicas losing their Redis', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    redis = await RedisServer.start({ password: REDIS_PASSWORD });
    rig = await RedisRig.start();
    a = await rig.startReplica(redis.url);
    b = await rig.startReplica(redis.url);
    await waitUntil(async () => (await shared(a)) && (await shared(b)), 'both replicas connected to Redis');
    expect(await metric(a, 'gateway_redis_up')).toBe(1);
    expect(await metric(a, 'gateway_error_log_fallback_entries_total')).toBe(0);
  });

  afterAll(async () => {
    await rig?.close();
    await redis?.close();
    removeTempDirs();
  });

  it('without Redis the console goes on alone, and shares again once Redis is back', async () => {
    const session = await rig.logIn(a);
    const stream = await SseClient.open(b.port, session.cookie);
    await stream.waitFor(() => stream.counts().length > 0, 'a first count');

    await redis.stop();
    await waitUntil(async () => (await alone(a)) && (await alone(b)), 'both replicas to notice Redis is gone');
    try {
      // Logins, /manage calls and event streams go on.
      const during = await rig.logIn(b);
      expect(await permissionStatus(a, during.cookie)).toBe(200);
      const late = await SseClient.open(a.port, during.cookie);
      await late.waitFor(() => late.counts().length > 0, 'a count while Redis is away');
      late.close();
      const polled = rig.pollsOf(session.token);
      await waitUntil(() => rig.pollsOf(session.token) > polled + 1, 'the replica polling its own session');
      expect(stream.ended).toBe(false);

      // The error log falls back to the local file, and says so: a log line, a metric, /readyz.
      expect((await postError(a, 'written-while-redis-away')).status).toBe(200);
      expect(await listedMessages(a, session.cookie, 'written-while-redis-away')).toEqual(['written-while-redis-away']);
      expect(a.logs().some((line) => String(line.msg).includes('the shared error log in Redis is unavailable'))).toBe(
        true,
      );
      // As an operator's scraper reads them, by name from /metrics; the replica that wrote nothing locally says 0.
      expect(await metric(a, 'gateway_error_log_fallback_entries_total')).toBe(1);
      expect(await metric(b, 'gateway_error_log_fallback_entries_total')).toBe(0);
      expect(await metric(a, 'gateway_redis_up')).toBe(0);
      expect(await metric(b, 'gateway_redis_up')).toBe(0);
      const ready = await readyz(a);
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.text)).toMatchObject({ status: 'ready', details: { redis: 'unavailable' } });
      expect(ready.text).not.toContain(String(redis.port));
      expect(ready.text).not.toContain(REDIS_PASSWORD);
      expect(a.process.stdout + a.process.stderr).not.toContain(REDIS_PASSWORD);
      expect(ready.text).not.toContain(rig.backend.url);

      // A logout during the outage still holds on the replica that made it.
      await logOut(b, during.cookie);
      expect(await permissionStatus(b, during.cookie)).toBe(401);

      await redis.start();
      await waitUntil(async () => (await shared(a)) && (await shared(b)), 'both replicas to reconnect', {
        timeoutMs: 20_000,
      });

      // The Redis that came back is empty; the outage's logout was written back to it.
      await waitUntil(
        async () => (await permissionStatus(a, during.cookie)) === 401,
        'the outage logout refused everywhere',
      );
      expect((await postError(b, 'shared-again')).status).toBe(200);
      expect(await listedMessages(a, session.cookie, 'shared-again')).toEqual(['shared-again']);
      // What a replica wrote locally during the outage joins the shared log.
      await waitUntil(
        async () => (await listedMessages(b, session.cookie, 'written-while-redis-away')).length === 1,
        'the outage entry shared',
      );
      expect(a.logs().some((line) => String(line.msg).includes('answers again'))).toBe(true);
      expect(await metric(a, 'gateway_redis_up')).toBe(1);
      expect(await metric(b, 'gateway_redis_up')).toBe(1);
      // A counter: what was written locally stays counted after Redis is back.
      expect(await metric(a, 'gateway_error_log_fallback_entries_total')).toBe(1);
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
    const replica = await rig.startReplica(late.url);
    try {
      const { cookie } = await rig.logIn(replica);
      expect(await permissionStatus(replica, cookie)).toBe(200);
      expect((await postError(replica, 'before-redis-came-up')).status).toBe(200);
      expect(await listedMessages(replica, cookie, 'before-redis-came-up')).toEqual(['before-redis-came-up']);
      expect(replica.logs().some((line) => String(line.msg).startsWith('Redis is not reachable yet'))).toBe(true);
      expect(JSON.parse((await readyz(replica)).text)).toMatchObject({
        status: 'ready',
        details: { redis: 'unavailable' },
      });

      await late.start();
      await waitUntil(() => shared(replica), 'the replica to connect', { timeoutMs: 20_000 });
      expect((await postError(replica, 'after-redis-came-up')).status).toBe(200);
      expect(JSON.parse((await readyz(replica)).text)).toEqual({
        status: 'ready',
        details: { redis: 'connected', errorLog: 'shared in Redis', auditTrail: 'shared in Redis' },
      });
    } finally {
      await replica.process.stop();
      await late.close();
    }
  });

  it('a replica shuts down cleanly while Redis is away, however long it has been retrying', async () => {
    // Redis as a replica finds it in an outage: the port answers, and drops every connection.
    let attempts = 0;
    const dropper = createServer((socket) => {
      attempts++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => dropper.listen(0, '127.0.0.1', resolve));
    try {
      const replica = await rig.startReplica(`redis://127.0.0.1:${(dropper.address() as AddressInfo).port}`);
      await waitUntil(
        () => replica.logs().some((line) => String(line.msg).startsWith('Redis is not reachable yet')),
        'the replica to notice',
      );
      await waitUntil(() => attempts >= 4, 'a few reconnection attempts', { timeoutMs: 20_000 });
      // A shutdown waiting for Redis (a quit() queued behind the reconnection) would end in the
      // shutdown time-out's failure exit, not in a clean 0: a state to reach, not a time to beat.
      replica.process.signal('SIGTERM');
      expect(await replica.process.exited).toEqual({ code: 0, signal: null });
      expect(replica.logs().map((line) => line.msg)).not.toContain('second signal: exiting at once');
    } finally {
      dropper.close();
    }
  });
});
