import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { encodeBody } from '../../server/codec/index.js';
import { GATEWAY_PATHS, RESOURCES, resourceCalls } from '../../server/contract/index.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { SAME_ORIGIN, TEST_KEY_TEXT, buildTestGateway } from './support/gateway.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../support/fake-backend.js';
import { fakeLogIn, routeFakeLogin } from '../support/fake-session.js';

/**
 * The gateway with a backend map in front of a real (fake) backend: mapped calls reach the backend
 * in its dialect with the session's credentials, encoded answers are decoded before mapping, and
 * what the map leaves out is refused without a call.
 */

const key = { key: Buffer.from(TEST_KEY_TEXT), iv: Buffer.alloc(16), mode: 'cbc' as const };
const calls = (id: string) => resourceCalls(RESOURCES.find((r) => r.id === id)!);

const MAP: BackendMapFile = {
  answer: { code: '/code', message: '/message', success: [0] },
  resources: {
    users: {
      fields: {
        registerTime: { name: 'createTime', time: 'yyyy-MM-dd HH:mm:ss' },
        balance: { money: 'yuan' },
        status: { values: { normal: 0, banned: 1 } },
      },
      calls: {
        list: {
          path: '/manage/user/page',
          params: { pageNum: 'current', pageSize: 'size' },
          answer: { list: '/data/records', total: '/data/total' },
        },
        update: { path: '/manage/user/update', in: 'form' },
        detail: { path: '/manage/user/{id}' },
      },
      actions: { resetPassword: { unsupported: true } },
    },
    googleVerify: { unsupported: true },
  },
};

describe('the gateway with a backend map', () => {
  let backend: FakeBackend;
  let app: FastifyInstance;
  let session: Record<string, string>;

  beforeAll(async () => {
    backend = await startFakeBackend();
    routeFakeLogin(backend);
    backend.route('GET /manage/user/page', (_call, res) => {
      const text = JSON.stringify({
        code: 0,
        message: 'success',
        data: { records: [{ id: 3, createTime: '2024-06-01 08:00:00', balance: '1.50', status: 1 }], total: 31 },
      });
      res.writeHead(200, { 'content-type': 'text/plain', 'w-enable-mode': '1' });
      res.end(encodeBody(text, 1, key));
    });
    backend.route('POST /manage/user/update', (call, res) =>
      sendJson(res, { code: 0, message: 'saved', data: Object.fromEntries(new URLSearchParams(call.body)) }),
    );
    backend.route('GET /manage/user/9', (_call, res) => sendJson(res, { code: 0, data: { id: 9, status: 0 } }));
    backend.route('GET /manage/user/10', (_call, res) =>
      sendJson(res, { code: 404, message: 'No such interface: GET /manage/user/10' }),
    );
    backend.route('GET /manage/user/11', (_call, res) => sendJson(res, { code: 401, message: 'Login expired' }));
    backend.route(`GET ${calls('groups').list}`, (_call, res) =>
      sendJson(res, { code: 200, msg: 'ok', data: { list: [{ id: 1 }], total: 1 } }),
    );
    const dir = mkdtempSync(path.join(tmpdir(), 'gw-map-'));
    writeFileSync(path.join(dir, 'map.json'), JSON.stringify(MAP));
    app = await buildTestGateway({
      CHAT_BACKEND_URL: backend.url,
      UPSTREAM_TIMEOUT_MS: '2000',
      BACKEND_MAP: path.join(dir, 'map.json'),
    });
    session = await fakeLogIn(app, { token: 'tok-map', userId: '5' });
  });

  afterAll(async () => {
    await app?.close();
    await backend?.close();
  });

  const reached = (prefix: string) => backend.calls.filter((c) => c.url.startsWith(prefix));

  it('sends the backend its own list call with the session, decodes the answer, and maps it back', async () => {
    const res = await app.inject({
      method: 'GET',
      url: `${calls('users').list}?pageNum=2&pageSize=10`,
      cookies: session,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      code: 200,
      msg: 'success',
      data: { list: [{ id: 3, registerTime: '2024-06-01T08:00:00.000Z', balance: 150, status: 'banned' }], total: 31 },
    });
    const call = reached('/manage/user/page').at(-1)!;
    expect(call.url).toBe('/manage/user/page?current=2&size=10');
    expect(call.headers['w-token']).toBe('tok-map');
    expect(call.headers['w-userid']).toBe('5');
  });

  it('writes a save as a form in the backend units', async () => {
    const res = await app.inject({
      method: 'POST',
      url: calls('users').save,
      cookies: session,
      headers: SAME_ORIGIN,
      payload: { id: 4, nickname: 'Ann', balance: 250 },
    });
    const sent = reached('/manage/user/update').at(-1)!;
    expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent.body).toBe('id=4&nickname=Ann&balance=2.5');
    // The backend's echo comes back in the console's units.
    expect(res.json()).toEqual({ code: 200, msg: 'saved', data: { id: '4', nickname: 'Ann', balance: 250 } });
  });

  it('passes refusals on in the console envelope and names a call the backend lacks', async () => {
    expect(
      (await app.inject({ method: 'GET', url: `${calls('users').detail}?id=9`, cookies: session })).json(),
    ).toEqual({
      code: 200,
      msg: 'ok',
      data: { id: 9, status: 'normal' },
    });
    expect(
      (await app.inject({ method: 'GET', url: `${calls('users').detail}?id=11`, cookies: session })).json(),
    ).toEqual({ code: 401, msg: 'Login expired' });
    const missing = await app.inject({ method: 'GET', url: `${calls('users').detail}?id=10`, cookies: session });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({
      code: 404,
      error: 'BACKEND_NO_SUCH_CALL',
      data: { method: 'GET', path: '/manage/user/10' },
    });
    const preview = await app.inject({ method: 'GET', url: calls('users').preview, cookies: session });
    expect(preview.json()).toMatchObject({
      error: 'BACKEND_NO_SUCH_CALL',
      data: { method: 'GET', path: calls('users').preview },
    });
  });

  it('refuses what the map marks unsupported without calling the backend, and tells the UI', async () => {
    const before = backend.calls.length;
    const action = await app.inject({
      method: 'POST',
      url: calls('users').action('resetPassword'),
      cookies: session,
      headers: SAME_ORIGIN,
      payload: { id: 1 },
    });
    expect(action.statusCode).toBe(404);
    expect(action.json()).toMatchObject({ error: 'UNSUPPORTED_BY_BACKEND', data: { call: 'users.resetPassword' } });
    const google = await app.inject({ method: 'GET', url: calls('googleVerify').list, cookies: session });
    expect(google.json()).toMatchObject({ error: 'UNSUPPORTED_BY_BACKEND', data: { call: 'googleVerify.list' } });
    expect(backend.calls.length).toBe(before);
    const offer = await app.inject({ method: 'GET', url: GATEWAY_PATHS.backendOffer, cookies: session });
    expect(offer.json()).toEqual({
      unsupported: {
        resources: ['googleVerify'],
        calls: {},
        actions: { users: ['resetPassword'] },
        fields: {},
        filters: {},
        console: [],
      },
    });
  });

  it('reads bodies as the proxy does: an empty one as none, one it cannot translate refused', async () => {
    const ban = calls('users').action('ban');
    backend.route(`POST ${ban}`, (call, res) => sendJson(res, { code: 0, data: { body: call.body } }));
    const empty = await app.inject({
      method: 'POST',
      url: ban,
      cookies: session,
      headers: { ...SAME_ORIGIN, 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.json()).toEqual({ code: 200, msg: 'ok', data: { body: '{}' } });
    const form = await app.inject({
      method: 'POST',
      url: ban,
      cookies: session,
      headers: { ...SAME_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'id=1',
    });
    expect(form.statusCode).toBe(415);
    expect(form.json()).toMatchObject({ error: 'UNSUPPORTED_MEDIA_TYPE' });
    const deep = await app.inject({
      method: 'POST',
      url: ban,
      cookies: session,
      headers: { ...SAME_ORIGIN, 'content-type': 'application/json' },
      payload: '['.repeat(100) + ']'.repeat(100),
    });
    expect(deep.json()).toMatchObject({ error: 'BAD_REQUEST' });
  });

  it('leaves resources the map does not name to the proxy, and still wants a session', async () => {
    expect((await app.inject({ method: 'GET', url: calls('groups').list, cookies: session })).json()).toEqual({
      code: 200,
      msg: 'ok',
      data: { list: [{ id: 1 }], total: 1 },
    });
    const anonymous = await app.inject({ method: 'GET', url: calls('users').list });
    expect(anonymous.statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: GATEWAY_PATHS.backendOffer })).statusCode).toBe(401);
  });
});
