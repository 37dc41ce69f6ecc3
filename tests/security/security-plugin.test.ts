import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import {
  API_DISPOSITION,
  CONTENT_SECURITY_POLICY,
  NO_STORE,
  SECURITY_HEADERS,
  hstsHeader,
  isOtherSiteFetch,
  isSameOriginRequest,
  ownOrigin,
} from '../../server/plugins/security.js';
import { TEST_KEY_TEXT, buildTestGateway, writeFakeUi } from '../server/support/gateway.js';

/**
 * The security plugin's rules one by one, each with the case on either side of it: the origin
 * comparison, the fetch-site rule, HSTS, and the headers each kind of answer carries. The attacks
 * through a started gateway are in the other files here; these fail on a rule bent by one character.
 */

/** The parts of a request the rules read: what the client sent, and what the gateway made of it (protocol and host, through TRUST_PROXY). */
function request(headers: Record<string, string>, protocol = 'http', host = 'console.example'): FastifyRequest {
  return { headers, protocol, host } as unknown as FastifyRequest;
}

describe('the same-origin rule for unsafe calls', () => {
  it('takes the console origin as the request reached it, default ports dropped', () => {
    expect(ownOrigin(request({}, 'https', 'console.example:443'))).toBe('https://console.example');
    expect(ownOrigin(request({}, 'http', 'console.example:80'))).toBe('http://console.example');
    expect(ownOrigin(request({}, 'http', 'console.example:8080'))).toBe('http://console.example:8080');
    expect(ownOrigin(request({}, 'http', 'bad host'))).toBeNull();
  });

  it('passes an Origin equal to the console origin, and only that', () => {
    expect(isSameOriginRequest(request({ origin: 'http://console.example' }))).toBe(true);
    expect(isSameOriginRequest(request({ origin: 'http://console.example:80' }))).toBe(true);
    for (const origin of [
      'https://console.example',
      'http://console.example:8080',
      'http://evil.example',
      'null',
      'not a url',
      '',
    ]) {
      expect(isSameOriginRequest(request({ origin })), origin).toBe(false);
    }
  });

  it('falls back to the Referer only without an Origin, and refuses a call with neither', () => {
    expect(isSameOriginRequest(request({ referer: 'http://console.example/finance?x=1' }))).toBe(true);
    expect(isSameOriginRequest(request({ referer: 'http://evil.example/console.example' }))).toBe(false);
    // An Origin, even a broken one, is what counts when there is one.
    expect(isSameOriginRequest(request({ origin: 'http://evil.example', referer: 'http://console.example/' }))).toBe(
      false,
    );
    expect(isSameOriginRequest(request({ origin: 'garbage', referer: 'http://console.example/' }))).toBe(false);
    expect(isSameOriginRequest(request({}))).toBe(false);
    // A Host that makes no origin, and a call that claims none: nothing equals nothing here.
    expect(isSameOriginRequest(request({}, 'http', 'bad host'))).toBe(false);
    expect(isSameOriginRequest(request({ origin: 'null' }, 'http', 'bad host'))).toBe(false);
  });

  it('refuses a call the browser says another site started, whatever it claims as its origin', () => {
    expect(isSameOriginRequest(request({ 'sec-fetch-site': 'cross-site', origin: 'http://console.example' }))).toBe(
      false,
    );
    for (const site of ['same-origin', 'same-site', 'none']) {
      expect(isSameOriginRequest(request({ 'sec-fetch-site': site, origin: 'http://console.example' })), site).toBe(
        true,
      );
    }
  });

  it('counts cross-site and same-site fetches as another site, and nothing else', () => {
    expect(isOtherSiteFetch(request({ 'sec-fetch-site': 'cross-site' }))).toBe(true);
    expect(isOtherSiteFetch(request({ 'sec-fetch-site': 'same-site' }))).toBe(true);
    for (const site of ['same-origin', 'none', ''])
      expect(isOtherSiteFetch(request({ 'sec-fetch-site': site })), site).toBe(false);
    expect(isOtherSiteFetch(request({}))).toBe(false);
  });
});

describe('Strict-Transport-Security', () => {
  it('is due on HTTPS answers only, and not at all with a max-age of 0', () => {
    expect(hstsHeader('https', 31_536_000)).toBe('max-age=31536000; includeSubDomains');
    expect(hstsHeader('https', 1)).toBe('max-age=1; includeSubDomains');
    expect(hstsHeader('https', 0)).toBeNull();
    expect(hstsHeader('http', 31_536_000)).toBeNull();
  });
});

describe('the headers', () => {
  it('are the policy the UI is built for, directive by directive', () => {
    // Pinned whole: loosening any directive (an inline script, a framing origin) must be a decision.
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
        "media-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; " +
        "form-action 'self'; frame-ancestors 'none'",
    );
    expect(SECURITY_HEADERS).toEqual({
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-frame-options': 'DENY',
      'cross-origin-opener-policy': 'same-origin',
      'permissions-policy': 'camera=(), microphone=(), geolocation=()',
    });
    expect(NO_STORE).toBe('no-store');
    expect(API_DISPOSITION).toBe('attachment; filename="api.json"');
  });

  describe('on the answers of a gateway', () => {
    let app: FastifyInstance;
    let behindTls: FastifyInstance;
    let hstsOff: FastifyInstance;
    beforeAll(async () => {
      app = await buildTestGateway({ CHAT_BACKEND_URL: 'http://127.0.0.1:9' });
      behindTls = await buildTestGateway({
        CHAT_BACKEND_URL: 'http://127.0.0.1:9',
        TRUST_PROXY: 'true',
        HSTS_MAX_AGE: '600',
      });
      hstsOff = await buildTestGateway({
        CHAT_BACKEND_URL: 'http://127.0.0.1:9',
        TRUST_PROXY: 'true',
        HSTS_MAX_AGE: '0',
      });
    });
    afterAll(async () => {
      for (const gateway of [app, behindTls, hstsOff]) await gateway?.close();
    });

    it('puts every security header and the request id on an answer of each kind', async () => {
      for (const url of ['/login', '/api/session', '/manage/permission', '/healthz', '/api/nowhere']) {
        const answer = await app.inject({ url, headers: { 'x-request-id': 'req-123' } });
        for (const [name, value] of Object.entries(SECURITY_HEADERS))
          expect(answer.headers[name], `${url} ${name}`).toBe(value);
        expect(answer.headers['x-request-id'], url).toBe('req-123');
      }
    });

    it('keeps API answers out of caches and out of the page: no-store and an attachment, under /manage and /api only', async () => {
      for (const url of ['/api/session', '/manage/permission', '/%6Danage/permission']) {
        const answer = await app.inject({ url });
        expect(answer.headers['cache-control'], url).toBe(NO_STORE);
        expect(answer.headers['content-disposition'], url).toBe(API_DISPOSITION);
      }
      const page = await app.inject({ url: '/login' });
      expect(page.headers['content-disposition']).toBeUndefined();
      expect(page.headers['cache-control']).not.toBe(NO_STORE);
    });

    it('refuses a /manage call another site started whatever its method, and lets other areas and fetch sites through', async () => {
      for (const method of ['GET', 'HEAD', 'OPTIONS'] as const) {
        for (const site of ['cross-site', 'same-site']) {
          const answer = await app.inject({ method, url: '/manage/permission', headers: { 'sec-fetch-site': site } });
          expect(answer.statusCode, `${method} ${site}`).toBe(403);
          if (method !== 'HEAD')
            expect(answer.json(), `${method} ${site}`).toMatchObject({ code: 403, error: 'CROSS_ORIGIN' });
        }
      }
      // The gateway's own reads answer their usual way (no session: 200 with loggedIn false).
      expect((await app.inject({ url: '/api/session', headers: { 'sec-fetch-site': 'same-site' } })).statusCode).toBe(
        200,
      );
      // Without a session the call is refused for that, not for where it came from.
      const own = await app.inject({ url: '/manage/permission', headers: { 'sec-fetch-site': 'same-origin' } });
      expect(own.json()).toMatchObject({ error: 'NOT_LOGGED_IN' });
    });

    it('sends HSTS only when the request came over HTTPS, with the configured max-age, and none when it is 0', async () => {
      const tls = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'console.example' };
      expect((await behindTls.inject({ url: '/healthz', headers: tls })).headers['strict-transport-security']).toBe(
        'max-age=600; includeSubDomains',
      );
      expect((await behindTls.inject({ url: '/healthz' })).headers['strict-transport-security']).toBeUndefined();
      expect(
        (await hstsOff.inject({ url: '/healthz', headers: tls })).headers['strict-transport-security'],
      ).toBeUndefined();
      expect(
        (await app.inject({ url: '/healthz', headers: tls })).headers['strict-transport-security'],
      ).toBeUndefined();
    });
  });
});

describe('what a refusal tells the operator', () => {
  it('logs each refusal once, with what the browser claimed: the fetch site, or the origin (null when it sent none)', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n'))
          if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const config = loadConfig({
      CHAT_BACKEND_URL: 'http://127.0.0.1:9',
      RESPONSE_AES_KEY: TEST_KEY_TEXT,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sec-plugin-')),
      UI_DIR: writeFakeUi(),
    });
    const app = await buildApp({ config, logger: { level: 'warn', stream } as FastifyServerOptions['logger'] });
    try {
      await app.inject({ url: '/manage/permission', headers: { 'sec-fetch-site': 'same-site' } });
      await app.inject({ method: 'POST', url: '/api/logout', headers: { origin: 'https://evil.example' } });
      await app.inject({ method: 'POST', url: '/api/logout' });
      const refusals = lines.filter((line) => String(line.msg).startsWith('refused a '));
      expect(refusals.map(({ msg, fetchSite, origin }) => ({ msg, fetchSite, origin }))).toEqual([
        { msg: 'refused a /manage call from another site', fetchSite: 'same-site', origin: undefined },
        { msg: 'refused a cross-origin unsafe request', fetchSite: undefined, origin: 'https://evil.example' },
        { msg: 'refused a cross-origin unsafe request', fetchSite: undefined, origin: null },
      ]);
      expect(refusals.every((line) => line.level === 40)).toBe(true);
    } finally {
      await app.close();
    }
  });
});
