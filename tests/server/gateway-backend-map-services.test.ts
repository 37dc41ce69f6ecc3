import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS, RESOURCES, resourceCalls } from '../../server/contract/index.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { SAME_ORIGIN, buildTestGateway } from './support/gateway.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../support/fake-backend.js';
import { fakeLogIn, routeFakeLogin } from '../support/fake-session.js';

/**
 * A backend split over two services, bound by one map: each call reaches the address of the
 * service it names, with the session's credentials; a console call made of several backend calls
 * (`also`) makes them in order and answers one merged answer, stopping at the first refusal; a
 * call of several requests (`each`) sends every one to its service.
 */

const calls = (id: string) => resourceCalls(RESOURCES.find((r) => r.id === id)!);

const MAP: BackendMapFile = {
  services: { chat: { env: 'CHAT_API_URL' } },
  answer: { code: '/errCode', message: '/errMsg', data: '/data', success: [0] },
  resources: {
    users: {
      calls: {
        list: {
          service: 'chat',
          method: 'POST',
          path: '/user/search',
          template: { page: '{pageNum}' },
          answer: { list: '/data/users', total: '/data/total' },
        },
      },
    },
    siteFunctions: {
      fields: { registerEnabled: { name: 'allowRegister' }, maxGroupMembers: { asText: true } },
      calls: {
        config: {
          method: 'POST',
          path: '/config/get',
          template: {},
          answer: { record: '/config', recordAs: '' },
          also: [{ method: 'POST', path: '/register/get', template: {} }],
        },
        saveConfig: {
          method: 'POST',
          path: '/config/set',
          template: { config: { chatRoomName: '{chatRoomName}', maxGroupMembers: '{maxGroupMembers}' } },
          also: [{ method: 'POST', path: '/register/set', template: { allowRegister: '{registerEnabled}' } }],
        },
      },
    },
    sensitiveWords: {
      calls: {
        delete: { service: 'chat', method: 'POST', path: '/word/del', template: { id: '{id}' }, each: true },
      },
    },
    dailyStatistics: {
      calls: {
        list: {
          method: 'POST',
          path: '/stats/new',
          template: { start: '{startDate}', end: '{endDate}' },
          dates: { format: 'epoch-millis', exclusiveEnd: true },
          answer: { days: { registrations: '/data/date_count' } },
          also: [
            {
              service: 'chat',
              method: 'POST',
              path: '/stats/login',
              template: { start: '{startDate}', end: '{endDate}' },
              dates: { format: 'epoch-millis', exclusiveEnd: true },
              answer: { days: { activeUsers: '/data/count' } },
            },
          ],
        },
      },
    },
  },
  console: {
    calls: {
      siteConfig: { service: 'chat', method: 'POST', path: '/config/get', template: {}, answer: { record: '/config' } },
    },
  },
};

describe('a backend map over two services', () => {
  let admin: FakeBackend;
  let chat: FakeBackend;
  let app: FastifyInstance;
  let session: Record<string, string>;
  let refuseRegister = false;
  const config: Record<string, string> = { chatRoomName: 'Two Services', maxGroupMembers: '500' };
  let allowRegister = true;
  const deleted: string[] = [];

  beforeAll(async () => {
    admin = await startFakeBackend();
    chat = await startFakeBackend();
    routeFakeLogin(admin);
    chat.route('POST /user/search', (_call, res) =>
      sendJson(res, { errCode: 0, errMsg: '', data: { users: [{ id: 7 }], total: 1 } }),
    );
    for (const backend of [admin, chat])
      backend.route('POST /config/get', (_call, res) => sendJson(res, { errCode: 0, errMsg: '', data: { config } }));
    admin.route('POST /config/set', (call, res) => {
      Object.assign(config, (JSON.parse(call.body) as { config: Record<string, string> }).config);
      sendJson(res, { errCode: 0, errMsg: '' });
    });
    admin.route('POST /register/get', (_call, res) =>
      sendJson(res, { errCode: 0, errMsg: '', data: { allowRegister } }),
    );
    admin.route('POST /register/set', (call, res) => {
      if (refuseRegister) return sendJson(res, { errCode: 1002, errMsg: 'NoPermissionError' });
      allowRegister = (JSON.parse(call.body) as { allowRegister: boolean }).allowRegister;
      sendJson(res, { errCode: 0, errMsg: '' });
    });
    admin.route('POST /stats/new', (_call, res) =>
      sendJson(res, { errCode: 0, errMsg: '', data: { total: 9, date_count: { '2024-06-02': 4 } } }),
    );
    chat.route('POST /word/del', (call, res) => {
      deleted.push((JSON.parse(call.body) as { id: string }).id);
      sendJson(res, { errCode: 0, errMsg: '' });
    });
    chat.route('POST /stats/login', (_call, res) =>
      sendJson(res, { errCode: 0, errMsg: '', data: { count: { '2024-06-01': 2, '2024-06-02': 3 } } }),
    );
    const dir = mkdtempSync(path.join(tmpdir(), 'gw-services-'));
    writeFileSync(path.join(dir, 'map.json'), JSON.stringify(MAP));
    app = await buildTestGateway({
      CHAT_BACKEND_URL: admin.url,
      CHAT_API_URL: chat.url,
      UPSTREAM_TIMEOUT_MS: '2000',
      BACKEND_MAP: path.join(dir, 'map.json'),
    });
    session = await fakeLogIn(app, { token: 'tok-split', userId: '5' });
  });

  afterAll(async () => {
    await app?.close();
    await admin?.close();
    await chat?.close();
  });

  const since = (backend: FakeBackend) => {
    const start = backend.calls.length;
    return () => backend.calls.slice(start).map((c) => c.url.split('?')[0]);
  };

  it('sends a call naming a service to that service’s address, with the session’s credentials', async () => {
    const [onAdmin, onChat] = [since(admin), since(chat)];
    const res = await app.inject({
      method: 'GET',
      url: `${calls('users').list}?pageNum=1&pageSize=5`,
      cookies: session,
    });
    expect(res.json()).toEqual({ code: 200, msg: '', data: { list: [{ id: 7 }], total: 1 } });
    expect(onChat()).toEqual(['/user/search']);
    expect(onAdmin()).toEqual([]);
    expect(chat.calls.at(-1)!.headers['w-token']).toBe('tok-split');
  });

  it('reads the site configuration before login from the service the map names, without credentials', async () => {
    const onChat = since(chat);
    const res = await app.inject({ method: 'GET', url: CALLS.siteConfig });
    expect(res.json()).toMatchObject({ code: 200, data: { chatRoomName: 'Two Services' } });
    expect(onChat()).toEqual(['/config/get']);
    expect(chat.calls.at(-1)!.headers['w-token']).toBeUndefined();
  });

  it('reads one settings form from two calls, merged', async () => {
    const onAdmin = since(admin);
    const res = await app.inject({ method: 'GET', url: calls('siteFunctions').config, cookies: session });
    expect(res.json()).toEqual({
      code: 200,
      msg: '',
      data: { chatRoomName: 'Two Services', maxGroupMembers: 500, registerEnabled: true },
    });
    expect(onAdmin()).toEqual(['/config/get', '/register/get']);
  });

  it('saves one settings form over two calls in order, each with its members', async () => {
    const onAdmin = since(admin);
    const res = await app.inject({
      method: 'POST',
      url: calls('siteFunctions').config,
      cookies: session,
      headers: SAME_ORIGIN,
      payload: { chatRoomName: 'Renamed', maxGroupMembers: 800, registerEnabled: false },
    });
    expect(res.json()).toMatchObject({ code: 200 });
    // The audit trail reads the settings first (the values before the save), over the same two calls.
    expect(onAdmin()).toEqual(['/config/get', '/register/get', '/config/set', '/register/set']);
    expect(config).toEqual({ chatRoomName: 'Renamed', maxGroupMembers: '800' });
    expect(allowRegister).toBe(false);
  });

  it('answers the first refusal of the calls, what the calls before it wrote staying written', async () => {
    refuseRegister = true;
    try {
      const res = await app.inject({
        method: 'POST',
        url: calls('siteFunctions').config,
        cookies: session,
        headers: SAME_ORIGIN,
        payload: { chatRoomName: 'Half saved', maxGroupMembers: 800, registerEnabled: true },
      });
      expect(res.json()).toEqual({ code: 1002, msg: 'NoPermissionError' });
      expect(config.chatRoomName).toBe('Half saved');
      expect(allowRegister).toBe(false);
    } finally {
      refuseRegister = false;
    }
  });

  it('sends each request of a plan (one per id) to the service its call names', async () => {
    const [onAdmin, onChat] = [since(admin), since(chat)];
    const res = await app.inject({
      method: 'POST',
      url: calls('sensitiveWords').remove,
      cookies: session,
      headers: SAME_ORIGIN,
      payload: { ids: ['w1', 'w2'] },
    });
    expect(res.json()).toEqual({ code: 200, msg: 'ok', data: { done: ['w1', 'w2'] } });
    expect(onChat()).toEqual(['/word/del', '/word/del']);
    expect(deleted).toEqual(['w1', 'w2']);
    expect(onAdmin()).not.toContain('/word/del');
  });

  it('merges statistics from calls to two services into one row per day', async () => {
    const [onAdmin, onChat] = [since(admin), since(chat)];
    const res = await app.inject({
      method: 'GET',
      url: `${calls('dailyStatistics').list}?startDate=2024-06-01&endDate=2024-06-03`,
      cookies: session,
    });
    expect(res.json()).toEqual({
      code: 200,
      msg: '',
      data: {
        list: [
          { date: '2024-06-01', registrations: 0, activeUsers: 2 },
          { date: '2024-06-02', registrations: 4, activeUsers: 3 },
          { date: '2024-06-03', registrations: 0, activeUsers: 0 },
        ],
        total: 3,
      },
    });
    expect(onAdmin()).toEqual(['/stats/new']);
    expect(onChat()).toEqual(['/stats/login']);
    // The console's last day is whole: the backend's exclusive end is the next day's first instant (UTC here).
    expect(JSON.parse(chat.calls.at(-1)!.body)).toEqual({ start: Date.UTC(2024, 5, 1), end: Date.UTC(2024, 5, 4) });
  });
});
