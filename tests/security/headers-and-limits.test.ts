import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS, GATEWAY_PATHS } from '../../server/contract/index.js';
import { loggerOptions } from '../../server/lib/logger.js';
import { loadConfig } from '../../server/config.js';
import { sendJson } from '../support/fake-backend.js';
import { SseClient } from '../support/sse-client.js';
import { fakeLogInOver, setCookieValues } from '../support/fake-session.js';
import { SAVE_PATH, callsSince, httpText, rawRequest, startRig, type Rig } from './support/rig.js';

/**
 * Hole 8, the lesser ones: credentials and overrides the browser sent, Upgrade (Expect is
 * expect-continue.test.ts's), the backend's software headers, caching of API answers, HSTS, what
 * /readyz and /metrics tell anyone, errors outside the envelope, deep JSON, unbounded event streams per session, and an
 * error-log rate limit a spoofed X-Forwarded-For could reset.
 */

async function upstreamErrors(rig: Rig): Promise<number> {
  const metric = await rig.app.metrics.upstreamErrors.get();
  return metric.values.reduce((sum, v) => sum + v.value, 0);
}

describe('headers both ways', () => {
  let rig: Rig;
  let cookie: string;

  beforeAll(async () => {
    rig = await startRig();
    rig.backend.route('GET /manage/software', (_call, res) =>
      sendJson(res, { code: 200, msg: 'ok' }, 200, {
        server: 'Apache-Coyote/1.1',
        'x-powered-by': 'Servlet/3.0',
        'keep-alive': 'timeout=5',
        'cache-control': 'public, max-age=600',
        'x-aspnet-version': '4.0',
        'access-control-allow-origin': '*',
        'access-control-allow-credentials': 'true',
      }),
    );
    cookie = await fakeLogInOver(rig.url, { token: 'tok-h', userId: '5' });
  });
  afterAll(async () => {
    await rig.close();
  });

  it('never pass Authorization, Proxy-Authorization, method or path overrides to the backend', async () => {
    const before = rig.backend.calls.length;
    const sneaky = {
      authorization: 'Basic YWRtaW46YWRtaW4=',
      'proxy-authorization': 'Basic eDp5',
      'x-http-method-override': 'DELETE',
      'x-http-method': 'DELETE',
      'x-method-override': 'DELETE',
      'x-original-url': '/manage/logIn',
      'x-rewrite-url': '/manage/logIn',
      'w-token': 'forged',
      'w-enable-mode': '1',
    };
    await fetch(`${rig.url}${SAVE_PATH}`, {
      method: 'POST',
      headers: { cookie, origin: rig.url, 'content-type': 'application/json', ...sneaky },
      body: '{}',
    });
    await fetch(`${rig.url}${CALLS.siteConfig}`, { headers: { cookie, ...sneaky } });
    const calls = callsSince(rig.backend, before);
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      for (const name of Object.keys(sneaky)) {
        if (name === 'w-token' && call.url.startsWith('/manage')) continue;
        expect(call.headers[name], `${name} on ${call.url}`).toBeUndefined();
      }
      expect(call.headers.cookie).toBeUndefined();
    }
    expect(calls[0]!.headers['w-token']).toBe('tok-h');
  });

  it.each([
    [
      'Upgrade',
      {
        upgrade: 'websocket',
        connection: 'Upgrade',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'sec-websocket-version': '13',
      },
    ],
    [
      'Upgrade h2c',
      { upgrade: 'h2c', connection: 'Upgrade, HTTP2-Settings', 'http2-settings': 'AAMAAABkAARAAAAAAAIAAAAA' },
    ],
  ])('refuses %s with a catalogue 400, not a 502, and counts no upstream error', async (_label, headers) => {
    const errorsBefore = await upstreamErrors(rig);
    const before = rig.backend.calls.length;
    const answer = await rawRequest(
      rig.port,
      httpText(
        `POST ${SAVE_PATH} HTTP/1.1`,
        { cookie, origin: 'http://127.0.0.1', 'content-type': 'application/json', ...headers },
        '{}',
      ),
    );
    expect(answer.status).toBe(400);
    expect(answer.closedByServer).toBe(true);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'BAD_REQUEST' });
    expect(answer.raw).not.toMatch(/^HTTP\/1\.1 100 /);
    expect(callsSince(rig.backend, before)).toEqual([]);
    expect(await upstreamErrors(rig)).toBe(errorsBefore);
  });

  it("never show the browser the backend's Server, X-Powered-By, Keep-Alive or CORS grants", async () => {
    const answer = await rawRequest(rig.port, httpText('GET /manage/software HTTP/1.1', { cookie }));
    expect(answer.status).toBe(200);
    for (const name of [
      'server',
      'x-powered-by',
      'x-aspnet-version',
      'access-control-allow-origin',
      'access-control-allow-credentials',
    ]) {
      expect(answer.headers[name], name).toBeUndefined();
    }
    expect(answer.headers['keep-alive']).not.toBe('timeout=5');
  });

  it('mark every /manage and /api answer no-store, whoever made it', async () => {
    const answers = [
      await fetch(`${rig.url}/manage/software`, { headers: { cookie } }),
      await fetch(`${rig.url}${CALLS.siteConfig}`),
      await fetch(`${rig.url}${GATEWAY_PATHS.session}`, { headers: { cookie } }),
      await fetch(`${rig.url}${GATEWAY_PATHS.errorLog}`, { headers: { cookie } }),
      await fetch(`${rig.url}/manage/anything`), // 401 without a session
      await fetch(`${rig.url}/api/nothing-here`), // 404
    ];
    for (const res of answers) {
      expect(res.headers.get('cache-control'), res.url).toBe('no-store');
      // Opened as a page, an API answer is saved, never rendered on the console's origin.
      expect(res.headers.get('content-disposition'), res.url).toBe('attachment; filename="api.json"');
    }
  });

  it('answer deeply nested JSON with 400 before it reaches the backend, and stay up', async () => {
    // 5,000 levels: far past the limit, yet under the error log's 16 KiB body limit.
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const before = rig.backend.calls.length;
    for (const path of [SAVE_PATH, GATEWAY_PATHS.errorLog, CALLS.login]) {
      const res = await fetch(`${rig.url}${path}`, {
        method: 'POST',
        headers: { cookie, origin: rig.url, 'content-type': 'application/json' },
        body: deep,
      });
      expect(res.status, path).toBe(400);
      expect(await res.json()).toMatchObject({ code: 400, error: 'BAD_REQUEST' });
    }
    expect(callsSince(rig.backend, before)).toEqual([]);
    expect((await fetch(`${rig.url}/healthz`)).status).toBe(200);
    // Ordinary nesting still passes.
    const nested = await fetch(`${rig.url}${SAVE_PATH}`, {
      method: 'POST',
      headers: { cookie, origin: rig.url, 'content-type': 'application/json' },
      body: JSON.stringify({ a: { b: { c: [1, [2, [3]]] } } }),
    });
    expect(nested.status).toBe(200);
  });
});

describe('HSTS', () => {
  it('is sent when the request is known to be HTTPS, not over plain HTTP, and HSTS_MAX_AGE=0 turns it off', async () => {
    for (const [env, expected] of [
      [{ TRUST_PROXY: 'true' }, 'max-age=31536000; includeSubDomains'],
      [{ TRUST_PROXY: 'true', HSTS_MAX_AGE: '600' }, 'max-age=600; includeSubDomains'],
      [{ TRUST_PROXY: 'true', HSTS_MAX_AGE: '0' }, null],
    ] as const) {
      const rig = await startRig(env);
      try {
        const https = await fetch(`${rig.url}${GATEWAY_PATHS.session}`, { headers: { 'x-forwarded-proto': 'https' } });
        expect(https.headers.get('strict-transport-security')).toBe(expected);
        const plain = await fetch(`${rig.url}${GATEWAY_PATHS.session}`);
        expect(plain.headers.get('strict-transport-security')).toBeNull();
      } finally {
        await rig.close();
      }
    }
    // An untrusted client cannot claim HTTPS.
    const rig = await startRig();
    try {
      const claimed = await fetch(`${rig.url}${GATEWAY_PATHS.session}`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(claimed.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await rig.close();
    }
  });
});

describe('what the probes tell anyone', () => {
  it('/readyz says ready or not in words, without the backend address', async () => {
    const rig = await startRig();
    try {
      const ready = await fetch(`${rig.url}/readyz`);
      const text = await ready.text();
      expect(ready.status).toBe(200);
      expect(JSON.parse(text)).toEqual({ status: 'ready' });
      expect(text).not.toContain('127.0.0.1');
      await rig.backend.close();
      // Not ready once the readiness cache (about a second) has run out.
      await expect.poll(async () => (await fetch(`${rig.url}/readyz`)).status).toBe(503);
      const down = await fetch(`${rig.url}/readyz`);
      const downText = await down.text();
      expect(down.status).toBe(503);
      expect(JSON.parse(downText)).toEqual({ code: 503, msg: 'The chat backend is not reachable', error: 'NOT_READY' });
      expect(downText).not.toContain(String(new URL(rig.backend.url).port));
    } finally {
      await rig.app.close();
    }
  });

  it('METRICS_PORT moves /metrics off the main port; METRICS_TOKEN requires the bearer token', async () => {
    const token = 'metrics-token-0123456789';
    const rig = await startRig({ METRICS_PORT: '0', METRICS_TOKEN: token });
    try {
      const address = rig.app.metricsAddress();
      expect(address).not.toBeNull();
      const metricsUrl = `http://127.0.0.1:${address!.port}/metrics`;
      const onMain = await fetch(`${rig.url}/metrics`);
      expect(onMain.status).toBe(404);
      expect(await onMain.text()).not.toContain('gateway_http_requests_total');

      const anonymous = await fetch(metricsUrl);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await anonymous.json()).toMatchObject({ code: 401, error: 'UNAUTHORIZED' });
      expect((await fetch(metricsUrl, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(
        401,
      );

      const allowed = await fetch(metricsUrl, { headers: { authorization: `Bearer ${token}` } });
      expect(allowed.status).toBe(200);
      expect(await allowed.text()).toContain('gateway_http_requests_total');
      expect((await fetch(`http://127.0.0.1:${address!.port}/api/session`)).status).toBe(404);
    } finally {
      await rig.close();
    }
  });

  it('METRICS_TOKEN alone guards /metrics on the main port', async () => {
    const token = 'metrics-token-abcdefghijkl';
    const rig = await startRig({ METRICS_TOKEN: token });
    try {
      expect((await fetch(`${rig.url}/metrics`)).status).toBe(401);
      expect((await fetch(`${rig.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      await rig.close();
    }
  });
});

describe('event streams per session', () => {
  it('answers the stream past EVENTS_MAX_PER_SESSION with 429, and another session still gets one', async () => {
    const rig = await startRig({ EVENTS_MAX_PER_SESSION: '3' });
    const streams: SseClient[] = [];
    try {
      const cookie = await fakeLogInOver(rig.url, { token: 'tok-tabs', userId: '1' });
      for (let i = 0; i < 3; i++) {
        const stream = await SseClient.open(rig.port, cookie);
        streams.push(stream);
        expect(stream.status).toBe(200);
      }
      const fourth = await SseClient.open(rig.port, cookie);
      streams.push(fourth);
      await fourth.waitFor(() => fourth.ended, 'the refusal');
      expect(fourth.status).toBe(429);
      expect(JSON.parse(fourth.body)).toMatchObject({ code: 429, error: 'RATE_LIMITED' });

      const other = await SseClient.open(rig.port, await fakeLogInOver(rig.url, { token: 'tok-other', userId: '2' }));
      streams.push(other);
      expect(other.status).toBe(200);

      // A tab that closes frees its place, once the gateway has seen its socket close: until then
      // a new one is refused, as above, and ends at once.
      streams[0]!.close();
      await expect
        .poll(async () => {
          const again = await SseClient.open(rig.port, cookie);
          streams.push(again);
          return again.status;
        })
        .toBe(200);
    } finally {
      for (const stream of streams) stream.close();
      await rig.close();
    }
  });
});

describe('the error-log rate limit', () => {
  it('is not reset by a spoofed X-Forwarded-For behind a trusted proxy, and follows the session', async () => {
    const rig = await startRig({ TRUST_PROXY: 'true' });
    try {
      const post = (headers: Record<string, string>) =>
        fetch(`${rig.url}${GATEWAY_PATHS.errorLog}`, {
          method: 'POST',
          headers: { origin: rig.url, 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ message: 'flood', url: '/x' }),
        });
      const statuses: number[] = [];
      // The proxy appends the address it saw (192.0.2.50) to whatever the client wrote.
      for (let i = 0; i < 40; i++) statuses.push((await post({ 'x-forwarded-for': `10.1.${i}.1, 192.0.2.50` })).status);
      expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(30)).toContain(429);

      // A logged-in session has a bucket of its own, wherever it comes from.
      const cookie = await fakeLogInOver(rig.url, { token: 'tok-log', userId: '3' });
      expect((await post({ cookie, 'x-forwarded-for': '192.0.2.50' })).status).toBe(200);
    } finally {
      await rig.close();
    }
  });
});

describe('the log', () => {
  it('holds no token, password or cookie of logins, calls, forgeries and logouts', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    // The gateway's own logger options (level and redaction), writing where the test reads.
    const options = loggerOptions(
      loadConfig({ CHAT_BACKEND_URL: 'http://127.0.0.1:9', RESPONSE_AES_KEY: '0123456789abcdef', LOG_LEVEL: 'trace' }),
    );
    const rig = await startRig({ LOG_LEVEL: 'trace' }, { logger: { ...(options as object), stream } });
    let sealed: string;
    try {
      const login = await fetch(`${rig.url}${CALLS.login}`, {
        method: 'POST',
        headers: { origin: rig.url, 'content-type': 'application/json' },
        body: JSON.stringify({ account: 'LOGTOKEN-1/7', password: 'pw', code: '' }),
      });
      sealed = setCookieValues(login.headers.getSetCookie()).token!;
      const cookie = `token=${sealed}; userId=7`;
      await fetch(`${rig.url}${CALLS.login}`, {
        method: 'POST',
        headers: { origin: rig.url, 'content-type': 'application/json' },
        body: JSON.stringify({ account: 'someone/1', password: 'PASSWORD-LOGGED?', code: '' }),
      });
      await fetch(`${rig.url}${SAVE_PATH}`, {
        method: 'POST',
        headers: { cookie, origin: rig.url, 'content-type': 'application/json' },
        body: '{}',
      });
      await fetch(`${rig.url}${CALLS.permission}`, {
        headers: { cookie: 'token=FORGED-COOKIE-VALUE; userId=1', authorization: 'Bearer BEARER-VALUE' },
      });
      await fetch(`${rig.url}${GATEWAY_PATHS.logout}`, { method: 'POST', headers: { cookie, origin: rig.url } });
      await fetch(`${rig.url}${CALLS.permission}`, { headers: { cookie } });
      // No line above logs headers or bodies; a future one that does (a request's headers on an
      // error, a login answer) must still be censored, so the redaction itself is put to work.
      rig.app.log.warn(
        {
          req: {
            headers: {
              cookie: `token=${sealed}`,
              authorization: 'Bearer BEARER-VALUE',
              'w-token': 'LOGTOKEN-2',
              'w-userid': '7',
            },
          },
          res: { headers: { 'set-cookie': `token=${sealed}` } },
          headers: { cookie: `token=${sealed}`, 'w-token': 'LOGTOKEN-3' },
          password: 'PASSWORD-LOGGED?',
          body: { password: 'PASSWORD-LOGGED?', token: 'LOGTOKEN-4' },
          data: { token: 'LOGTOKEN-5' },
        },
        'a log line carrying every secret the console handles',
      );
    } finally {
      await rig.close();
    }
    const text = lines.join('');
    expect(text).toContain('refused a session cookie');
    expect(text).toContain('a log line carrying every secret the console handles');
    expect(text).toContain('[redacted]');
    expect(sealed.length).toBeGreaterThan(20);
    for (const secret of ['LOGTOKEN-1', 'PASSWORD-LOGGED?', 'FORGED-COOKIE-VALUE', 'BEARER-VALUE', sealed]) {
      expect(text, secret).not.toContain(secret);
    }
  });
});
