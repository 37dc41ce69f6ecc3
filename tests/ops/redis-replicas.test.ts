import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_PATHS, CALLS } from '../../server/contract/index.js';
import { hasProgram, skipWithout } from '../support/ci.js';
import { freshCall, removeTempDirs, tempDir, waitHealthy } from '../support/processes.js';
import { freePort } from '../support/ports.js';
import { RedisServer } from '../support/redis-server.js';
import { SseClient } from '../support/sse-client.js';
import { waitUntil } from '../support/wait.js';
import { gatewayProcess } from './support/held-backend.js';
import {
  POLL_MS,
  PollLockWatch,
  RedisRig,
  SECRET,
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
 * Replicas that share one Redis (REDIS_URL): two gateways (the shipped bundle) over real HTTP, on one fake backend
 * (which counts the withdrawal polls per session) and one real, password-protected redis-server.
 * What one replica learns (an error, a logout, a failed login, a withdrawal count, an open
 * stream) the other knows. What happens without Redis is in redis-outage.test.ts.
 */

const REDIS_PASSWORD = 'hush-redis-password';

let redis: RedisServer;
let rig: RedisRig;
let a: Replica;
let b: Replica;
let locks: PollLockWatch;

/** Event streams a replica holds open, as its gauge on /metrics says. */
function openStreams(replica: Replica): Promise<number> {
  return metric(replica, 'gateway_event_streams_open');
}

const skip = skipWithout(hasProgram('redis-server') ? [] : ['redis-server'], 'the tests of replicas sharing Redis');

describe.skipIf(skip)('two replicas sharing one Redis', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    redis = await RedisServer.start({ password: REDIS_PASSWORD });
    locks = await PollLockWatch.start(redis.url);
    rig = await RedisRig.start();
    a = await rig.startReplica(redis.url);
    b = await rig.startReplica(redis.url);
    await waitUntil(async () => (await shared(a)) && (await shared(b)), 'both replicas connected to Redis');
  });

  afterAll(async () => {
    locks?.close();
    await rig?.close();
    await redis?.close();
    removeTempDirs();
  });

  it('an error logged through one replica is listed by the other', async () => {
    const { cookie } = await rig.logIn(b);
    expect((await postError(a, 'shared-error-one')).status).toBe(200);
    expect(await listedMessages(b, cookie, 'shared-error-one')).toEqual(['shared-error-one']);
    // Cleared through one replica, gone from the other.
    const cleared = await fetch(`${b.origin}${GATEWAY_PATHS.errorLog}`, {
      method: 'DELETE',
      headers: { cookie, origin: b.origin },
    });
    expect(cleared.status).toBe(200);
    expect(await listedMessages(a, cookie, 'shared-error-one')).toEqual([]);
    const ready = await readyz(a);
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toEqual({
      status: 'ready',
      details: { redis: 'connected', errorLog: 'shared in Redis', auditTrail: 'shared in Redis' },
    });
  });

  it('a logout on one replica is refused by the other at once', async () => {
    const { cookie } = await rig.logIn(a);
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
    const one = await rig.logIn(a);
    const two = await rig.logIn(b);
    const streams = [
      await SseClient.open(a.port, one.cookie),
      await SseClient.open(b.port, one.cookie),
      await SseClient.open(a.port, two.cookie),
      await SseClient.open(b.port, two.cookie),
    ];
    try {
      for (const stream of streams) await stream.waitFor(() => stream.counts().includes(3), 'a first count');
      // Both replicas schedule a poll of each session every period; the lock lets one of them poll.
      for (const login of [one, two])
        await waitUntil(() => locks.periodsClaimedByAll(login, 2) >= 5, 'five periods scheduled by both replicas');
      // A count one replica polled reaches the tabs of both.
      rig.counts.set(one.token, 9);
      for (const stream of streams.slice(0, 2))
        await stream.waitFor(() => stream.counts().includes(9), 'the new count');
      // So does the backend's word that a session is over.
      rig.counts.set(two.token, 'ended');
      for (const stream of streams.slice(2))
        await stream.waitFor(() => stream.ended, 'the ended session to close its streams');
    } finally {
      for (const stream of streams) stream.close();
    }
    // Once no tab is left, no poll is scheduled or under way: the backend got one poll for each
    // period that was scheduled, by whichever replica took its lock, never one per replica.
    await waitUntil(async () => (await openStreams(a)) + (await openStreams(b)) === 0, 'the streams to close');
    for (const login of [one, two]) {
      await waitUntil(
        () => rig.pollsOf(login.token) === locks.claimedPeriods(login),
        'a poll for each scheduled period',
      );
      expect(rig.pollsOf(login.token)).toBe(locks.claimedPeriods(login));
    }
  });

  it('EVENTS_MAX_PER_SESSION holds across replicas', async () => {
    const { cookie } = await rig.logIn(a);
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

  it('EVENTS_MAX_PER_ACCOUNT holds across replicas and across the logins of one account', async () => {
    const first = await rig.logIn(a, 3, 'u-many-logins');
    const second = await rig.logIn(b, 3, 'u-many-logins');
    const open = [
      await SseClient.open(a.port, first.cookie),
      await SseClient.open(b.port, first.cookie),
      await SseClient.open(b.port, second.cookie),
    ];
    try {
      expect(open.map((s) => s.status)).toEqual([200, 200, 200]);
      // The second login has a slot of its own left; the account, counted on both replicas, has none.
      const refused = await SseClient.open(a.port, second.cookie);
      expect(refused.status).toBe(429);
      await refused.waitFor(() => refused.ended, 'the refusal to end');
      expect(refused.body).toContain('this account already has 3 event streams open');
      open[0]!.close();
      await waitUntil(async () => {
        const next = await SseClient.open(a.port, second.cookie);
        if (next.status === 200) open.push(next);
        else next.close();
        return next.status === 200;
      }, 'an account slot freed by the closed stream');
    } finally {
      for (const stream of open) stream.close();
    }
  });

  it('the workers of a WORKERS=2 gateway (the shipped bundle) share with a replica as replicas do', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const gateway = gatewayProcess({
      CHAT_BACKEND_URL: rig.backend.url,
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
      const { token, userId, cookie } = await rig.logIn(a);
      expect(await listedMessages(a, cookie, 'from-the-workers')).toHaveLength(6);

      // One poll per period for a session streamed by a worker and by the replica, both scheduling it.
      const login = { token, userId };
      const streams = [await SseClient.open(port, cookie), await SseClient.open(a.port, cookie)];
      try {
        for (const stream of streams) await stream.waitFor(() => stream.counts().length > 0, 'a first count');
        await waitUntil(
          () => locks.periodsClaimedByAll(login, 2) >= 5,
          'five periods scheduled by the worker and the replica',
        );
      } finally {
        for (const stream of streams) stream.close();
      }
      await waitUntil(async () => (await openStreams(a)) === 0, 'the replica stream to close');
      await waitUntil(() => rig.pollsOf(token) === locks.claimedPeriods(login), 'a poll for each scheduled period', {
        timeoutMs: 20_000,
      });
      expect(rig.pollsOf(token)).toBe(locks.claimedPeriods(login));

      // A logout through the workers is refused by the replica.
      const out = await freshCall(origin, GATEWAY_PATHS.logout, { method: 'POST', headers: { cookie, origin } });
      expect(out.status).toBe(204);
      expect(await permissionStatus(a, cookie)).toBe(401);
    } finally {
      await gateway.stop();
    }
  });
});
