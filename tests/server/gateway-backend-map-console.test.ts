import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  CALLS,
  GATEWAY_PATHS,
  RESOURCES,
  WITHDRAWAL_REVIEW_PERMISSION,
  resourceCalls,
} from '../../server/contract/index.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { SAME_ORIGIN, buildTestGateway } from './support/gateway.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../support/fake-backend.js';
import { cookieHeader, fakeLogIn, routeFakeLogin } from '../support/fake-session.js';
import { SseClient } from '../support/sse-client.js';

/**
 * The console's own calls through a map's `console` section, against a real (fake) backend that
 * speaks another dialect for them ({resultCode: 1, resultMsg, data}, snake_case, yuan): each
 * bound call reaches it in its dialect and comes back as the contract's, the event stream's count
 * comes from the mapped poll, and each call marked unsupported is refused without a backend call.
 */

const SYNC_PATH = resourceCalls(RESOURCES.find((r) => r.id === 'withdrawalReview')!).action('syncCashWithdrawal');
const POLL_MS = 100;

const BOUND: BackendMapFile = {
  answer: { code: '/resultCode', message: '/resultMsg', success: [1] },
  console: {
    keyCase: 'snake',
    calls: {
      siteConfig: { path: '/config', fields: { chatRoomName: { name: 'app_name' }, webIconPath: { name: 'icon' } } },
      count: {
        path: '/console/countNum',
        fields: { userCount: { name: 'userNum' }, rechargeToday: { money: 'yuan' } },
      },
      runnerSetMoment: {
        path: '/console/switch/moment',
        in: 'form',
        fields: { enabled: { name: 'on', values: { true: 1, false: 0 } } },
      },
      withdrawalCount: {
        method: 'POST',
        path: '/console/systemRecharge',
        in: 'form',
        extra: { type: 2 },
        answer: { data: '/count' },
      },
      logout: { path: '/console/logout' },
    },
  },
  resources: {
    withdrawalReview: {
      actions: {
        syncCashWithdrawal: { path: '/console/trade/sync', answer: { relations: { synced: { at: '/synced_count' } } } },
      },
    },
  },
};

const UNSUPPORTED: BackendMapFile = {
  console: {
    calls: {
      siteConfig: { unsupported: true },
      financeData: { unsupported: true },
      monitoring: { unsupported: true },
      runner: { unsupported: true },
      withdrawalCount: { unsupported: true },
      logout: { unsupported: true },
    },
  },
  resources: { withdrawalReview: { actions: { syncCashWithdrawal: { unsupported: true } } } },
};

function writeMap(map: BackendMapFile): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'gw-console-')), 'map.json');
  writeFileSync(file, JSON.stringify(map));
  return file;
}

async function startBackend(): Promise<{ backend: FakeBackend; pending: { count: number } }> {
  const backend = await startFakeBackend();
  const pending = { count: 3 };
  routeFakeLogin(backend);
  backend.route(`GET ${CALLS.permission}`, (_call, res) =>
    sendJson(res, { code: 200, msg: 'ok', data: [{ permission: WITHDRAWAL_REVIEW_PERMISSION }] }),
  );
  backend.route('GET /config', (_call, res) =>
    sendJson(res, { resultCode: 1, data: { app_name: 'Shiku chat', icon: '/icon.png' } }),
  );
  backend.route('GET /console/countNum', (_call, res) =>
    sendJson(res, { resultCode: 1, data: { userNum: 12, recharge_today: '45.60', online_users: 2 } }),
  );
  backend.route('POST /console/switch/moment', (call, res) =>
    sendJson(res, { resultCode: 1, resultMsg: 'set', data: { moment: call.body === 'on=1' } }),
  );
  backend.route('POST /console/systemRecharge', (_call, res) =>
    sendJson(res, { resultCode: 1, data: [], count: pending.count }),
  );
  backend.route('POST /console/logout', (_call, res) => sendJson(res, { resultCode: 1 }));
  backend.route('POST /console/trade/sync', (_call, res) =>
    sendJson(res, { resultCode: 1, data: { synced_count: 2 } }),
  );
  backend.route(`GET ${CALLS.dailyStatistics}`, (_call, res) =>
    sendJson(res, { code: 200, msg: 'ok', data: { startDate: 'a', endDate: 'b', list: [] } }),
  );
  return { backend, pending };
}

describe('the gateway with a map binding the console own calls', () => {
  let backend: FakeBackend;
  let pending: { count: number };
  let app: FastifyInstance;
  let session: Record<string, string>;

  beforeAll(async () => {
    ({ backend, pending } = await startBackend());
    app = await buildTestGateway({
      CHAT_BACKEND_URL: backend.url,
      BACKEND_MAP: writeMap(BOUND),
      WITHDRAWAL_POLL_MS: String(POLL_MS),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    session = await fakeLogIn(app, { token: 'tok-own', userId: '8' });
  });

  afterAll(async () => {
    await app?.close();
    await backend?.close();
  });

  const last = (prefix: string) => backend.calls.filter((c) => c.url.startsWith(prefix)).at(-1);

  it('reads the site configuration in the backend dialect, without credentials even when logged in', async () => {
    const res = await app.inject({ method: 'GET', url: CALLS.siteConfig, cookies: session });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      code: 200,
      msg: 'ok',
      data: { chatRoomName: 'Shiku chat', webIconPath: '/icon.png' },
    });
    expect(last('/config')!.headers['w-token']).toBeUndefined();
    const guest = await app.inject({ method: 'GET', url: CALLS.siteConfig });
    expect(guest.json()).toMatchObject({ data: { chatRoomName: 'Shiku chat' } });
  });

  it('tells the session that the site configuration is offered', async () => {
    const guest = await app.inject({ method: 'GET', url: GATEWAY_PATHS.session });
    expect(guest.json()).toMatchObject({ loggedIn: false, siteConfigOffered: true });
  });

  it('maps a dashboard figure both ways, with the session', async () => {
    const res = await app.inject({ method: 'GET', url: CALLS.count, cookies: session });
    expect(res.json()).toEqual({ code: 200, msg: 'ok', data: { userCount: 12, rechargeToday: 4560, onlineUsers: 2 } });
    expect(last('/console/countNum')!.headers['w-token']).toBe('tok-own');
    expect((await app.inject({ method: 'GET', url: CALLS.count })).statusCode).toBe(401);
  });

  it('sends a deployment switch as the backend form', async () => {
    const res = await app.inject({
      method: 'POST',
      url: CALLS.runnerSetMoment,
      cookies: session,
      headers: SAME_ORIGIN,
      payload: { enabled: true },
    });
    expect(res.json()).toEqual({ code: 200, msg: 'set', data: { moment: true } });
    expect(last('/console/switch/moment')!.body).toBe('on=1');
  });

  it('passes a call the section does not name through the proxy unchanged', async () => {
    const res = await app.inject({
      method: 'GET',
      url: `${CALLS.dailyStatistics}?startDate=2024-06-01`,
      cookies: session,
    });
    expect(res.json()).toMatchObject({ code: 200, data: { list: [] } });
    expect(last(CALLS.dailyStatistics)!.url).toBe(`${CALLS.dailyStatistics}?startDate=2024-06-01`);
  });

  it('binds the sync as the withdrawal review action', async () => {
    const res = await app.inject({
      method: 'POST',
      url: SYNC_PATH,
      cookies: session,
      headers: SAME_ORIGIN,
      payload: {},
    });
    expect(res.json()).toEqual({ code: 200, msg: 'ok', data: { synced: 2 } });
  });

  it('streams the withdrawal count the mapped poll reads, and its changes', async () => {
    const port = (app.server.address() as AddressInfo).port;
    const tab = await SseClient.open(port, cookieHeader(session));
    try {
      expect(tab.status).toBe(200);
      await tab.waitFor(() => tab.counts().includes(3), 'the first count');
      pending.count = 5;
      await tab.waitFor(() => tab.counts().includes(5), 'the changed count');
      expect(last('/console/systemRecharge')!.body).toBe('type=2');
    } finally {
      tab.close();
    }
  });

  it('tells the backend of a logout at the mapped path, and ends the session', async () => {
    const own = await fakeLogIn(app, { token: 'tok-out', userId: '9' });
    const res = await app.inject({ method: 'POST', url: GATEWAY_PATHS.logout, cookies: own, headers: SAME_ORIGIN });
    expect(res.statusCode).toBe(204);
    expect(last('/console/logout')!.headers['w-token']).toBe('tok-out');
    expect((await app.inject({ method: 'GET', url: CALLS.count, cookies: own })).statusCode).toBe(401);
  });
});

describe('the gateway with a map marking the console own calls unsupported', () => {
  let backend: FakeBackend;
  let app: FastifyInstance;
  let session: Record<string, string>;

  beforeAll(async () => {
    ({ backend } = await startBackend());
    app = await buildTestGateway({
      CHAT_BACKEND_URL: backend.url,
      BACKEND_MAP: writeMap(UNSUPPORTED),
      BACKEND_LOGOUT_PATH: '/console/logout',
      WITHDRAWAL_POLL_MS: String(POLL_MS),
    });
    session = await fakeLogIn(app, { token: 'tok-none', userId: '3' });
  });

  afterAll(async () => {
    await app?.close();
    await backend?.close();
  });

  it.each([
    ['GET', CALLS.siteConfig, 'console.siteConfig'],
    ['GET', CALLS.financeData, 'console.financeData'],
    ['GET', CALLS.monitoring, 'console.monitoring'],
    ['GET', CALLS.runner, 'console.runner'],
    ['POST', SYNC_PATH, 'withdrawalReview.syncCashWithdrawal'],
    ['GET', GATEWAY_PATHS.events, 'console.withdrawalCount'],
  ] as const)('refuses %s %s with 404 UNSUPPORTED_BY_BACKEND and no backend call', async (method, url, call) => {
    const before = backend.calls.length;
    const res = await app.inject({
      method,
      url,
      cookies: session,
      ...(method === 'POST' ? { headers: SAME_ORIGIN, payload: {} } : {}),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 404, error: 'UNSUPPORTED_BY_BACKEND', data: { call } });
    expect(backend.calls.length).toBe(before);
  });

  it('ends the session at logout without telling the backend', async () => {
    const own = await fakeLogIn(app, { token: 'tok-quiet', userId: '4' });
    const before = backend.calls.length;
    const res = await app.inject({ method: 'POST', url: GATEWAY_PATHS.logout, cookies: own, headers: SAME_ORIGIN });
    expect(res.statusCode).toBe(204);
    expect(backend.calls.length).toBe(before);
    expect((await app.inject({ method: 'GET', url: GATEWAY_PATHS.session, cookies: own })).json()).toMatchObject({
      loggedIn: false,
    });
  });

  it('tells before login that the site configuration is not offered, and after it too', async () => {
    const guest = await app.inject({ method: 'GET', url: GATEWAY_PATHS.session });
    expect(guest.json()).toMatchObject({ loggedIn: false, siteConfigOffered: false });
    const known = await app.inject({ method: 'GET', url: GATEWAY_PATHS.session, cookies: session });
    expect(known.json()).toMatchObject({ loggedIn: true, siteConfigOffered: false });
  });

  it('says in the offer what is left out', async () => {
    const offer = await app.inject({ method: 'GET', url: GATEWAY_PATHS.backendOffer, cookies: session });
    expect(offer.json()).toEqual({
      unsupported: {
        resources: [],
        calls: {},
        actions: { withdrawalReview: ['syncCashWithdrawal'] },
        fields: {},
        filters: {},
        console: ['siteConfig', 'financeData', 'runner', 'monitoring', 'withdrawalCount', 'logout'],
      },
    });
  });
});
