import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { GATEWAY_ERRORS } from '../../server/errors.js';
import { safeRedirectPath } from '../../server/contract/index.js';
import { buildTestGateway } from './support/gateway.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../support/fake-backend.js';
import { fakeLogIn, routeFakeLogin } from '../support/fake-session.js';

let session: Record<string, string>;

describe('security rules', () => {
  let backend: FakeBackend;
  let app: FastifyInstance;

  beforeAll(async () => {
    backend = await startFakeBackend();
    routeFakeLogin(backend);
    backend.route('POST /manage/user/userProfile/save', (_call, res) => sendJson(res, { code: 200, msg: 'ok' }));
    app = await buildTestGateway({ CHAT_BACKEND_URL: backend.url });
    session = await fakeLogIn(app, { token: 'tok-1', userId: '7' });
  });
  afterAll(async () => {
    await app.close();
    await backend.close();
  });

  it.each([
    ['a cross-site fetch', { 'sec-fetch-site': 'cross-site', origin: 'http://localhost:80' }],
    ['another origin', { origin: 'https://evil.example' }],
    ['a look-alike origin', { origin: 'http://localhost:8080' }],
    ['a foreign referer', { referer: 'https://evil.example/page' }],
    ['neither origin nor referer', {}],
    ['an opaque origin', { origin: 'null' }],
  ])('refuses an unsafe call from %s with 403 JSON', async (_label, headers) => {
    const before = backend.calls.length;
    for (const url of ['/manage/user/userProfile/save', '/api/logout', '/api/error-log']) {
      const response = await app.inject({
        method: 'POST',
        url,
        cookies: session,
        headers: { host: 'localhost:80', ...headers },
        payload: {},
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 403, error: 'CROSS_ORIGIN' });
    }
    expect(backend.calls.length).toBe(before);
  });

  it('accepts a same-origin referer when Origin is absent', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/manage/user/userProfile/save',
      cookies: session,
      headers: { host: 'localhost:80', referer: 'http://localhost/userpage/userset' },
      payload: {},
    });
    expect(response.statusCode).toBe(200);
  });

  it('lets safe methods through without an origin', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/session' });
    expect(response.statusCode).toBe(200);
  });

  it('puts security headers and a request id on every answer', async () => {
    for (const url of ['/api/session', '/login', '/assets/main-ABC123.js', '/nope/api']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain("script-src 'self' 'unsafe-inline'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['x-request-id']).toBeTruthy();
    }
  });

  it('keeps the request id a front proxy sent', async () => {
    const response = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(response.headers['x-request-id']).toBe('abc-123');
  });

  it('answers unknown /api paths with a JSON 404, never the UI', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/nothing-here',
      headers: { accept: 'text/html' },
      cookies: session,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 404, error: 'NOT_FOUND' });
  });
});

describe('serving the UI', () => {
  let backend: FakeBackend;
  let app: FastifyInstance;
  beforeAll(async () => {
    backend = await startFakeBackend();
    routeFakeLogin(backend);
    app = await buildTestGateway({ CHAT_BACKEND_URL: backend.url });
    session = await fakeLogIn(app, { token: 'tok-1', userId: '7' });
  });
  afterAll(async () => {
    await app.close();
    await backend.close();
  });

  it('redirects an HTML navigation without a session to the login page with the path', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/finance/OnlineRecharge?tab=2',
      headers: { accept: 'text/html' },
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`/login?redirect=${encodeURIComponent('/finance/OnlineRecharge?tab=2')}`);
  });

  it("serves a record's page at any depth as the console, and sends a visitor to it through the login form", async () => {
    for (const url of ['/userpage/userset/10023', '/groupset/800001', '/WithDrawMoneyCheck/459?from=search']) {
      const anonymous = await app.inject({
        method: 'GET',
        url,
        headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html' },
      });
      expect(anonymous.statusCode, url).toBe(302);
      expect(anonymous.headers.location).toBe(`/login?redirect=${encodeURIComponent(url)}`);
      const logged = await app.inject({
        method: 'GET',
        url,
        headers: { 'sec-fetch-mode': 'navigate', accept: 'text/html' },
        cookies: session,
      });
      expect(logged.statusCode, url).toBe(200);
      expect(logged.headers['content-type']).toContain('text/html');
      // Assets by absolute paths: the page works however deep its address.
      expect(logged.body).toMatch(/src="\/assets\//);
    }
  });

  it('never builds a login redirect that leaves the site', async () => {
    for (const url of ['//evil.example', '/\\evil.example/x', '/%2F%2Fevil.example/', '/%5Cevil.example/']) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      if (response.statusCode !== 302) {
        expect(response.statusCode).toBeGreaterThanOrEqual(400);
        continue;
      }
      const location = String(response.headers.location);
      expect(location.startsWith('/login?redirect=')).toBe(true);
      const target = decodeURIComponent(location.slice('/login?redirect='.length));
      expect(safeRedirectPath(target)).toBe(target);
    }
  });

  it('serves public routes and sessions the page, never cached', async () => {
    for (const [url, cookies] of [
      ['/login?redirect=%2Fdashboard', {}],
      ['/404', {}],
      ['/dashboard', session],
    ] as const) {
      const response = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' }, cookies });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toContain('no-store');
      expect(response.body).toContain('<div id="root">');
    }
  });

  it('serves hashed assets immutable, and their brotli or gzip copies when accepted', async () => {
    const plain = await app.inject({ method: 'GET', url: '/assets/main-ABC123.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const br = await app.inject({
      method: 'GET',
      url: '/assets/main-ABC123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    const gz = await app.inject({
      method: 'GET',
      url: '/assets/main-ABC123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
  });

  it('sends the root address to the login page, or serves the console, whatever encodings or types the client accepts', async () => {
    // Plain clients (curl, monitoring probes, scripts) send no Accept-Encoding and often Accept: */*.
    for (const headers of [
      {},
      { accept: '*/*' },
      { 'accept-encoding': 'identity' },
      { accept: 'text/html', 'accept-encoding': 'gzip, br' },
    ]) {
      for (const method of ['GET', 'HEAD'] as const) {
        const anonymous = await app.inject({ method, url: '/', headers });
        expect(anonymous.statusCode, `${method} ${JSON.stringify(headers)}`).toBe(302);
        expect(anonymous.headers.location).toBe(`/login?redirect=${encodeURIComponent('/')}`);
        const logged = await app.inject({ method, url: '/', headers, cookies: session });
        expect(logged.statusCode, `${method} ${JSON.stringify(headers)} with a session`).toBe(200);
        expect(logged.headers['content-type']).toContain('text/html');
        if (method === 'GET') expect(logged.body).toContain('<div id="root">');
      }
    }
  });

  it('answers a folder of the built UI with a JSON 404, never a directory 403', async () => {
    for (const url of ['/assets', '/assets/', '/assets//', '//', '/plate/']) {
      for (const headers of [{}, { 'accept-encoding': 'gzip, br' }, { accept: 'text/html' }]) {
        const response = await app.inject({ method: 'GET', url, headers, cookies: session });
        expect(response.statusCode, `${url} ${JSON.stringify(headers)}`).not.toBe(403);
        expect(response.statusCode, `${url} ${JSON.stringify(headers)}`).toBeLessThan(500);
        // /plate/ is the file server's to answer (its own 404, passed on as a download); a page
        // navigation gets the console, whose router shows its own not-found page.
        if (!url.startsWith('/plate/') && !('accept' in headers)) {
          expect(response.statusCode).toBe(404);
          expect(response.json()).toMatchObject({ code: 404, error: 'NOT_FOUND' });
        }
      }
    }
  });

  it('answers a missing asset with 404, not the page', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/gone-XYZ.js', headers: { accept: '*/*' } });
    expect(response.statusCode).toBe(404);
  });
});

describe('the error catalogue', () => {
  it('documents every gateway error name in the catalogue of docs/gateway.md', () => {
    const doc = readFileSync(new URL('../../docs/gateway.md', import.meta.url), 'utf8');
    const catalogue = doc.slice(doc.indexOf('\n## Gateway errors'));
    for (const name of Object.keys(GATEWAY_ERRORS)) {
      expect(catalogue, `docs/gateway.md's catalogue lacks the gateway error ${name}`).toMatch(
        new RegExp(`^\\| \`${name}\` \\|`, 'm'),
      );
    }
  });
});
