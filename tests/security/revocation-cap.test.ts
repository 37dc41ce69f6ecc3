import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_PATHS } from '../../server/contract/index.js';
import { loadConfig } from '../../server/config.js';
import { SseClient } from '../support/sse-client.js';
import { fakeLogInOver } from '../support/fake-session.js';
import { RedisServer } from '../support/redis-server.js';
import { waitUntil } from '../support/wait.js';
import { SAVE_PATH, startGateway, startRecordingBackend } from './support/rig.js';
import type { FakeBackend } from '../support/fake-backend.js';

/**
 * The list of logged-out sessions is capped (SESSION_REVOCATIONS_MAX). It used to forget its
 * oldest entries past the cap, and the forgotten sessions were taken again. Past the cap it now
 * fails closed: every session as old as the last forgotten one is refused, in one process and
 * across replicas sharing Redis (including a replica that never heard of the logouts).
 */

const CAP = '10';
const SECRET = 'a session secret shared by the replicas, 32+ bytes';

interface Gateway {
  url: string;
}

async function logout(url: string, cookie: string): Promise<void> {
  const answer = await fetch(`${url}${GATEWAY_PATHS.logout}`, { method: 'POST', headers: { cookie, origin: url } });
  expect(answer.status).toBe(204);
}

function save(url: string, cookie: string): Promise<number> {
  return fetch(`${url}${SAVE_PATH}`, {
    method: 'POST',
    headers: { cookie, origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ word: 'replayed' }),
  }).then((answer) => answer.status);
}

/**
 * Logs in `count` sessions a second apart on `login`, logs out all but the last three, and checks
 * on `check` that every logged-out one stays refused while the later ones work.
 */
async function floodAndCheck(clock: { now: number }, login: Gateway, check: Gateway, tag: string): Promise<void> {
  const cookies: string[] = [];
  for (let i = 0; i < 15; i++) {
    clock.now += 1_000;
    cookies.push(await fakeLogInOver(login.url, { token: `tok-${tag}-${i}`, userId: String(100 + i) }));
  }
  const loggedOut = cookies.slice(0, 12);
  const kept = cookies.slice(12);
  for (const cookie of kept) expect(await save(check.url, cookie)).toBe(200);
  for (const cookie of loggedOut) await logout(login.url, cookie);
  // Twelve logouts in a list of ten: the first ones are forgotten, and must not come back.
  for (const [i, cookie] of loggedOut.entries())
    expect(await save(check.url, cookie), `logged-out session ${i}`).toBe(401);
  for (const [i, cookie] of kept.entries())
    expect(await save(check.url, cookie), `session ${i} logged in after them`).toBe(200);
}

describe('the logout list past its cap', () => {
  let backend: FakeBackend;
  beforeAll(async () => {
    backend = await startRecordingBackend();
  });
  afterAll(async () => {
    await backend.close();
  });

  it('is a whole number from 10, 200,000 by default', () => {
    expect(loadConfig({}).revocationsMax).toBe(200_000);
    expect(loadConfig({ SESSION_REVOCATIONS_MAX: '50' }).revocationsMax).toBe(50);
    expect(() => loadConfig({ SESSION_REVOCATIONS_MAX: '5' })).toThrow(/SESSION_REVOCATIONS_MAX/);
  });

  it('in one process: refuses the forgotten sessions, ends their streams, and keeps later ones', async () => {
    const clock = { now: Date.now() };
    const gateway = await startGateway(backend.url, { SESSION_REVOCATIONS_MAX: CAP }, { now: () => clock.now });
    try {
      clock.now += 1_000;
      const early = await fakeLogInOver(gateway.url, { token: 'tok-early', userId: '99' });
      const tab = await SseClient.open(gateway.port, early);
      await tab.waitFor(() => tab.counts().length > 0, 'the first count');
      await floodAndCheck(clock, gateway, gateway, 'memory');
      // Failing closed: a session older than the forgotten logouts ends too, its stream with it.
      expect(await save(gateway.url, early)).toBe(401);
      await tab.waitFor(() => tab.ended, 'the stream of a session under the floor to end');
    } finally {
      await gateway.app.close();
    }
  });

  describe('shared through Redis', () => {
    let redis: RedisServer;
    beforeAll(async () => {
      redis = await RedisServer.start();
    });
    afterAll(async () => {
      await redis.close();
    });

    it('keeps the Redis list within the cap, and a replica that joins later refuses the forgotten sessions', async () => {
      const clock = { now: Date.now() };
      const env = { SESSION_REVOCATIONS_MAX: CAP, REDIS_URL: redis.url, SESSION_SECRET: SECRET };
      const first = await startGateway(backend.url, env, { now: () => clock.now });
      const started: Array<typeof first> = [first];
      try {
        await waitUntil(() => first.app.redis!.available, 'the first replica to reach Redis');
        const cookies: string[] = [];
        for (let i = 0; i < 12; i++) {
          clock.now += 1_000;
          cookies.push(await fakeLogInOver(first.url, { token: `tok-redis-${i}`, userId: String(200 + i) }));
        }
        for (const cookie of cookies) await logout(first.url, cookie);
        const share = first.app.redis!;
        expect(await share.command.zcard(share.key('session:revoked'))).toBeLessThanOrEqual(10);

        // Started after the logouts, with an empty copy of its own: it learns the floor from Redis.
        const second = await startGateway(backend.url, env, { now: () => clock.now });
        started.push(second);
        await waitUntil(() => second.app.redis!.available, 'the second replica to reach Redis');
        for (const [i, cookie] of cookies.entries())
          expect(await save(second.url, cookie), `logged-out session ${i}`).toBe(401);

        // And the same flood across the two: logins and logouts on one, calls on the other.
        await floodAndCheck(clock, first, second, 'across');
      } finally {
        for (const gateway of started) await gateway.app.close();
      }
    });
  });
});
