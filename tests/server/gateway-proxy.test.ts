import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createCipheriv } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { encodeBody } from '../../server/codec/index.js';
import { SAME_ORIGIN, TEST_KEY_TEXT, buildTestGateway } from './support/gateway.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../support/fake-backend.js';
import { fakeLogIn, routeFakeLogin } from '../support/fake-session.js';

const key = { key: Buffer.from(TEST_KEY_TEXT), iv: Buffer.alloc(16), mode: 'cbc' as const };
/** The session cookies of a login as backend token tok-1, user 7. */
let session: Record<string, string>;
const answer = { code: 200, msg: 'ok', data: { list: [{ id: 1, name: '张三' }], total: 1 } };

function sendEncoded(res: import('node:http').ServerResponse, text: string | Buffer, mode: string) {
  res.writeHead(200, { 'content-type': 'text/plain', 'w-enable-mode': mode });
  res.end(text);
}

function encryptRaw(plain: Buffer): string {
  const cipher = createCipheriv('aes-256-cbc', key.key, key.iv);
  return Buffer.concat([cipher.update(plain), cipher.final()]).toString('base64');
}

const METRICS_TOKEN = 'proxy-test-metrics-token';

describe('the /manage proxy', () => {
  let backend: FakeBackend;
  let app: FastifyInstance;

  beforeAll(async () => {
    backend = await startFakeBackend();
    routeFakeLogin(backend);
    backend.route('GET /manage/plain', (_call, res) => sendJson(res, answer));
    backend.route('POST /manage/echo', (call, res) =>
      sendJson(res, { code: 200, msg: 'ok', data: JSON.parse(call.body || 'null') }),
    );
    backend.route('POST /manage/upload', (_call, res) => sendJson(res, { code: 200, msg: 'ok' }));
    backend.route('GET /manage/mode1', (_call, res) =>
      sendEncoded(res, encodeBody(JSON.stringify(answer), 1, key), '1'),
    );
    for (const format of ['gzip', 'zlib', 'deflate-raw'] as const) {
      backend.route(`GET /manage/mode3-${format}`, (_call, res) =>
        sendEncoded(res, encodeBody(JSON.stringify(answer), 3, key, format), '3'),
      );
    }
    backend.route('GET /manage/mode2', (_call, res) => sendEncoded(res, JSON.stringify(answer), '2'));
    backend.route('GET /manage/truncated', (_call, res) =>
      sendEncoded(res, encodeBody(JSON.stringify(answer), 1, key).slice(0, -5), '1'),
    );
    backend.route('GET /manage/wrong-key', (_call, res) =>
      sendEncoded(res, encodeBody(JSON.stringify(answer), 1, { ...key, key: Buffer.alloc(32, 1) }), '1'),
    );
    backend.route('GET /manage/bad-padding', (_call, res) => {
      // A valid-length ciphertext whose last block decrypts to garbage padding.
      const good = Buffer.from(encodeBody(JSON.stringify(answer), 1, key), 'base64');
      good[good.length - 1] = good[good.length - 1]! ^ 0xff;
      sendEncoded(res, good.toString('base64'), '1');
    });
    backend.route('GET /manage/not-json', (_call, res) =>
      sendEncoded(res, encodeBody('<html>500</html>', 1, key), '1'),
    );
    backend.route('GET /manage/bomb', (_call, res) => {
      const bomb = gzipSync(
        Buffer.concat([Buffer.from('{"a":"'), Buffer.alloc(8 * 1024 * 1024, 0x20), Buffer.from('"}')]),
      );
      sendEncoded(res, encryptRaw(bomb), '3');
    });
    backend.route('GET /manage/slow', async (_call, res) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      sendJson(res, answer);
    });
    backend.route('GET /manage/html-error', (_call, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html><body>Internal Server Error</body></html>');
    });
    backend.route('GET /api/exclude/siteConfig/webSiteConfig', (_call, res) =>
      sendJson(res, { code: 200, msg: 'ok', data: { webIconPath: 'icons/a.svg', chatRoomName: 'Chat' } }),
    );
    backend.route('GET /plate/icons/a.svg', (_call, res) => {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      res.end('<svg xmlns="http://www.w3.org/2000/svg"/>');
    });
    app = await buildTestGateway({
      CHAT_BACKEND_URL: backend.url,
      UPSTREAM_TIMEOUT_MS: '400',
      DECODE_MAX_BYTES: String(1024 * 1024),
      // /metrics is off unless asked for; the last test reads it as a scraper would.
      METRICS_TOKEN,
    });
    session = await fakeLogIn(app, { token: 'tok-1', userId: '7' });
  });

  afterAll(async () => {
    await app.close();
    await backend.close();
  });

  it("sends w-token and w-userId from the cookies, never the browser's own or its cookies", async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/manage/plain?pageNum=2',
      cookies: session,
      headers: { 'w-token': 'forged', 'w-userid': '1', 'w-enable-mode': '1' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(answer);
    const call = backend.calls.at(-1)!;
    expect(call.url).toBe('/manage/plain?pageNum=2');
    expect(call.headers['w-token']).toBe('tok-1');
    expect(call.headers['w-userid']).toBe('7');
    expect(call.headers.cookie).toBeUndefined();
  });

  it('refuses a call without a session before it reaches the backend, even with a forged w-token', async () => {
    const before = backend.calls.length;
    const response = await app.inject({ method: 'GET', url: '/manage/plain', headers: { 'w-token': 'forged' } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 401, error: 'NOT_LOGGED_IN' });
    expect(backend.calls.length).toBe(before);
  });

  it('passes JSON bodies of same-origin posts through', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/manage/echo',
      cookies: session,
      headers: SAME_ORIGIN,
      payload: { ids: [1, 2] },
    });
    expect(response.json()).toEqual({ code: 200, msg: 'ok', data: { ids: [1, 2] } });
  });

  it('passes a multipart upload on with its content type unchanged, so the backend can read its parts', async () => {
    const form = new FormData();
    form.append('title', '公告');
    form.append('file', new Blob(['line 1\nline 2\n'], { type: 'text/plain' }), 'notes.txt');
    const encoded = new Request('http://localhost/', { method: 'POST', body: form });
    const contentType = encoded.headers.get('content-type')!;
    const payload = Buffer.from(await encoded.arrayBuffer());
    const response = await app.inject({
      method: 'POST',
      url: '/manage/upload',
      cookies: session,
      headers: { ...SAME_ORIGIN, 'content-type': contentType },
      payload,
    });
    expect(response.statusCode).toBe(200);
    const call = backend.calls.at(-1)!;
    expect(call.url).toBe('/manage/upload');
    expect(call.headers['content-type']).toBe(contentType);
    const parts = await new Response(call.body, {
      headers: { 'content-type': call.headers['content-type']! },
    }).formData();
    expect(parts.get('title')).toBe('公告');
    const file = parts.get('file') as File;
    expect(file.name).toBe('notes.txt');
    expect(await file.text()).toBe('line 1\nline 2\n');
  });

  it('refuses a malformed JSON body before it reaches the backend', async () => {
    const before = backend.calls.length;
    const response = await app.inject({
      method: 'POST',
      url: '/manage/echo',
      cookies: session,
      headers: { ...SAME_ORIGIN, 'content-type': 'application/json' },
      payload: '{"ids": [1,',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 400, error: 'BAD_REQUEST' });
    expect(backend.calls.length).toBe(before);
  });

  it('refuses an oversized body with 413', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/manage/echo',
      cookies: session,
      headers: { ...SAME_ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ text: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 413, error: 'BODY_TOO_LARGE' });
  });

  it('decodes mode 1 bodies into plain JSON without the mode header', async () => {
    const response = await app.inject({ method: 'GET', url: '/manage/mode1', cookies: session });
    expect(response.statusCode).toBe(200);
    expect(response.headers['w-enable-mode']).toBeUndefined();
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.json()).toEqual(answer);
  });

  it.each(['gzip', 'zlib', 'deflate-raw'])('decodes mode 3 bodies compressed with %s', async (format) => {
    const response = await app.inject({ method: 'GET', url: `/manage/mode3-${format}`, cookies: session });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(answer);
  });

  it('passes other mode values through untouched', async () => {
    const response = await app.inject({ method: 'GET', url: '/manage/mode2', cookies: session });
    expect(response.headers['w-enable-mode']).toBe('2');
    expect(response.json()).toEqual(answer);
  });

  it.each([
    ['truncated', 'DECODE_FAILED', 'base64'],
    ['wrong-key', 'DECODE_FAILED', 'padding'],
    ['bad-padding', 'DECODE_FAILED', 'padding'],
    ['not-json', 'DECODE_FAILED', 'not JSON'],
    ['bomb', 'DECODE_TOO_LARGE', 'limit'],
  ])('answers 502 JSON for a %s body', async (route, error, words) => {
    const response = await app.inject({ method: 'GET', url: `/manage/${route}`, cookies: session });
    expect(response.statusCode).toBe(502);
    const body = response.json();
    expect(body).toMatchObject({ code: 502, error });
    expect(body.msg).toContain(words);
  });

  it('answers 504 when the backend is slower than UPSTREAM_TIMEOUT_MS', async () => {
    const response = await app.inject({ method: 'GET', url: '/manage/slow', cookies: session });
    expect(response.statusCode).toBe(504);
    expect(response.json()).toMatchObject({ code: 504, error: 'UPSTREAM_TIMEOUT' });
  });

  it('turns an HTML error page into a 502 JSON answer', async () => {
    const response = await app.inject({ method: 'GET', url: '/manage/html-error', cookies: session });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ code: 502, error: 'UPSTREAM_BAD_ANSWER' });
  });

  it('proxies /api/exclude without credentials and /plate files', async () => {
    const site = await app.inject({ method: 'GET', url: '/api/exclude/siteConfig/webSiteConfig', cookies: session });
    expect(site.json()).toMatchObject({ code: 200, data: { chatRoomName: 'Chat' } });
    expect(backend.calls.at(-1)!.headers['w-token']).toBeUndefined();
    expect(backend.calls.at(-1)!.headers.cookie).toBeUndefined();
    const icon = await app.inject({ method: 'GET', url: '/plate/icons/a.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.body).toContain('<svg');
  });

  it('counts decode failures and upstream errors in /metrics', async () => {
    const metrics = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toMatch(/gateway_decode_failures_total\{reason="bad_padding"\} [1-9]/);
    expect(metrics.body).toMatch(/gateway_upstream_errors_total\{kind="timeout"\} [1-9]/);
    expect(metrics.body).toMatch(/gateway_http_requests_total\{route="\/manage\/\*",method="GET",status="200"\} [1-9]/);
    expect(metrics.body).toContain('gateway_http_request_duration_seconds_bucket');
    expect(metrics.body).toContain('gateway_event_streams_open');
  });
});

describe('a backend that is down', () => {
  it('answers 502 JSON for calls, 503 for readiness, and the gateway stays up', async () => {
    const backend = await startFakeBackend();
    routeFakeLogin(backend);
    const app = await buildTestGateway({ CHAT_BACKEND_URL: backend.url, UPSTREAM_TIMEOUT_MS: '2000' });
    // Logged in while the backend was up; then it goes down.
    const session = await fakeLogIn(app, { token: 'tok-1', userId: '7' });
    await backend.close();
    try {
      const call = await app.inject({ method: 'GET', url: '/manage/plain', cookies: session });
      expect(call.statusCode).toBe(502);
      expect(call.json()).toMatchObject({ code: 502, error: 'UPSTREAM_UNREACHABLE' });
      const login = await app.inject({
        method: 'POST',
        url: '/manage/logIn',
        headers: SAME_ORIGIN,
        payload: { account: 'a', password: 'b' },
      });
      expect(login.statusCode).toBe(502);
      expect(login.headers['set-cookie']).toBeUndefined();
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ error: 'NOT_READY' });
      const live = await app.inject({ method: 'GET', url: '/healthz' });
      expect(live.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('is ready while the backend answers', async () => {
    const backend = await startFakeBackend();
    const app = await buildTestGateway({ CHAT_BACKEND_URL: backend.url });
    try {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ status: 'ready' });
    } finally {
      await app.close();
      await backend.close();
    }
  });
});
