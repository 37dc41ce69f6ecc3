import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS, RESOURCES, resourceCalls } from '../../server/contract/index.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { CONTENT_SECURITY_POLICY } from '../../server/plugins/security.js';
import { sendJson, type ReceivedCall } from '../support/fake-backend.js';
import { FAKE_PASSWORD, fakeAccount, fakeLogInOver } from '../support/fake-session.js';
import { SAVE_PATH, callsSince, httpText, rawRequest, startRig, type Rig } from './support/rig.js';

/**
 * What crosses the gateway between the browser and the backend, both ways, is an allowlist. A
 * backend (Java ones especially) reads many headers as the client's address, a method override or
 * credentials; and an answer of the backend's must never loosen the console's own headers or send
 * the browser to another origin.
 */

const usersList = resourceCalls(RESOURCES.find((r) => r.id === 'users')!).list;
const MAP: BackendMapFile = {
  answer: { code: '/code', message: '/message', success: [0] },
  resources: {
    users: { calls: { list: { path: '/manage/user/page', answer: { list: '/data/records', total: '/data/total' } } } },
  },
};

/** Every header name a call to the backend may carry, whichever of the gateway's paths sent it. */
const ALLOWED = new Set([
  'host',
  'connection',
  'accept',
  'accept-language',
  'user-agent',
  'if-none-match',
  'if-modified-since',
  'range',
  'if-range',
  'content-type',
  'content-length',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-request-id',
  'w-token',
  'w-userid',
]);

/** What the attacker's probe sent: claimed addresses, overrides, a bare token, a huge request id. */
const PROBE: Record<string, string> = {
  'proxy-client-ip': '6.6.6.1',
  'wl-proxy-client-ip': '6.6.6.2',
  'client-ip': '6.6.6.3',
  'x-originating-ip': '6.6.6.4',
  'x-remote-ip': '6.6.6.5',
  'x-remote-addr': '6.6.6.6',
  'forwarded-for': '6.6.6.7',
  'x-real-ip': '6.6.6.8',
  'x-forwarded-host': 'evil.example',
  'x-method': 'DELETE',
  _method: 'DELETE',
  x_forwarded_for: '6.6.6.9',
  token: 'forged-token',
  'x-auth-token': 'forged',
  'accept-encoding': 'gzip',
  'x-request-id': 'r'.repeat(8192),
  'accept-language': 'zh-CN,zh;q=0.9',
  'user-agent': 'probe/1.0',
};

function expectOnlyAllowed(call: ReceivedCall) {
  const names = Object.keys(call.headers);
  expect(
    names.filter((name) => !ALLOWED.has(name)),
    `${call.method} ${call.url}`,
  ).toEqual([]);
  expect(names.some((name) => name.includes('_'))).toBe(false);
  expect(call.headers['x-forwarded-for']).toBe('127.0.0.1');
  expect(call.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  // What the backend legitimately reads still arrives.
  expect(call.headers['accept-language']).toBe('zh-CN,zh;q=0.9');
  expect(call.headers['user-agent']).toBe('probe/1.0');
}

describe('request headers the backend gets', () => {
  let rig: Rig;
  let cookie: string;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sec-map-'));
    writeFileSync(path.join(dir, 'map.json'), JSON.stringify(MAP));
    rig = await startRig({ BACKEND_MAP: path.join(dir, 'map.json') });
    rig.backend.route('GET /manage/user/page', (_call, res) =>
      sendJson(res, { code: 0, message: 'ok', data: { records: [], total: 0 } }),
    );
    rig.backend.route('GET /manage/plain', (_call, res) => sendJson(res, { code: 200, msg: 'ok' }));
    cookie = await fakeLogInOver(rig.url, { token: 'tok-a', userId: '3' });
  });
  afterAll(async () => {
    await rig.close();
  });

  it('are the allowlisted ones only, on the proxy, the login, the backend map and /api/exclude', async () => {
    const before = rig.backend.calls.length;
    const sent = [
      await fetch(`${rig.url}/manage/plain`, { headers: { ...PROBE, cookie } }),
      await fetch(`${rig.url}${SAVE_PATH}`, {
        method: 'POST',
        headers: { ...PROBE, cookie, origin: rig.url, 'content-type': 'application/json' },
        body: '{"a":1}',
      }),
      await fetch(`${rig.url}${CALLS.login}`, {
        method: 'POST',
        headers: { ...PROBE, origin: rig.url, 'content-type': 'application/json' },
        body: JSON.stringify({ account: fakeAccount({ token: 'tok-b', userId: '4' }), password: FAKE_PASSWORD }),
      }),
      await fetch(`${rig.url}${usersList}`, { headers: { ...PROBE, cookie } }),
      await fetch(`${rig.url}${CALLS.siteConfig}`, { headers: PROBE }),
    ];
    for (const answer of sent) expect(answer.status, answer.url).toBe(200);
    const calls = callsSince(rig.backend, before);
    expect(calls.map((c) => c.url.split('?')[0])).toEqual([
      '/manage/plain',
      SAVE_PATH,
      CALLS.login,
      '/manage/user/page',
      CALLS.siteConfig,
    ]);
    for (const call of calls) expectOnlyAllowed(call);
    expect(calls[1]!.headers['content-type']).toBe('application/json');
    expect(calls[1]!.headers['w-token']).toBe('tok-a');
    expect(calls[3]!.headers['w-token']).toBe('tok-a');
  });

  it('never carry a header whose name has an underscore, however it is spelled', async () => {
    const before = rig.backend.calls.length;
    const answer = await rawRequest(
      rig.port,
      httpText('GET /manage/plain HTTP/1.1', {
        cookie,
        X_Forwarded_For: '6.6.6.10',
        W_Token: 'forged',
        'X-Real_IP': '6.6.6.11',
        accept_language: 'xx',
      }),
    );
    expect(answer.status).toBe(200);
    const [call] = callsSince(rig.backend, before);
    expect(Object.keys(call!.headers).filter((name) => name.includes('_'))).toEqual([]);
    expect(call!.headers['w-token']).toBe('tok-a');
    expect(call!.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('keep a short plain X-Request-Id, and the browser sees the id the backend got', async () => {
    for (const [claimed, kept] of [
      ['nginx-0123456789abcdef', true],
      ['a'.repeat(64), true],
      ['a'.repeat(65), false],
      ['id with spaces', false],
      ['id\u00e9', false],
    ] as const) {
      const before = rig.backend.calls.length;
      const answer = await rawRequest(
        rig.port,
        httpText('GET /manage/plain HTTP/1.1', { cookie, 'x-request-id': claimed }),
      );
      const [call] = callsSince(rig.backend, before);
      expect(call!.headers['x-request-id'] === claimed, claimed).toBe(kept);
      expect(answer.headers['x-request-id']).toBe(call!.headers['x-request-id']);
    }
  });
});

describe('answer headers the browser gets', () => {
  let rig: Rig;
  let cookie: string;

  const hostile = {
    'content-security-policy': 'default-src *',
    'x-frame-options': 'ALLOWALL',
    refresh: '0; url=https://evil.example/',
    link: '<https://evil.example/x.css>; rel=stylesheet',
    'clear-site-data': '"*"',
    'www-authenticate': 'Basic realm="backend"',
    'x-request-id': 'backend-id',
    'x-content-type-options': 'sniff',
    'referrer-policy': 'unsafe-url',
    'strict-transport-security': 'max-age=0',
    'cross-origin-opener-policy': 'unsafe-none',
    'set-cookie': 'token=backend; Path=/',
    'x-custom': 'anything',
  };

  beforeAll(async () => {
    rig = await startRig();
    rig.backend.route('GET /manage/hostile', (_call, res) => sendJson(res, { code: 200, msg: 'ok' }, 401, hostile));
    rig.backend.route('GET /api/exclude/hostile', (_call, res) =>
      sendJson(res, { code: 200, msg: 'ok' }, 200, hostile),
    );
    const redirect = (location: string) => (_call: ReceivedCall, res: import('node:http').ServerResponse) => {
      res.writeHead(302, { location, 'content-type': 'text/html' });
      res.end('<a href="elsewhere">moved</a>');
    };
    rig.backend.route('GET /manage/away', redirect('https://evil.example/phish'));
    rig.backend.route('GET /manage/away-relative', redirect('//evil.example/phish'));
    rig.backend.route('GET /manage/to-backend', redirect(`${rig.backend.url}/manage/plain`));
    rig.backend.route('GET /manage/here', redirect('/manage/plain'));
    rig.backend.route('GET /api/exclude/away', redirect('https://evil.example/'));
    rig.backend.route('GET /plate/away.png', redirect('https://evil.example/a.png'));
    cookie = await fakeLogInOver(rig.url, { token: 'tok-c', userId: '8' });
  });
  afterAll(async () => {
    await rig.close();
  });

  it.each(['/manage/hostile', '/api/exclude/hostile'])(
    "on %s are the gateway's, whatever the backend answered",
    async (url) => {
      const answer = await rawRequest(rig.port, httpText(`GET ${url} HTTP/1.1`, { cookie, 'x-request-id': 'mine-1' }));
      expect(answer.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(answer.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(answer.headers['x-request-id']).toBe('mine-1');
      for (const name of [
        'refresh',
        'link',
        'clear-site-data',
        'www-authenticate',
        'set-cookie',
        'strict-transport-security',
        'x-custom',
      ]) {
        expect(answer.headers[name], name).toBeUndefined();
      }
      expect(answer.headers['content-type']).toContain('application/json');
    },
  );

  it.each(['/manage/away', '/manage/away-relative', '/manage/to-backend', '/api/exclude/away', '/plate/away.png'])(
    'turn a redirect of %s to another origin into 502 UPSTREAM_BAD_ANSWER',
    async (url) => {
      const answer = await rawRequest(rig.port, httpText(`GET ${url} HTTP/1.1`, { cookie }));
      expect(answer.status).toBe(502);
      expect(answer.headers.location).toBeUndefined();
      expect(JSON.parse(answer.body)).toMatchObject({ code: 502, error: 'UPSTREAM_BAD_ANSWER' });
      expect(answer.body).not.toContain('evil.example');
    },
  );

  it('let a redirect within the console through', async () => {
    const answer = await rawRequest(rig.port, httpText('GET /manage/here HTTP/1.1', { cookie }));
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/manage/plain');
  });
});
