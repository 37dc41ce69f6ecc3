import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from '../../server/app.js';
import { encodeBody } from '../../server/codec/index.js';
import { loadConfig } from '../../server/config.js';
import { loggerOptions } from '../../server/lib/logger.js';
import { SAME_ORIGIN, TEST_KEY_TEXT, writeFakeUi } from './support/gateway.js';
import { logInInject } from '../support/login.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../support/fake-backend.js';

/**
 * The gateway's log as production writes it: the logger options main.ts uses (server/lib/logger.ts),
 * only the destination swapped for a buffer the test reads.
 */

const key = { key: Buffer.from(TEST_KEY_TEXT), iv: Buffer.alloc(16), mode: 'cbc' as const };
const SECRETS = {
  token: 'SECRET-TOKEN-42',
  password: 'PASSWORD-99',
  bearer: 'SECRET-BEARER',
  decoded: 'DECODED-BODY-SECRET',
  decodedGarbage: 'DECODED-NOT-JSON-SECRET',
  plainGarbage: 'PLAIN-GARBAGE-SECRET',
};

let backend: FakeBackend;

beforeAll(async () => {
  backend = await startFakeBackend();
  backend.route('POST /manage/logIn', (call, res) => {
    const { account } = JSON.parse(call.body) as { account: string };
    if (account === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end(`not json ${SECRETS.plainGarbage}`);
    }
    sendJson(res, { code: 200, msg: 'ok', data: { token: SECRETS.token, userId: 3 } });
  });
  backend.route('GET /manage/decoded', (_call, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'w-enable-mode': '1' });
    res.end(encodeBody(JSON.stringify({ code: 200, msg: 'ok', data: { note: SECRETS.decoded } }), 1, key));
  });
  backend.route('GET /manage/decodes-to-garbage', (_call, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'w-enable-mode': '1' });
    res.end(encodeBody(`<html>${SECRETS.decodedGarbage}</html>`, 1, key));
  });
  backend.route('GET /manage/fail', (_call, res) => {
    res.writeHead(200, { 'w-enable-mode': '1' });
    res.end('not base64 at all!');
  });
  backend.route('GET /manage/plain', (_call, res) => sendJson(res, { code: 200, msg: 'ok', data: [] }));
  backend.route('GET /api/exclude/siteConfig/webSiteConfig', (_call, res) =>
    sendJson(res, { code: 200, msg: 'ok', data: {} }),
  );
});

afterAll(async () => {
  await backend.close();
});

/** A gateway with the production logger options at `level`, writing into `lines`. */
const METRICS_TOKEN = 'logging-test-metrics-token';

async function gatewayLoggingTo(lines: string[], level: string): Promise<FastifyInstance> {
  const config = loadConfig({
    CHAT_BACKEND_URL: backend.url,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'gw-log-')),
    RESPONSE_AES_KEY: TEST_KEY_TEXT,
    UI_DIR: writeFakeUi(),
    LOG_LEVEL: level,
    // /metrics is off unless asked for; the probes below read it as a scraper would.
    METRICS_TOKEN,
  });
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const production = loggerOptions(config);
  expect(production).toMatchObject({ level, redact: expect.anything() });
  return buildApp({ config, logger: { ...(production as object), stream } as FastifyServerOptions['logger'] });
}

/** Logs in through the gateway as a browser would and returns the cookies it set. */
async function logIn(app: FastifyInstance, password = SECRETS.password): Promise<Record<string, string>> {
  const cookies = await logInInject(app, { account: 'admin', password });
  expect(Object.keys(cookies).sort()).toEqual(['token', 'userId']);
  return cookies;
}

const requestLines = (lines: string[]) =>
  lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request completed');

describe('logs, with the production logger options', () => {
  it('never contain a token, password, cookie or body, decoded or not, even at trace level', async () => {
    const lines: string[] = [];
    const app = await gatewayLoggingTo(lines, 'trace');
    let cookieValues: string[];
    try {
      const cookies = await logIn(app);
      cookieValues = Object.values(cookies).filter((value) => value.length > 3);
      const decoded = await app.inject({
        method: 'GET',
        url: '/manage/decoded',
        cookies,
        headers: { authorization: `Bearer ${SECRETS.bearer}` },
      });
      // The answer was decoded for the browser: the text the log must not hold really passed.
      expect(decoded.json()).toMatchObject({ data: { note: SECRETS.decoded } });
      const garbage = await app.inject({ method: 'GET', url: '/manage/decodes-to-garbage', cookies });
      expect(garbage.json()).toMatchObject({ error: 'DECODE_FAILED' });
      const undecodable = await app.inject({ method: 'GET', url: '/manage/fail', cookies });
      expect(undecodable.json()).toMatchObject({ error: 'DECODE_FAILED' });
      const badLogin = await app.inject({
        method: 'POST',
        url: '/manage/logIn',
        headers: SAME_ORIGIN,
        payload: { account: 'garbage', password: SECRETS.password },
      });
      expect(badLogin.json()).toMatchObject({ error: 'UPSTREAM_BAD_ANSWER' });
    } finally {
      await app.close();
    }
    const text = lines.join('\n');
    // The calls above were really logged: one line each, and the failures with their path.
    expect(requestLines(lines)).toHaveLength(5);
    // Each decode failure is logged once, with its path.
    const decodeLines = lines.filter((line) => line.includes('decode'));
    expect(decodeLines.filter((line) => line.includes('could not decode an encoded answer'))).toHaveLength(2);
    expect(
      decodeLines.filter(
        (line) => line.includes('"/manage/decodes-to-garbage"') && !line.includes('request completed'),
      ),
    ).toHaveLength(1);
    for (const secret of [...Object.values(SECRETS), ...cookieValues]) expect(text).not.toContain(secret);
  });

  it('hold one line per request at info, and none for the probes of /healthz, /readyz and /metrics', async () => {
    const lines: string[] = [];
    const app = await gatewayLoggingTo(lines, 'info');
    try {
      for (const probe of ['/healthz', '/readyz', '/metrics']) {
        const headers = probe === '/metrics' ? { authorization: `Bearer ${METRICS_TOKEN}` } : {};
        expect((await app.inject({ method: 'GET', url: probe, headers })).statusCode, probe).toBe(200);
      }
      const cookies = await logIn(app);
      expect(
        (
          await app.inject({
            method: 'GET',
            url: '/manage/plain?pageNum=1',
            cookies,
            headers: { 'x-request-id': 'log-test-1' },
          })
        ).statusCode,
      ).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/api/session', cookies })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
    const logged = requestLines(lines);
    expect(logged.map((line) => `${line.method} ${line.url} ${line.statusCode}`)).toEqual([
      'POST /manage/logIn 200',
      'GET /manage/plain 200',
      'GET /api/session 200',
    ]);
    // One line per request: every request id appears on exactly one line.
    const ids = logged.map((line) => line.reqId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('log-test-1');
    expect(lines.filter((line) => line.includes('log-test-1'))).toHaveLength(1);
    for (const probe of ['/healthz', '/readyz', '/metrics']) expect(lines.join('\n')).not.toContain(`"url":"${probe}"`);
  });
});
