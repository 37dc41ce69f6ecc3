import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CALLS } from '../../server/contract/index.js';
import { answerLogins, logInThrough } from '../support/session.js';
import { startFakeBackend, type FakeBackend } from '../support/fake-backend.js';
import { FAKE_PASSWORD, routeFakeLogin } from '../support/fake-session.js';
import { SAME_ORIGIN, buildTestGateway, parseSetCookies } from '../server/support/gateway.js';

/**
 * COOKIE_SECURE and TRUST_PROXY as the configuration table of docs/operators.md gives them. inject's
 * connections come from 127.0.0.1, as from nginx on the same host.
 */

let backend: FakeBackend;
const apps: FastifyInstance[] = [];

async function gateway(env: Record<string, string>): Promise<FastifyInstance> {
  const app = await buildTestGateway({ CHAT_BACKEND_URL: backend.url, ...env });
  apps.push(app);
  return app;
}

/** What nginx in front of the gateway sends for a browser at https://console.example. */
const BEHIND_TLS_PROXY = {
  origin: 'https://console.example',
  host: '127.0.0.1:8080',
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'console.example',
  'x-forwarded-for': '203.0.113.9',
};

const logIn = (app: FastifyInstance, headers: Record<string, string>) =>
  app.inject({ method: 'POST', url: CALLS.login, headers, payload: { account: 'admin', password: 'admin123' } });

/** Whether every cookie a response set (or cleared) carries the Secure attribute; null when it set none. */
function allSecure(response: { headers: Record<string, unknown> }): boolean | null {
  const cookies = [...parseSetCookies(response.headers['set-cookie'] as string[] | undefined).values()];
  if (cookies.length === 0) return null;
  const secure = cookies.map((cookie) => cookie.attributes.includes('secure'));
  expect(new Set(secure).size, 'the cookies agree').toBe(1);
  return secure[0]!;
}

beforeAll(async () => {
  backend = await startFakeBackend();
  answerLogins(backend);
});

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

afterAll(async () => {
  await backend.close();
});

describe('COOKIE_SECURE', () => {
  it('true marks the cookies Secure even on plain HTTP, at login and at logout', async () => {
    const app = await gateway({ COOKIE_SECURE: 'true' });
    const login = await logIn(app, SAME_ORIGIN);
    expect(login.statusCode).toBe(200);
    expect(allSecure(login)).toBe(true);
    const cookies = Object.fromEntries(login.cookies.map((c) => [c.name, c.value]));
    const logout = await app.inject({ method: 'POST', url: '/api/logout', cookies, headers: SAME_ORIGIN });
    expect(logout.statusCode).toBe(204);
    expect(allSecure(logout)).toBe(true);
  });

  it('false leaves Secure off even when a trusted proxy says the request came over HTTPS', async () => {
    const app = await gateway({ COOKIE_SECURE: 'false', TRUST_PROXY: 'true' });
    const login = await logIn(app, BEHIND_TLS_PROXY);
    expect(login.statusCode).toBe(200);
    expect(allSecure(login)).toBe(false);
  });

  it('auto follows the scheme: plain HTTP without Secure, HTTPS through a trusted proxy with it', async () => {
    const app = await gateway({ TRUST_PROXY: 'true' });
    expect(allSecure(await logIn(app, SAME_ORIGIN))).toBe(false);
    expect(allSecure(await logIn(app, BEHIND_TLS_PROXY))).toBe(true);
  });
});

describe('TRUST_PROXY', () => {
  it.each([
    ['a hop count', '1'],
    ['a CIDR holding the proxy', '127.0.0.0/8'],
    ['a list of addresses and CIDRs', '10.0.0.0/8, 127.0.0.1'],
  ])(
    'as %s (%s): the scheme and host come from the proxy, so the login is same-origin and its cookies Secure',
    async (_what, value) => {
      const app = await gateway({ TRUST_PROXY: value });
      const login = await logIn(app, BEHIND_TLS_PROXY);
      expect(login.statusCode, login.body).toBe(200);
      expect(allSecure(login)).toBe(true);
    },
  );

  it.each([
    ['unset', undefined],
    ['a CIDR without the proxy', '10.0.0.0/8'],
    ['a hop count of 0', '0'],
  ])(
    '%s: X-Forwarded-* is not believed, so the HTTPS origin does not match and the login is refused',
    async (_what, value) => {
      const app = await gateway(value === undefined ? {} : { TRUST_PROXY: value });
      const login = await logIn(app, BEHIND_TLS_PROXY);
      expect(login.statusCode).toBe(403);
      expect(login.json()).toMatchObject({ error: 'CROSS_ORIGIN' });
      expect(login.headers['set-cookie']).toBeUndefined();
    },
  );

  it('as a hop count, takes the client address the trusted proxy saw, whatever the client claimed before it', async () => {
    // The error log's rate limit is kept per client address (a burst of 30, then one write per
    // 2 s), which makes the address the gateway settled on visible. Every post below claims a
    // different first hop behind the same proxy entry.
    const post = (app: FastifyInstance, forwardedFor: string) =>
      app.inject({
        method: 'POST',
        url: '/api/error-log',
        headers: { ...SAME_ORIGIN, 'x-forwarded-for': forwardedFor },
        payload: { message: 'm', url: '/x' },
      });
    const postsUntilLimited = async (app: FastifyInstance) => {
      for (let i = 1; i <= 100; i++) if ((await post(app, `10.9.${i}.1, 203.0.113.9`)).statusCode === 429) return i;
      return null;
    };
    // With one trusted hop the claims do not matter: one client, limited after its burst.
    const hop = await gateway({ TRUST_PROXY: '1' });
    expect(await postsUntilLimited(hop)).toBeGreaterThan(30);
    // Another address behind the proxy is another client.
    expect((await post(hop, '10.9.9.1, 203.0.113.10')).statusCode).toBe(200);

    // `true` is the one proxy directly in front, the same as a count of 1.
    const one = await gateway({ TRUST_PROXY: 'true' });
    expect(await postsUntilLimited(one)).toBeGreaterThan(30);

    // Trusting one hop too many believes the client's own claim: a hundred fresh clients, none limited.
    const all = await gateway({ TRUST_PROXY: '2' });
    expect(await postsUntilLimited(all)).toBeNull();
  });

  it('keeps the session working behind the proxy: later calls carry the cookies set at login', async () => {
    const app = await gateway({ TRUST_PROXY: '1' });
    const cookies = await logInThrough(app, BEHIND_TLS_PROXY);
    const session = await app.inject({ method: 'GET', url: '/api/session', cookies, headers: BEHIND_TLS_PROXY });
    expect(session.json()).toMatchObject({ loggedIn: true });
  });
});

describe('TRUST_PROXY takes one hop only', () => {
  // A backend that refuses wrong passwords, so failed logins are counted; it records what it got.
  let refusing: FakeBackend;
  beforeAll(async () => {
    refusing = await startFakeBackend();
    routeFakeLogin(refusing);
  });
  afterAll(async () => {
    await refusing.close();
  });

  const wrongLogin = (app: FastifyInstance, forwardedFor: string) =>
    app.inject({
      method: 'POST',
      url: CALLS.login,
      headers: { ...SAME_ORIGIN, 'x-forwarded-for': forwardedFor },
      payload: { account: 'tok/1', password: `not-${FAKE_PASSWORD}` },
    });

  it.each([
    ['an address', '127.0.0.1'],
    ['a CIDR', '127.0.0.0/8'],
    ['a list of CIDRs', '10.0.0.0/8, 127.0.0.1'],
    ['an IPv6-mapped listing of the proxy', '::ffff:127.0.0.1'],
    ['a hop count', '1'],
    ['true', 'true'],
  ])(
    'as %s (%s): a client inside the trusted range cannot invent the address before it, so the login throttle holds',
    async (_what, value) => {
      const app = await buildTestGateway({
        CHAT_BACKEND_URL: refusing.url,
        TRUST_PROXY: value,
        LOGIN_MAX_FAILURES: '5',
      });
      apps.push(app);
      const before = refusing.calls.length;
      // The client wrote "6.6.6.N, 127.0.0.1"; the proxy on 127.0.0.1 (inject's socket) passed it on.
      const statuses: number[] = [];
      for (let n = 1; n <= 8; n++) statuses.push((await wrongLogin(app, `6.6.6.${n}, 127.0.0.1`)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
      const seen = refusing.calls.slice(before).map((call) => call.headers['x-forwarded-for']);
      expect(seen).toEqual(Array(5).fill('127.0.0.1'));
    },
  );

  it.each([
    ['an address', '127.0.0.1'],
    ['a CIDR', '127.0.0.0/8'],
    ['a hop count', '1'],
  ])('as %s (%s): the address the trusted proxy wrote last is the client', async (_what, value) => {
    const app = await buildTestGateway({ CHAT_BACKEND_URL: refusing.url, TRUST_PROXY: value });
    apps.push(app);
    const before = refusing.calls.length;
    await wrongLogin(app, '6.6.6.6, 203.0.113.9');
    expect(refusing.calls.slice(before).map((call) => call.headers['x-forwarded-for'])).toEqual(['203.0.113.9']);
  });

  it('as an address the connection does not come from: no header is believed', async () => {
    const app = await buildTestGateway({ CHAT_BACKEND_URL: refusing.url, TRUST_PROXY: '10.0.0.0/8' });
    apps.push(app);
    const before = refusing.calls.length;
    await wrongLogin(app, '6.6.6.6, 10.1.2.3');
    expect(refusing.calls.slice(before).map((call) => call.headers['x-forwarded-for'])).toEqual(['127.0.0.1']);
  });
});
