import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { encodeBody } from '../../server/codec/index.js';
import { SAME_ORIGIN, TEST_KEY_TEXT, buildTestGateway, parseSetCookies } from './support/gateway.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../support/fake-backend.js';
import { logInInject } from '../support/fake-session.js';

const key = { key: Buffer.from(TEST_KEY_TEXT), iv: Buffer.alloc(16), mode: 'cbc' as const };

describe('session: login, logout and /api/session', () => {
  let backend: FakeBackend;
  let app: FastifyInstance;

  beforeAll(async () => {
    backend = await startFakeBackend();
    backend.route('POST /manage/logIn', (call, res) => {
      const body = JSON.parse(call.body) as { account: string; password: string; code: string };
      if (body.account === 'admin' && body.password === 'admin123') {
        return sendJson(res, { code: 200, msg: 'ok', data: { token: 'tok-admin-1', userId: 7 } });
      }
      if (body.account === 'encoded' && body.password === 'pw') {
        const text = encodeBody(
          JSON.stringify({ code: 200, msg: 'ok', data: { token: 'tok-enc', userId: '9' } }),
          1,
          key,
        );
        res.writeHead(200, { 'content-type': 'text/plain', 'w-enable-mode': '1' });
        return void res.end(text);
      }
      return sendJson(res, { code: 1001, msg: 'Wrong account or password' });
    });
    backend.route('GET /manage/whoami', (call, res) =>
      sendJson(res, {
        code: 200,
        msg: 'ok',
        data: { token: call.headers['w-token'], userId: call.headers['w-userid'] },
      }),
    );
    app = await buildTestGateway({ CHAT_BACKEND_URL: backend.url });
  });

  afterAll(async () => {
    await app.close();
    await backend.close();
  });

  it('trims the account, sets two httpOnly strict cookies, seals the token and hides it from the body', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/manage/logIn',
      headers: SAME_ORIGIN,
      payload: { account: '  admin  ', password: 'admin123', code: '' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({ code: 200, msg: 'ok', data: { userId: '7' } });
    expect(response.body).not.toContain('tok-admin-1');
    const sent = JSON.parse(backend.calls.at(-1)!.body);
    expect(sent).toEqual({ account: 'admin', password: 'admin123', code: '' });

    const cookies = parseSetCookies(response.headers['set-cookie']);
    for (const name of ['token', 'userId']) {
      const cookie = cookies.get(name)!;
      expect(cookie.attributes).toContain('httponly');
      expect(cookie.attributes).toContain('samesite=strict');
      expect(cookie.attributes).toContain('path=/');
      expect(cookie.attributes).not.toContain('secure'); // plain HTTP with COOKIE_SECURE=auto
    }
    // The token cookie is sealed: the browser never holds the backend's token in the clear.
    expect(cookies.get('token')!.value).not.toContain('tok-admin-1');
    expect(cookies.get('userId')!.value).toBe('7');
    const whoami = await app.inject({
      method: 'GET',
      url: '/manage/whoami',
      cookies: { token: cookies.get('token')!.value },
    });
    expect(whoami.json()).toMatchObject({ data: { token: 'tok-admin-1', userId: '7' } });
  });

  it('decodes an encoded login answer before reading the token', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/manage/logIn',
      headers: SAME_ORIGIN,
      payload: { account: 'encoded', password: 'pw' },
    });
    expect(response.json()).toEqual({ code: 200, msg: 'ok', data: { userId: '9' } });
    const sealed = parseSetCookies(response.headers['set-cookie']).get('token')!.value;
    const whoami = await app.inject({ method: 'GET', url: '/manage/whoami', cookies: { token: sealed } });
    expect(whoami.json()).toMatchObject({ data: { token: 'tok-enc', userId: '9' } });
  });

  it('sets no cookie when the backend refuses the login', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/manage/logIn',
      headers: SAME_ORIGIN,
      payload: { account: 'admin', password: 'nope' },
    });
    expect(response.json()).toMatchObject({ code: 1001, msg: 'Wrong account or password' });
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a malformed login body with a clear 400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/manage/logIn',
      headers: { ...SAME_ORIGIN, 'content-type': 'application/json' },
      payload: '{"account": "admin", ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 400, error: 'BAD_REQUEST' });
    const missing = await app.inject({
      method: 'POST',
      url: '/manage/logIn',
      headers: SAME_ORIGIN,
      payload: { account: 'admin' },
    });
    expect(missing.statusCode).toBe(400);
  });

  it('reports the session it sealed, and none for a cookie it did not seal', async () => {
    const anonymous = await app.inject({ method: 'GET', url: '/api/session' });
    expect(anonymous.json()).toEqual({
      loggedIn: false,
      userId: null,
      name: 'Admin',
      sandbox: false,
      webClientUrl: null,
      sandboxDialect: null,
      currency: 'CNY',
      siteConfigOffered: true,
    });
    const forged = await app.inject({ method: 'GET', url: '/api/session', cookies: { token: 'abc', userId: '7' } });
    expect(forged.json()).toEqual({
      loggedIn: false,
      userId: null,
      name: 'Admin',
      sandbox: false,
      webClientUrl: null,
      sandboxDialect: null,
      currency: 'CNY',
      siteConfigOffered: true,
    });
    const cookies = await logInInject(app, { account: 'admin', password: 'admin123' });
    // The userId cookie is not what the gateway believes: the sealed value is.
    const known = await app.inject({ method: 'GET', url: '/api/session', cookies: { ...cookies, userId: '999' } });
    expect(known.json()).toEqual({
      loggedIn: true,
      userId: '7',
      name: 'Admin',
      sandbox: false,
      webClientUrl: null,
      sandboxDialect: null,
      currency: 'CNY',
      siteConfigOffered: true,
    });
  });

  it("tells the UI the web client's address when WEB_CLIENT_URL sets it", async () => {
    const configured = await buildTestGateway({
      CHAT_BACKEND_URL: backend.url,
      WEB_CLIENT_URL: 'https://im.chat.example.com/',
    });
    try {
      const answer = await configured.inject({ method: 'GET', url: '/api/session' });
      expect(answer.json()).toMatchObject({ loggedIn: false, webClientUrl: 'https://im.chat.example.com' });
    } finally {
      await configured.close();
    }
  });

  it('tells the UI the currency of the wallet, CNY unless CURRENCY names another, and refuses a malformed code', async () => {
    const configured = await buildTestGateway({ CHAT_BACKEND_URL: backend.url, CURRENCY: 'eur' });
    try {
      const answer = await configured.inject({ method: 'GET', url: '/api/session' });
      expect(answer.json()).toMatchObject({ currency: 'EUR' });
    } finally {
      await configured.close();
    }
    await expect(buildTestGateway({ CHAT_BACKEND_URL: backend.url, CURRENCY: 'euros' })).rejects.toThrow(/CURRENCY/);
  });

  it('logs out by clearing both cookies', async () => {
    const cookies = await logInInject(app, { account: 'admin', password: 'admin123' });
    const response = await app.inject({ method: 'POST', url: '/api/logout', headers: SAME_ORIGIN, cookies });
    expect(response.statusCode).toBe(204);
    const cleared = parseSetCookies(response.headers['set-cookie']);
    expect(cleared.get('token')!.value).toBe('');
    expect(cleared.get('userId')!.value).toBe('');
    expect(cleared.get('token')!.attributes.some((a) => a.startsWith('expires=thu, 01 jan 1970'))).toBe(true);
  });

  it('marks cookies Secure when the request came over HTTPS through a trusted proxy', async () => {
    const proxied = await buildTestGateway({ CHAT_BACKEND_URL: backend.url, TRUST_PROXY: 'true' });
    try {
      const response = await proxied.inject({
        method: 'POST',
        url: '/manage/logIn',
        headers: {
          origin: 'https://console.example',
          host: 'console.example',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'console.example',
        },
        payload: { account: 'admin', password: 'admin123' },
      });
      expect(response.statusCode).toBe(200);
      expect(parseSetCookies(response.headers['set-cookie']).get('token')!.attributes).toContain('secure');
    } finally {
      await proxied.close();
    }
  });
});
