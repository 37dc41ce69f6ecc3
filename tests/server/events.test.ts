import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CALLS, WITHDRAWAL_EVENT, WITHDRAWAL_REVIEW_PERMISSION } from '../../server/contract/index.js';
import { buildTestGateway } from './support/gateway.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../support/fake-backend.js';
import { SseClient } from '../support/sse-client.js';
import { sleep, waitUntil } from '../support/wait.js';
import { fakeLogInOver, routeFakeLogin } from '../support/fake-session.js';

const POLL_MS = 200;
const COUNT_PATH = CALLS.withdrawalCount;

/** The backend's view: which token holds which permissions and what count each one sees. */
interface BackendState {
  permissions: Map<string, unknown[] | 'unauthorized' | 'failing'>;
  counts: Map<string, number | 'unauthorized' | 'broken'>;
}

function callsFor(backend: FakeBackend, path: string, token: string): number {
  return backend.calls.filter((c) => c.url.split('?')[0] === path && c.headers['w-token'] === token).length;
}

async function startBackend(): Promise<{ backend: FakeBackend; state: BackendState }> {
  const backend = await startFakeBackend();
  routeFakeLogin(backend);
  const state: BackendState = { permissions: new Map(), counts: new Map() };
  backend.route(`GET ${CALLS.permission}`, (call, res) => {
    const held = state.permissions.get(String(call.headers['w-token']));
    if (held === undefined || held === 'unauthorized') return sendJson(res, { code: 401, msg: 'Please log in again' });
    if (held === 'failing') return sendJson(res, { code: 500, msg: 'database unavailable' });
    sendJson(res, { code: 200, msg: 'ok', data: held });
  });
  backend.route(`GET ${COUNT_PATH}`, (call, res) => {
    const count = state.counts.get(String(call.headers['w-token']));
    if (count === undefined || count === 'unauthorized')
      return sendJson(res, { code: 401, msg: 'Please log in again' });
    if (count === 'broken') {
      res.writeHead(500, { 'content-type': 'text/html' });
      return void res.end('<html>Internal Server Error</html>');
    }
    sendJson(res, { code: 200, msg: 'ok', data: count });
  });
  return { backend, state };
}

async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

/** Port of the gateway under test, set once it listens. */
let gatewayPort = 0;
/** A fresh login (a new session) as the backend token `token`; resolves to its Cookie header. */
const reviewer = (token: string) => fakeLogInOver(`http://127.0.0.1:${gatewayPort}`, { token, userId: `u-${token}` });
const REVIEWER_PERMISSIONS = [{ permission: '/manage/user/userProfile' }, { permission: WITHDRAWAL_REVIEW_PERMISSION }];

async function openStreamsGauge(app: FastifyInstance): Promise<number> {
  return (await app.metrics.eventStreams.get()).values[0]?.value ?? 0;
}

describe('GET /api/events', () => {
  let backend: FakeBackend;
  let state: BackendState;
  let app: FastifyInstance;
  let port: number;
  const tabs: SseClient[] = [];
  const openTab = async (cookie: string | null | Promise<string>) => {
    const tab = await SseClient.open(port, await cookie);
    tabs.push(tab);
    return tab;
  };

  beforeAll(async () => {
    ({ backend, state } = await startBackend());
    app = await buildTestGateway({ CHAT_BACKEND_URL: backend.url, WITHDRAWAL_POLL_MS: String(POLL_MS) });
    port = await listen(app);
    gatewayPort = port;
  });

  afterEach(async () => {
    for (const tab of tabs.splice(0)) tab.close();
    // The gateway learns of closed tabs asynchronously; later tests read the gauge.
    await waitUntil(async () => (await openStreamsGauge(app)) === 0, 'every stream to be closed');
  });

  afterAll(async () => {
    await app.close();
    await backend.close();
  });

  it('answers 401 in the envelope without a session', async () => {
    const tab = await openTab(null);
    await tab.waitFor(() => tab.ended, 'the answer to end');
    expect(tab.status).toBe(401);
    expect(JSON.parse(tab.body)).toMatchObject({ code: 401, error: 'NOT_LOGGED_IN' });
  });

  it('answers 401 when the backend no longer knows the session', async () => {
    state.permissions.set('gone', 'unauthorized');
    const tab = await openTab(reviewer('gone'));
    await tab.waitFor(() => tab.ended, 'the answer to end');
    expect(tab.status).toBe(401);
    expect(JSON.parse(tab.body)).toMatchObject({ code: 401, error: 'NOT_LOGGED_IN' });
    expect(callsFor(backend, COUNT_PATH, 'gone')).toBe(0);
  });

  it('answers 403 to a session without the withdrawal-review permission', async () => {
    state.permissions.set('operator', [{ permission: '/manage/user/userProfile' }, '/manage/finance/billRecord']);
    state.counts.set('operator', 3);
    const tab = await openTab(reviewer('operator'));
    await tab.waitFor(() => tab.ended, 'the answer to end');
    expect(tab.status).toBe(403);
    expect(JSON.parse(tab.body)).toMatchObject({ code: 403, error: 'FORBIDDEN' });
    expect(callsFor(backend, COUNT_PATH, 'operator')).toBe(0);
  });

  it('answers 502 when the permission look-up fails, and asks again on the next connect', async () => {
    state.permissions.set('unlucky', 'failing');
    state.counts.set('unlucky', 2);
    const first = await openTab(reviewer('unlucky'));
    await first.waitFor(() => first.ended, 'the refusal');
    expect(first.status).toBe(502);
    expect(JSON.parse(first.body)).toMatchObject({ code: 502, error: 'UPSTREAM_BAD_ANSWER' });
    expect(JSON.parse(first.body).msg).toContain('code 500');

    state.permissions.set('unlucky', REVIEWER_PERMISSIONS);
    const second = await openTab(reviewer('unlucky'));
    await second.waitFor(() => second.counts().length > 0, 'the first count');
    expect(second.counts()).toEqual([2]);
    expect(callsFor(backend, CALLS.permission, 'unlucky')).toBe(2);
  });

  it('opens a stream with SSE and security headers and sends the count at once', async () => {
    state.permissions.set('alpha', REVIEWER_PERMISSIONS);
    state.counts.set('alpha', 4);
    const tab = await openTab(reviewer('alpha'));
    expect(tab.status).toBe(200);
    expect(tab.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(tab.headers['cache-control']).toBe('no-store, no-transform');
    expect(tab.headers['x-accel-buffering']).toBe('no');
    expect(tab.headers['x-content-type-options']).toBe('nosniff');
    expect(tab.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    await tab.waitFor(() => tab.counts().length > 0, 'the first count');
    expect(tab.counts()).toEqual([4]);
    expect(tab.events[0]).toEqual({ event: WITHDRAWAL_EVENT, data: '{"count":4}' });
  });

  it('fans a changed count out to every tab of the session, and only to it', async () => {
    state.permissions.set('multi', REVIEWER_PERMISSIONS);
    state.permissions.set('single', REVIEWER_PERMISSIONS);
    state.counts.set('multi', 1);
    state.counts.set('single', 1);
    const multi = await Promise.all([
      openTab(reviewer('multi')),
      openTab(reviewer('multi')),
      openTab(reviewer('multi')),
    ]);
    const single = await openTab(reviewer('single'));
    for (const tab of [...multi, single]) await tab.waitFor(() => tab.counts().length > 0, 'the first count');
    expect(multi.map((t) => t.counts())).toEqual([[1], [1], [1]]);
    expect(await openStreamsGauge(app)).toBe(4);

    state.counts.set('multi', 7);
    for (const tab of multi) await tab.waitFor(() => tab.counts().includes(7), 'the changed count');
    expect(multi.map((t) => t.counts())).toEqual([
      [1, 7],
      [1, 7],
      [1, 7],
    ]);
    // The other session has polled meanwhile too (it has a period of its own) and heard nothing new.
    const singlePolls = callsFor(backend, COUNT_PATH, 'single');
    await waitUntil(() => callsFor(backend, COUNT_PATH, 'single') > singlePolls, 'a poll of the other session');
    expect(single.counts()).toEqual([1]);
  });

  it('keeps polling a session while one of its tabs remains', async () => {
    state.permissions.set('leaver', REVIEWER_PERMISSIONS);
    state.counts.set('leaver', 2);
    const pair = [await openTab(reviewer('leaver')), await openTab(reviewer('leaver'))];
    for (const tab of pair) await tab.waitFor(() => tab.counts().length > 0, 'the first count');

    pair[0]!.close();
    await waitUntil(async () => (await openStreamsGauge(app)) === 1, 'one stream to close');
    const whileOneLeft = callsFor(backend, COUNT_PATH, 'leaver');
    await waitUntil(
      () => callsFor(backend, COUNT_PATH, 'leaver') >= whileOneLeft + 2,
      'polling to go on for the other tab',
    );
    state.counts.set('leaver', 5);
    await pair[1]!.waitFor(() => pair[1]!.counts().includes(5), 'the remaining tab to hear the change');
  });

  it('keeps the stream and the last count through backend failures', async () => {
    state.permissions.set('flaky', REVIEWER_PERMISSIONS);
    state.counts.set('flaky', 5);
    const tab = await openTab(reviewer('flaky'));
    await tab.waitFor(() => tab.counts().length > 0, 'the first count');
    state.counts.set('flaky', 'broken');
    const atBreak = callsFor(backend, COUNT_PATH, 'flaky');
    await waitUntil(() => callsFor(backend, COUNT_PATH, 'flaky') >= atBreak + 3, 'polls of the broken backend');
    expect(tab.ended).toBe(false);
    expect(tab.counts()).toEqual([5]);
    state.counts.set('flaky', 6);
    await tab.waitFor(() => tab.counts().includes(6), 'the count after recovery');
    expect(tab.counts()).toEqual([5, 6]);
  });

  it('ends every tab of a session the backend answers 401 for, and stops polling it', async () => {
    state.permissions.set('expiring', REVIEWER_PERMISSIONS);
    state.counts.set('expiring', 3);
    const pair = [await openTab(reviewer('expiring')), await openTab(reviewer('expiring'))];
    for (const tab of pair) await tab.waitFor(() => tab.counts().length > 0, 'the first count');

    state.counts.set('expiring', 'unauthorized');
    for (const tab of pair) await tab.waitFor(() => tab.ended, 'the stream to end');
    for (const tab of pair) expect(tab.events.at(-1)?.event).toBe('session-ended');
    // That the hub schedules no further poll of an ended session is events-hub.test.ts's, on its clock.

    // The browser's automatic reconnect is refused without asking the backend again.
    const permissionCalls = callsFor(backend, CALLS.permission, 'expiring');
    const again = await openTab(reviewer('expiring'));
    await again.waitFor(() => again.ended, 'the refusal');
    expect(again.status).toBe(401);
    expect(callsFor(backend, CALLS.permission, 'expiring')).toBe(permissionCalls);
  });
});

/**
 * A period longer than any test: the only polls are those a new session causes, so the upstream
 * cost of tabs, and what a closed tab leaves behind, are counted exactly, with no clock involved.
 * (Periodic polling itself is counted on a controlled clock in events-hub.test.ts.)
 */
describe('GET /api/events, counted in polls', () => {
  let backend: FakeBackend;
  let state: BackendState;
  let app: FastifyInstance;
  let port: number;
  const tabs: SseClient[] = [];
  const openTab = async (token: string) => {
    const tab = await SseClient.open(
      port,
      await fakeLogInOver(`http://127.0.0.1:${port}`, { token, userId: `u-${token}` }),
    );
    tabs.push(tab);
    await tab.waitFor(() => tab.counts().length > 0, 'the first count');
    return tab;
  };
  const totalPolls = () => backend.calls.filter((c) => c.url.split('?')[0] === COUNT_PATH).length;

  beforeAll(async () => {
    ({ backend, state } = await startBackend());
    app = await buildTestGateway({ CHAT_BACKEND_URL: backend.url, WITHDRAWAL_POLL_MS: String(3_600_000) });
    port = await listen(app);
    for (const token of ['many', 'one', 'again']) {
      state.permissions.set(token, REVIEWER_PERMISSIONS);
      state.counts.set(token, 4);
    }
  });

  afterEach(async () => {
    for (const tab of tabs.splice(0)) tab.close();
    await waitUntil(async () => (await openStreamsGauge(app)) === 0, 'every stream to be closed');
  });

  afterAll(async () => {
    await app.close();
    await backend.close();
  });

  it('polls a session once however many tabs it has, and a later tab hears the last count without a poll', async () => {
    await Promise.all([openTab('many'), openTab('many'), openTab('many')]);
    await openTab('one');
    expect(callsFor(backend, COUNT_PATH, 'many')).toBe(1);
    expect(callsFor(backend, COUNT_PATH, 'one')).toBe(1);
    // Three tabs cost one permission look-up, not three.
    expect(callsFor(backend, CALLS.permission, 'many')).toBe(1);

    const late = await openTab('many');
    expect(late.counts()).toEqual([4]);
    expect(callsFor(backend, COUNT_PATH, 'many')).toBe(1);
    // The metric counts the polls the backend got, one for one.
    const polled = Number(/gateway_withdrawal_polls_total (\d+)/.exec(await app.metrics.registry.metrics())?.[1]);
    expect(polled).toBe(totalPolls());
  });

  it('drops a session whose last tab left: a tab opened afterwards polls afresh', async () => {
    const pair = [await openTab('again'), await openTab('again')];
    expect(callsFor(backend, COUNT_PATH, 'again')).toBe(1);
    for (const tab of pair) tab.close();
    await waitUntil(async () => (await openStreamsGauge(app)) === 0, 'both streams to close');
    // A session still polled would hand the new tab its last count without asking the backend.
    state.counts.set('again', 6);
    const next = await openTab('again');
    expect(next.counts()).toEqual([6]);
    expect(callsFor(backend, COUNT_PATH, 'again')).toBe(2);
  });
});

describe('GET /api/events during shutdown', () => {
  let backend: FakeBackend;
  let state: BackendState;

  beforeAll(async () => {
    ({ backend, state } = await startBackend());
    state.permissions.set('late', REVIEWER_PERMISSIONS);
    state.counts.set('late', 1);
  });

  afterAll(async () => {
    await backend.close();
  });

  it('refuses new streams with 503, ends open ones with a retry hint, and lets close() finish', async () => {
    const app = await buildTestGateway({ CHAT_BACKEND_URL: backend.url, WITHDRAWAL_POLL_MS: String(POLL_MS) });
    const port = await listen(app);
    gatewayPort = port;
    const open = [
      await SseClient.open(port, await reviewer('late')),
      await SseClient.open(port, await reviewer('late')),
    ];
    for (const tab of open) await tab.waitFor(() => tab.counts().length > 0, 'the first count');

    // Logged in before the shutdown begins: from then on the gateway takes no new call at all.
    const lateCookie = await reviewer('late');
    app.shuttingDown = true;
    const refused = await SseClient.open(port, lateCookie);
    await refused.waitFor(() => refused.ended, 'the refusal');
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 503, error: 'SHUTTING_DOWN' });

    await app.close();
    for (const tab of open) {
      await tab.waitFor(() => tab.ended, 'the stream to end');
      expect(tab.retries).toEqual([3000]);
    }
    expect(await openStreamsGauge(app)).toBe(0);
    const polls = callsFor(backend, COUNT_PATH, 'late');
    await sleep(POLL_MS * 3);
    expect(callsFor(backend, COUNT_PATH, 'late')).toBe(polls);
  });
});
