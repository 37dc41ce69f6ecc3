import { mkdtempSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CALLS, RESOURCES, resourceCalls } from '../../server/contract/index.js';
import { sendJson } from '../support/fake-backend.js';
import { SseClient } from '../support/sse-client.js';
import { fakeLogInOver } from '../support/fake-session.js';
import { callsSince, httpText, openSocket, type Rig, rigPerTest } from './support/rig.js';

/**
 * One client's load must not become everyone's. Event streams used to be capped per session
 * only (five logins of one account opened 100), and one session's slow calls could fill the
 * backend connection pool (140 of them made another user's login take 7.4 s). Now streams are
 * capped per account and in all too, and a session has at most MAX_INFLIGHT_PER_SESSION calls
 * waiting on the backend; past each cap the gateway answers 429 RATE_LIMITED without a backend call.
 */

const rig = rigPerTest();
const streams: SseClient[] = [];
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
});

async function openStream(r: Rig, cookie: string): Promise<SseClient> {
  const stream = await SseClient.open(r.port, cookie);
  streams.push(stream);
  return stream;
}

async function expectRefused(stream: SseClient, reason: RegExp): Promise<void> {
  expect(stream.status).toBe(429);
  await stream.waitFor(() => stream.ended, 'the refusal to end');
  const body = JSON.parse(stream.body) as { code: number; msg: string; error: string };
  expect(body).toMatchObject({ code: 429, error: 'RATE_LIMITED' });
  expect(body.msg).toMatch(reason);
  expect(stream.headers['retry-after']).toBeDefined();
}

describe('event streams per account and in all', { timeout: 30_000 }, () => {
  it('refuses the stream past EVENTS_MAX_PER_ACCOUNT, however many logins the account made; another account still gets one', async () => {
    const r = await rig({ EVENTS_MAX_PER_SESSION: '2', EVENTS_MAX_PER_ACCOUNT: '5', EVENTS_MAX_TOTAL: '100' });
    const logins = await Promise.all(
      Array.from({ length: 4 }, (_, i) => fakeLogInOver(r.url, { token: `tok-acct-${i}`, userId: '7' })),
    );
    let open = 0;
    for (const cookie of logins) {
      for (let tab = 0; tab < 2 && open < 5; tab++, open++) expect((await openStream(r, cookie)).status).toBe(200);
    }
    // Logins 3 and 4 still have room of their own, the account has none.
    const before = r.backend.calls.length;
    await expectRefused(await openStream(r, logins[2]!), /account already has 5/);
    await expectRefused(await openStream(r, logins[3]!), /account already has 5/);
    // Refused before the permission look-up (the open streams' own polls go on meanwhile).
    expect(callsSince(r.backend, before, CALLS.permission)).toEqual([]);

    const other = await fakeLogInOver(r.url, { token: 'tok-other', userId: '8' });
    expect((await openStream(r, other)).status).toBe(200);

    // A tab of the account closes: the account may open one again.
    streams[0]!.close();
    await expect.poll(async () => (await openStream(r, logins[3]!)).status).toBe(200);
  });

  it('refuses the stream past EVENTS_MAX_TOTAL, whatever the account', async () => {
    const r = await rig({ EVENTS_MAX_TOTAL: '3' });
    for (let i = 0; i < 3; i++) {
      const cookie = await fakeLogInOver(r.url, { token: `tok-total-${i}`, userId: String(20 + i) });
      expect((await openStream(r, cookie)).status).toBe(200);
    }
    const late = await fakeLogInOver(r.url, { token: 'tok-total-late', userId: '30' });
    await expectRefused(await openStream(r, late), /gateway already has 3/);
    // Ordinary calls and the probes still go through.
    expect((await fetch(`${r.url}/healthz`)).status).toBe(200);
  });
});

describe('backend calls in flight per session', { timeout: 30_000 }, () => {
  /** A backend call the fake backend holds until the test lets it go. */
  async function heldRig(env: Record<string, string> = {}) {
    const r = await rig(env);
    const held: ServerResponse[] = [];
    r.backend.route('GET /manage/slow', (_call, res) => void held.push(res));
    r.backend.route('GET /manage/fast', (_call, res) => sendJson(res, { code: 200, msg: 'ok', data: 'fast' }));
    const releaseAll = () => {
      for (const res of held.splice(0)) sendJson(res, { code: 200, msg: 'ok', data: { list: [], total: 0 } });
    };
    return { r, held, releaseAll };
  }

  it('refuses the 17th call of a session with 429 and no backend call, while another session is served', async () => {
    const { r, held, releaseAll } = await heldRig();
    const a = await fakeLogInOver(r.url, { token: 'tok-greedy', userId: '40' });
    const b = await fakeLogInOver(r.url, { token: 'tok-patient', userId: '41' });
    try {
      const slow = Array.from({ length: 16 }, () => fetch(`${r.url}/manage/slow`, { headers: { cookie: a } }));
      await expect.poll(() => held.length).toBe(16);
      const before = r.backend.calls.length;

      const refused = await fetch(`${r.url}/manage/slow`, { headers: { cookie: a } });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await refused.json()).toMatchObject({
        code: 429,
        error: 'RATE_LIMITED',
        msg: expect.stringMatching(/16 calls waiting/),
      });
      expect(callsSince(r.backend, before)).toEqual([]);

      // Another session's call, and another user's login, go through meanwhile.
      const other = await fetch(`${r.url}/manage/fast`, { headers: { cookie: b } });
      expect(other.status).toBe(200);
      expect(await fakeLogInOver(r.url, { token: 'tok-late', userId: '42' })).toContain('token=');

      releaseAll();
      for (const answer of await Promise.all(slow)) expect(answer.status).toBe(200);
      expect((await fetch(`${r.url}/manage/fast`, { headers: { cookie: a } })).status).toBe(200);
    } finally {
      releaseAll();
    }
  });

  it('keeps the slot of a call the browser hung up on until the backend answers it', async () => {
    const { r, held, releaseAll } = await heldRig({ MAX_INFLIGHT_PER_SESSION: '2' });
    const a = await fakeLogInOver(r.url, { token: 'tok-hangup', userId: '43' });
    try {
      const connections = () =>
        new Promise<number>((resolve, reject) =>
          r.app.server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
        );
      const before = await connections();
      const calls = await Promise.all(
        Array.from({ length: 2 }, () => openSocket(r.port, httpText('GET /manage/slow HTTP/1.1', { cookie: a }))),
      );
      await expect.poll(() => held.length).toBe(2);
      for (const call of calls) call.socket.destroy();
      // The gateway has seen the browser go: those sockets are closed on its side too.
      await expect.poll(connections).toBe(before);
      expect((await fetch(`${r.url}/manage/fast`, { headers: { cookie: a } })).status).toBe(429);

      releaseAll();
      await expect.poll(async () => (await fetch(`${r.url}/manage/fast`, { headers: { cookie: a } })).status).toBe(200);
    } finally {
      releaseAll();
    }
  });

  it('counts the calls the backend map translates the same way', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sec-inflight-map-'));
    writeFileSync(
      path.join(dir, 'map.json'),
      JSON.stringify({ resources: { users: { calls: { list: { path: '/manage/slow' } } } } }),
    );
    const { r, held, releaseAll } = await heldRig({
      MAX_INFLIGHT_PER_SESSION: '2',
      BACKEND_MAP: path.join(dir, 'map.json'),
    });
    const list = resourceCalls(RESOURCES.find((resource) => resource.id === 'users')!).list;
    const a = await fakeLogInOver(r.url, { token: 'tok-mapped', userId: '44' });
    try {
      const slow = Array.from({ length: 2 }, () => fetch(`${r.url}${list}`, { headers: { cookie: a } }));
      await expect.poll(() => held.length).toBe(2);
      const before = r.backend.calls.length;
      const refused = await fetch(`${r.url}${list}`, { headers: { cookie: a } });
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ error: 'RATE_LIMITED' });
      expect(callsSince(r.backend, before)).toEqual([]);
      releaseAll();
      for (const answer of await Promise.all(slow)) expect(answer.status).toBe(200);
    } finally {
      releaseAll();
    }
  });
});
