import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { CALLS, PERMISSIONS, WITHDRAWAL_REVIEW_PERMISSION } from '../../server/contract/index.js';
import { cookieHeaderOf, logInThrough } from '../support/session.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../support/fake-backend.js';
import { SAME_ORIGIN, TEST_KEY_TEXT, writeFakeUi } from './support/gateway.js';
import { SseClient } from '../support/sse-client.js';
import { waitUntil } from '../support/wait.js';

/**
 * The catalogue's upstream errors as docs/gateway.md promises them, through gateways in front of real
 * fake backends: what the browser gets, what /metrics counts by kind, and INTERNAL for a failure
 * the gateway did not expect.
 */

// Long enough that a busy machine answers every call but the slow ones in time (a login on a cold
// connection pool took over 300 ms at load 30); the slow ones outlast it twice over.
const TIMEOUT_MS = 3000;
/** A port nothing listens on: the connection is refused at once. */
let closedPort: number;
let backend: FakeBackend;
const apps: FastifyInstance[] = [];

interface Gateway {
  app: FastifyInstance;
  /** Parsed pino lines the gateway wrote. */
  lines: Array<Record<string, unknown>>;
}

async function gateway(env: Record<string, string>): Promise<Gateway> {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const config = loadConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'gw-upstream-')),
    RESPONSE_AES_KEY: TEST_KEY_TEXT,
    // One secret for every gateway of this file, so a session sealed by one is valid at another.
    SESSION_SECRET: 'upstream-errors-test-session-secret',
    UI_DIR: writeFakeUi(),
    UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
    WITHDRAWAL_POLL_MS: '100',
    // /metrics is off unless asked for; upstreamErrors() reads it as a scraper would.
    METRICS_TOKEN,
    ...env,
  });
  const app = await buildApp({ config, logger: { level: 'info', stream } });
  apps.push(app);
  return { app, lines };
}

const METRICS_TOKEN = 'upstream-errors-metrics-token';

/** gateway_upstream_errors_total by kind, read from /metrics as a scraper would. */
async function upstreamErrors(app: FastifyInstance): Promise<Record<string, number>> {
  const text = (
    await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).body;
  const out: Record<string, number> = {};
  for (const [, kind, value] of text.matchAll(/^gateway_upstream_errors_total\{kind="([a-z_]+)"\} (\d+)$/gm))
    out[kind!] = Number(value);
  return out;
}

const login = (app: FastifyInstance, account: string) =>
  app.inject({ method: 'POST', url: CALLS.login, headers: SAME_ORIGIN, payload: { account, password: 'pw' } });

/** The session of `account` (the fake backend gives each account a token of its own) as a Cookie header. */
async function sessionOf(app: FastifyInstance, account: string): Promise<string> {
  const response = await login(app, account);
  expect(response.statusCode).toBe(200);
  return cookieHeaderOf(Object.fromEntries(response.cookies.map((c) => [c.name, c.value])));
}

beforeAll(async () => {
  const probe = await startFakeBackend();
  closedPort = probe.port;
  await probe.close();

  backend = await startFakeBackend();
  backend.route(`POST ${CALLS.login}`, async (call, res) => {
    const { account } = JSON.parse(call.body) as { account: string };
    if (account === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end('this is not JSON at all');
    }
    if (account === 'no-code') return sendJson(res, { msg: 'ok', data: { token: 'tok-x', userId: 1 } });
    if (account === 'html') {
      res.writeHead(500, { 'content-type': 'text/html' });
      return void res.end('<html><body>Bad Gateway</body></html>');
    }
    if (account === 'slow') await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS * 2));
    sendJson(res, { code: 200, msg: 'ok', data: { token: `tok-${account}`, userId: 5 } });
  });
  backend.route('GET /manage/plain', (_call, res) => sendJson(res, { code: 200, msg: 'ok', data: [] }));
  backend.route('GET /manage/slow', async (_call, res) => {
    await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS * 2));
    sendJson(res, { code: 200, msg: 'ok', data: [] });
  });
  backend.route('GET /manage/html-error', (_call, res) => {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<html>502 Bad Gateway</html>');
  });
  backend.route(`GET ${CALLS.permission}`, (call, res) => {
    if (call.headers['w-token'] === 'tok-garbled') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end('{"code": 200, "data": [');
    }
    // The administrators page's permission too: the INTERNAL case below clears the error log, which only its holders may.
    sendJson(res, {
      code: 200,
      msg: 'ok',
      data: [{ permission: WITHDRAWAL_REVIEW_PERMISSION }, { permission: PERMISSIONS.adminUser }],
    });
  });
  backend.route(`GET ${CALLS.withdrawalCount}`, (call, res) => {
    if (call.headers['w-token'] === 'tok-codeless') return sendJson(res, { msg: 'ok', data: 3 });
    sendJson(res, { code: 200, msg: 'ok', data: 3 });
  });
});

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

afterAll(async () => {
  await backend.close();
});

describe('UPSTREAM_BAD_ANSWER', () => {
  it.each([
    ['garbage', 'not JSON'],
    ['no-code', 'without a {code, msg} envelope'],
    ['html', 'not JSON'],
  ])('answers 502 to a login the backend answers with %s, and sets no cookie', async (account, words) => {
    const { app } = await gateway({ CHAT_BACKEND_URL: backend.url });
    const response = await login(app, account);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ code: 502, error: 'UPSTREAM_BAD_ANSWER' });
    expect(response.json().msg).toContain(words);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('answers 502 to an event stream whose permission look-up comes back garbled', async () => {
    const { app } = await gateway({ CHAT_BACKEND_URL: backend.url });
    const cookie = await sessionOf(app, 'garbled');
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    const stream = await SseClient.open(port, cookie);
    await stream.waitFor(() => stream.ended, 'the refusal');
    expect(stream.status).toBe(502);
    expect(JSON.parse(stream.body)).toMatchObject({ code: 502, error: 'UPSTREAM_BAD_ANSWER' });
    // A healthy session still gets its stream.
    const healthy = await SseClient.open(port, await sessionOf(app, 'admin'));
    await healthy.waitFor(() => healthy.counts().length > 0, 'the first count');
    healthy.close();
  });

  it('keeps the last count when a withdrawal poll answers an envelope without a code, and logs why', async () => {
    const { app, lines } = await gateway({ CHAT_BACKEND_URL: backend.url });
    const cookie = await sessionOf(app, 'codeless');
    await app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await SseClient.open((app.server.address() as AddressInfo).port, cookie);
    await waitUntil(
      () => lines.some((l) => l.msg === 'withdrawal count poll failed; keeping the last count'),
      'the poll failure in the log',
    );
    const failure = lines.find((l) => l.msg === 'withdrawal count poll failed; keeping the last count')!;
    expect(failure.reason).toContain('envelope');
    expect(stream.counts()).toEqual([]);
    expect(stream.ended).toBe(false);
    stream.close();
    expect((await upstreamErrors(app)).bad_answer).toBeGreaterThan(0);
  });
});

describe('gateway_upstream_errors_total', () => {
  it("counts failed calls by kind: unreachable, timeout, bad_answer, for proxied calls and the gateway's own", async () => {
    const { app } = await gateway({ CHAT_BACKEND_URL: backend.url });
    const cookies = await logInThrough(app);
    expect(await upstreamErrors(app)).toEqual({});

    const proxiedSlow = await app.inject({ method: 'GET', url: '/manage/slow', cookies });
    expect(proxiedSlow.json()).toMatchObject({ code: 504, error: 'UPSTREAM_TIMEOUT' });
    const loginSlow = await login(app, 'slow');
    expect(loginSlow.json()).toMatchObject({ code: 504, error: 'UPSTREAM_TIMEOUT' });
    const proxiedHtml = await app.inject({ method: 'GET', url: '/manage/html-error', cookies });
    expect(proxiedHtml.json()).toMatchObject({ code: 502, error: 'UPSTREAM_BAD_ANSWER' });
    const loginGarbage = await login(app, 'garbage');
    expect(loginGarbage.json()).toMatchObject({ code: 502, error: 'UPSTREAM_BAD_ANSWER' });
    // Healthy calls count nothing.
    expect((await app.inject({ method: 'GET', url: '/manage/plain', cookies })).statusCode).toBe(200);
    expect(await upstreamErrors(app)).toEqual({ timeout: 2, bad_answer: 2 });

    const { app: cutOff } = await gateway({ CHAT_BACKEND_URL: `http://127.0.0.1:${closedPort}` });
    const proxiedDown = await cutOff.inject({ method: 'GET', url: '/manage/plain', cookies });
    expect(proxiedDown.json()).toMatchObject({ code: 502, error: 'UPSTREAM_UNREACHABLE' });
    const loginDown = await login(cutOff, 'admin');
    expect(loginDown.json()).toMatchObject({ code: 502, error: 'UPSTREAM_UNREACHABLE' });
    expect(await upstreamErrors(cutOff)).toEqual({ unreachable: 2 });
  });
});

describe('INTERNAL', () => {
  it('answers 500 in the envelope when the gateway fails unexpectedly, and logs the details', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gw-internal-'));
    const { app, lines } = await gateway({ CHAT_BACKEND_URL: backend.url, DATA_DIR: dataDir });
    const cookies = await logInThrough(app);
    // The data folder vanishes under the running gateway (a volume unmounted, say).
    rmSync(dataDir, { recursive: true, force: true });
    const response = await app.inject({ method: 'DELETE', url: '/api/error-log', cookies, headers: SAME_ORIGIN });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 500, msg: 'The gateway failed unexpectedly', error: 'INTERNAL' });
    expect(response.body).not.toContain(dataDir);
    const logged = lines.find((l) => l.msg === 'unexpected gateway error');
    expect(logged).toBeDefined();
    expect(JSON.stringify(logged)).toContain('ENOENT');
    expect(logged!.reqId).toBe(response.headers['x-request-id']);
  });
});
