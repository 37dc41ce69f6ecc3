import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerLogins, logInThrough } from '../support/session.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../support/fake-backend.js';
import { SAME_ORIGIN, buildTestGateway } from './support/gateway.js';

/**
 * What docs/gateway.md promises about what the gateway lets through to the backend: the request body limit,
 * the same-origin rule for every unsafe method, the browser's w-* headers, and where /plate goes.
 */

let backend: FakeBackend;
let files: FakeBackend;
const apps: FastifyInstance[] = [];

async function gateway(env: Record<string, string> = {}): Promise<FastifyInstance> {
  const app = await buildTestGateway({ CHAT_BACKEND_URL: backend.url, ...env });
  apps.push(app);
  return app;
}

const reached = (path: string, method: string) =>
  backend.calls.filter((c) => c.url.split('?')[0] === path && c.method === method).length;

beforeAll(async () => {
  backend = await startFakeBackend();
  answerLogins(backend);
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'GET']) {
    backend.route(`${method} /manage/thing`, (call, res) =>
      sendJson(res, { code: 200, msg: 'ok', data: { method: call.method, bytes: call.body.length } }),
    );
  }
  backend.route('GET /plate/icons/logo.svg', (_call, res) => {
    res.writeHead(200, { 'content-type': 'image/svg+xml' });
    res.end('<svg id="from-the-backend"/>');
  });
  files = await startFakeBackend();
  for (const path of ['/plate/icons/logo.svg', '/static/plate/icons/logo.svg']) {
    files.route(`GET ${path}`, (_call, res) => {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      res.end('<svg id="from-the-file-server"/>');
    });
  }
});

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

afterAll(async () => {
  await backend.close();
  await files.close();
});

describe('BODY_LIMIT_BYTES', () => {
  const body = (bytes: number) => JSON.stringify({ note: 'x'.repeat(bytes - '{"note":""}'.length) });

  it('refuses a larger body with 413 before it reaches the backend, and passes one within it', async () => {
    const app = await gateway({ BODY_LIMIT_BYTES: '2048' });
    const cookies = await logInThrough(app);
    const headers = { ...SAME_ORIGIN, 'content-type': 'application/json' };

    const within = await app.inject({ method: 'POST', url: '/manage/thing', cookies, headers, payload: body(2048) });
    expect(within.statusCode).toBe(200);
    expect(within.json()).toMatchObject({ data: { bytes: 2048 } });

    const before = reached('/manage/thing', 'POST');
    const over = await app.inject({ method: 'POST', url: '/manage/thing', cookies, headers, payload: body(2049) });
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ code: 413, error: 'BODY_TOO_LARGE' });
    expect(reached('/manage/thing', 'POST')).toBe(before);
  });

  it('lets a body past the 1 MiB default through when the limit is raised', async () => {
    const big = body(1024 * 1024 + 10);
    const byDefault = await gateway();
    const defaultCookies = await logInThrough(byDefault);
    const refused = await byDefault.inject({
      method: 'POST',
      url: '/manage/thing',
      cookies: defaultCookies,
      headers: { ...SAME_ORIGIN, 'content-type': 'application/json' },
      payload: big,
    });
    expect(refused.statusCode).toBe(413);

    const raised = await gateway({ BODY_LIMIT_BYTES: String(4 * 1024 * 1024) });
    const cookies = await logInThrough(raised);
    const passed = await raised.inject({
      method: 'POST',
      url: '/manage/thing',
      cookies,
      headers: { ...SAME_ORIGIN, 'content-type': 'application/json' },
      payload: big,
    });
    expect(passed.statusCode).toBe(200);
    expect(passed.json()).toMatchObject({ data: { bytes: big.length } });
  });
});

describe('CROSS_ORIGIN', () => {
  it.each(['PUT', 'PATCH', 'DELETE'] as const)(
    'refuses a %s to /manage from another origin, or with no origin at all, and passes a same-origin one',
    async (method) => {
      const app = await gateway();
      const cookies = await logInThrough(app);
      const before = reached('/manage/thing', method);
      const refusals = [
        { origin: 'https://evil.example', host: 'localhost:80' },
        { referer: 'https://evil.example/page', host: 'localhost:80' },
        { ...SAME_ORIGIN, 'sec-fetch-site': 'cross-site' },
        { host: 'localhost:80' },
      ];
      for (const headers of refusals) {
        const response = await app.inject({
          method,
          url: '/manage/thing',
          cookies,
          headers: { ...headers, 'content-type': 'application/json' },
          payload: '{}',
        });
        expect(response.statusCode, JSON.stringify(headers)).toBe(403);
        expect(response.json()).toMatchObject({ code: 403, error: 'CROSS_ORIGIN' });
      }
      expect(reached('/manage/thing', method)).toBe(before);

      for (const headers of [
        SAME_ORIGIN,
        { referer: 'http://localhost:80/WithDrawMoneyCheck', host: 'localhost:80' },
      ]) {
        const response = await app.inject({
          method,
          url: '/manage/thing',
          cookies,
          headers: { ...headers, 'content-type': 'application/json' },
          payload: '{}',
        });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({ data: { method } });
      }
      expect(reached('/manage/thing', method)).toBe(before + 2);
    },
  );

  it('refuses a DELETE of the error log from another origin and keeps the log', async () => {
    const app = await gateway();
    const cookies = await logInThrough(app);
    // Posted by the session itself: it reads its own entries (anonymous ones need ERROR_LOG_ADMIN_PERMISSION).
    const posted = await app.inject({
      method: 'POST',
      url: '/api/error-log',
      cookies,
      headers: SAME_ORIGIN,
      payload: { message: 'kept', url: '/x' },
    });
    expect(posted.statusCode).toBe(200);
    const refused = await app.inject({
      method: 'DELETE',
      url: '/api/error-log',
      cookies,
      headers: { origin: 'https://evil.example', host: 'localhost:80' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'CROSS_ORIGIN' });
    const listed = await app.inject({ method: 'GET', url: '/api/error-log', cookies });
    expect(listed.json()).toMatchObject({ data: { total: 1 } });
  });
});

describe("the browser's w-* headers", () => {
  it('are dropped, w-enable-mode included, so the browser cannot ask the backend for an encoding or name a session', async () => {
    const app = await gateway();
    const cookies = await logInThrough(app);
    const response = await app.inject({
      method: 'GET',
      url: '/manage/thing',
      cookies,
      headers: { 'w-enable-mode': '3', 'w-token': 'forged', 'w-userid': '1', 'w-anything': 'x' },
    });
    expect(response.statusCode).toBe(200);
    const call = backend.calls.at(-1)!;
    expect(call.url).toBe('/manage/thing');
    expect(call.headers['w-enable-mode']).toBeUndefined();
    expect(call.headers['w-anything']).toBeUndefined();
    expect(call.headers['w-token']).toBe('tok-session-1');
    expect(call.headers['w-userid']).toBe('7');
  });
});

describe('FILE_SERVER_URL', () => {
  it('sends /plate to a file server other than the backend, under its own path prefix', async () => {
    const plain = await gateway({ FILE_SERVER_URL: files.url });
    const icon = await plain.inject({ method: 'GET', url: '/plate/icons/logo.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.body).toBe('<svg id="from-the-file-server"/>');

    const prefixed = await gateway({ FILE_SERVER_URL: `${files.url}/static/` });
    const underPrefix = await prefixed.inject({ method: 'GET', url: '/plate/icons/logo.svg' });
    expect(underPrefix.body).toBe('<svg id="from-the-file-server"/>');
    expect(files.calls.map((c) => c.url)).toEqual(['/plate/icons/logo.svg', '/static/plate/icons/logo.svg']);
    // Files carry no session: the file server never learns the token.
    for (const call of files.calls) expect(call.headers['w-token']).toBeUndefined();

    // Unset, /plate follows the backend.
    const byDefault = await gateway();
    expect((await byDefault.inject({ method: 'GET', url: '/plate/icons/logo.svg' })).body).toBe(
      '<svg id="from-the-backend"/>',
    );
  });
});
