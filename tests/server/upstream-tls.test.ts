import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { CALLS } from '../../server/contract/index.js';
import { selfSignedCertificate } from '../support/tls.js';
import { hasProgram, skipWithout } from '../support/ci.js';
import { SAME_ORIGIN, TEST_KEY_TEXT, writeFakeUi } from './support/gateway.js';

/**
 * An HTTPS chat backend with a self-signed certificate (made by openssl for the test): the
 * gateway checks the certificate by default and refuses the backend; UPSTREAM_TLS_INSECURE=true
 * turns the check off, for test rigs. Both the backend's pool and a file server's own pool.
 */

interface TlsBackend {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

let folder: string;
let tlsOptions: { key: Buffer; cert: Buffer };
const apps: FastifyInstance[] = [];
const backends: TlsBackend[] = [];

async function startTlsBackend(): Promise<TlsBackend> {
  const requests: string[] = [];
  const server: Server = createServer(tlsOptions, (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    if (req.url?.startsWith('/plate/')) {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      return void res.end('<svg id="over-tls"/>');
    }
    const body =
      req.url === CALLS.login
        ? { code: 200, msg: 'ok', data: { token: 'tls-token', userId: 4 } }
        : { code: 200, msg: 'ok', data: { over: 'tls' } };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const backend = {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  backends.push(backend);
  return backend;
}

async function gateway(env: Record<string, string>): Promise<{ app: FastifyInstance; lines: string[] }> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const config = loadConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'gw-tls-')),
    RESPONSE_AES_KEY: TEST_KEY_TEXT,
    UI_DIR: writeFakeUi(),
    ...env,
  });
  const app = await buildApp({ config, logger: { level: 'info', stream } });
  apps.push(app);
  return { app, lines };
}

const login = (app: FastifyInstance) =>
  app.inject({ method: 'POST', url: CALLS.login, headers: SAME_ORIGIN, payload: { account: 'admin', password: 'pw' } });

const missing = [...(hasProgram('openssl') ? [] : ['openssl'])];

describe.skipIf(skipWithout(missing, 'the HTTPS backend tests'))(
  'an HTTPS chat backend with a self-signed certificate',
  () => {
    beforeAll(() => {
      folder = mkdtempSync(path.join(tmpdir(), 'gw-tls-cert-'));
      const { key, cert } = selfSignedCertificate(folder, 'backend');
      tlsOptions = { key: readFileSync(key), cert: readFileSync(cert) };
    });

    afterEach(async () => {
      for (const app of apps.splice(0)) await app.close();
      for (const backend of backends.splice(0)) await backend.close();
    });

    afterAll(() => {
      rmSync(folder, { recursive: true, force: true });
    });

    it('is refused by default: no login, no proxied call, not ready, and the log says why', async () => {
      const backend = await startTlsBackend();
      const { app, lines } = await gateway({ CHAT_BACKEND_URL: backend.url });

      const refusedLogin = await login(app);
      expect(refusedLogin.statusCode).toBe(502);
      expect(refusedLogin.json()).toMatchObject({ error: 'UPSTREAM_UNREACHABLE' });
      expect(refusedLogin.headers['set-cookie']).toBeUndefined();

      const proxied = await app.inject({ method: 'GET', url: '/api/exclude/siteConfig/webSiteConfig' });
      expect(proxied.statusCode).toBe(502);
      expect(proxied.json()).toMatchObject({ error: 'UPSTREAM_UNREACHABLE' });
      expect((await app.inject({ method: 'GET', url: '/plate/icon.svg' })).statusCode).toBe(502);

      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ error: 'NOT_READY' });

      // The handshake failed: not one request reached the backend.
      expect(backend.requests).toEqual([]);
      // Each refusal's log line names the certificate: the login's and the proxied call's alike.
      const certificateLines = lines
        .filter((line) => /self[- ]signed certificate/.test(line))
        .map((line) => JSON.parse(line) as { path?: string });
      expect(certificateLines.map((line) => line.path)).toEqual(
        expect.arrayContaining([CALLS.login, '/api/exclude/siteConfig/webSiteConfig', '/plate/icon.svg']),
      );
    });

    it('is accepted with UPSTREAM_TLS_INSECURE=true: login, proxied calls, files and readiness', async () => {
      const backend = await startTlsBackend();
      const { app } = await gateway({ CHAT_BACKEND_URL: backend.url, UPSTREAM_TLS_INSECURE: 'true' });

      const accepted = await login(app);
      expect(accepted.statusCode).toBe(200);
      const cookies = Object.fromEntries(accepted.cookies.map((c) => [c.name, c.value]));
      const proxied = await app.inject({ method: 'GET', url: '/manage/anything', cookies });
      expect(proxied.json()).toEqual({ code: 200, msg: 'ok', data: { over: 'tls' } });
      expect((await app.inject({ method: 'GET', url: '/plate/icon.svg' })).body).toBe('<svg id="over-tls"/>');
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      expect(backend.requests).toEqual(
        expect.arrayContaining([`POST ${CALLS.login}`, 'GET /manage/anything', 'GET /plate/icon.svg']),
      );
    });

    it('holds for a file server of its own (FILE_SERVER_URL) too', async () => {
      const backend = await startTlsBackend();
      const files = await startTlsBackend();
      const checked = await gateway({ CHAT_BACKEND_URL: backend.url, FILE_SERVER_URL: files.url });
      expect((await checked.app.inject({ method: 'GET', url: '/plate/icon.svg' })).statusCode).toBe(502);
      expect(files.requests).toEqual([]);

      const insecure = await gateway({
        CHAT_BACKEND_URL: backend.url,
        FILE_SERVER_URL: files.url,
        UPSTREAM_TLS_INSECURE: 'true',
      });
      expect((await insecure.app.inject({ method: 'GET', url: '/plate/icon.svg' })).body).toBe('<svg id="over-tls"/>');
      expect(files.requests).toEqual(['GET /plate/icon.svg']);
    });
  },
);
