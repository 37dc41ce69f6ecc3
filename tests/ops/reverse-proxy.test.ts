import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS } from '../../server/contract/index.js';
import { SANDBOX_AES_KEY_TEXT } from '../../sandbox/key.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { SseClient } from '../support/sse-client.js';
import { hasProgram, skipWithout } from '../support/ci.js';
import { NodeProcess, removeTempDirs, tempDir, waitHealthy } from '../support/processes.js';
import { freePort } from '../support/ports.js';
import { REPO_ROOT } from '../support/paths.js';
import { selfSignedCertificate } from '../support/tls.js';
import { gatewayProcess } from './support/held-backend.js';

/**
 * The nginx site of docs/operators.md, run as written (only ports, names and certificate paths swapped) in front
 * of the shipped gateway (dist/server/main.js in a process of its own, configured as that file says): TLS in front, TRUST_PROXY for scheme and host, Secure cookies, event streams passed
 * on unbuffered, the proxy's request id kept. Needs nginx and openssl: skipped where they are absent,
 * failed in CI.
 */

const nginxBinary = ['nginx', '/usr/sbin/nginx'].find((candidate) => hasProgram(candidate));
const missing = [...(nginxBinary ? [] : ['nginx']), ...(hasProgram('openssl') ? [] : ['openssl'])];

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

let folder: string;
let ca: Buffer;
let backend: StartedSandbox;
let gateway: NodeProcess;
let nginx: NodeProcess;
let tlsPort: number;
let plainPort: number;
let origin: string;

function documentedNginxSite(): string {
  const doc = readFileSync(path.join(REPO_ROOT, 'docs/operators.md'), 'utf8');
  const section = doc.slice(doc.indexOf('\n## Behind a reverse proxy'));
  const match = /```nginx\n([\s\S]*?)\n```/.exec(section);
  if (!match) throw new Error('docs/operators.md "Behind a reverse proxy" has no nginx snippet');
  return match[1]!;
}

function replaceAll(text: string, from: string, to: string): string {
  if (!text.includes(from))
    throw new Error(`the nginx snippet of docs/operators.md no longer contains "${from}"; update this test with it`);
  return text.split(from).join(to);
}

function tls(method: string, pathname: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // The Host a browser at https://localhost:<port> sends; the socket goes to 127.0.0.1 all the same.
    const withHost = { host: `localhost:${tlsPort}`, ...headers };
    const req = httpsRequest(
      { host: '127.0.0.1', port: tlsPort, servername: 'localhost', ca, method, path: pathname, headers: withHost },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function logIn(): Promise<Answer> {
  return tls(
    'POST',
    CALLS.login,
    { 'content-type': 'application/json', origin },
    JSON.stringify({ account: 'admin', password: 'admin123' }),
  );
}

const cookiesOf = (answer: Answer) =>
  (answer.headers['set-cookie'] ?? []).map((line) => line.split(';')[0]!).join('; ');

describe.skipIf(skipWithout(missing, 'the nginx site of docs/operators.md'))(
  'behind the nginx site of docs/operators.md with TLS',
  { timeout: 60_000 },
  () => {
    beforeAll(async () => {
      folder = tempDir('ops-nginx-');
      const { key, cert: crt } = selfSignedCertificate(folder, 'console');
      ca = readFileSync(crt);

      backend = await startSandbox({ port: 0, withdrawalTickMs: 0 });
      const gatewayPort = await freePort();
      gateway = gatewayProcess({
        CHAT_BACKEND_URL: backend.url,
        RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT,
        TRUST_PROXY: '127.0.0.1',
        ALLOWED_HOSTS: 'localhost',
        HOST: '127.0.0.1',
        PORT: String(gatewayPort),
        DATA_DIR: tempDir('ops-nginx-data-'),
        UI_DIR: tempDir('ops-nginx-ui-'),
      });
      // /healthz answers any host name, so the monitors of a proxy can reach it.
      await waitHealthy(gateway, `http://127.0.0.1:${gatewayPort}`);

      tlsPort = await freePort();
      plainPort = await freePort();
      origin = `https://localhost:${tlsPort}`;
      let site = documentedNginxSite();
      site = replaceAll(site, 'server 127.0.0.1:8080;', `server 127.0.0.1:${gatewayPort};`);
      site = replaceAll(site, 'listen 443 ssl http2;', `listen 127.0.0.1:${tlsPort} ssl http2;`);
      site = replaceAll(site, 'listen 80;', `listen 127.0.0.1:${plainPort};`);
      site = replaceAll(site, 'listen 80 default_server;', `listen 127.0.0.1:${plainPort} default_server;`);
      site = replaceAll(site, 'listen 443 ssl default_server;', `listen 127.0.0.1:${tlsPort} ssl default_server;`);
      site = replaceAll(site, 'server_name admin.example.com;', 'server_name localhost;');
      site = replaceAll(site, '/etc/nginx/tls/admin.example.com.crt', crt);
      site = replaceAll(site, '/etc/nginx/tls/admin.example.com.key', key);
      const temp = (name: string) => `${name}_temp_path ${path.join(folder, name)};`;
      // One process, no privilege drop, everything under the temporary folder.
      writeFileSync(
        path.join(folder, 'nginx.conf'),
        `daemon off;\nmaster_process off;\npid ${path.join(folder, 'nginx.pid')};\nerror_log ${path.join(folder, 'error.log')} warn;\n` +
          `events {}\nhttp {\n  access_log off;\n  ${temp('client_body')}\n  ${temp('proxy')}\n  ${temp('fastcgi')}\n  ${temp('uwsgi')}\n  ${temp('scgi')}\n${site}\n}\n`,
      );
      nginx = new NodeProcess(
        ['-p', folder, '-c', path.join(folder, 'nginx.conf'), '-e', path.join(folder, 'error.log')],
        {
          cwd: folder,
          env: {},
          program: nginxBinary!,
        },
      );
      const deadline = Date.now() + 30_000;
      for (;;) {
        if (nginx.exit)
          throw new Error(`nginx stopped: ${nginx.output()}\n${readFileSync(path.join(folder, 'error.log'), 'utf8')}`);
        const ready = await tls('GET', '/healthz').catch(() => null);
        if (ready?.status === 200) break;
        if (Date.now() > deadline) throw new Error(`nginx never answered\n${nginx.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });

    afterAll(async () => {
      await nginx?.stop();
      await gateway?.stop();
      await backend?.close();
      removeTempDirs();
    });

    it('logs in over HTTPS: the gateway sees the scheme and host, so the origin check passes and cookies are Secure', async () => {
      const answer = await logIn();
      expect(answer.status, answer.body).toBe(200);
      expect((JSON.parse(answer.body) as { code: number }).code).toBe(200);
      const cookies = answer.headers['set-cookie'] ?? [];
      expect(cookies.map((line) => line.split('=')[0]).sort()).toEqual(['token', 'userId']);
      for (const line of cookies) expect(line.toLowerCase()).toMatch(/;\s*secure(;|$)/);

      const permissions = await tls('GET', CALLS.permission, { cookie: cookiesOf(answer) });
      expect(permissions.status).toBe(200);
      expect((JSON.parse(permissions.body) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    });

    it('keeps the request id nginx gives each request', async () => {
      const answer = await tls('GET', '/api/session');
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    });

    it('passes an event stream on while it is open (no buffering)', async () => {
      const cookie = cookiesOf(await logIn());
      const stream = await SseClient.open(tlsPort, cookie, {
        tls: { ca, servername: 'localhost' },
        headers: { host: `localhost:${tlsPort}` },
        timeoutMs: 30_000,
      });
      try {
        expect(stream.status).toBe(200);
        // Seeing the event while the stream is still open is the point: a buffering proxy would hold it.
        await stream.waitFor(() => stream.body.includes('event: withdrawal-count'), 'the first count event');
        expect(stream.ended).toBe(false);
        expect(stream.body).toMatch(/data: \{"count":\d+\}/);
      } finally {
        stream.close();
      }
    });

    it('redirects plain HTTP to HTTPS and keeps /metrics off the public side', async () => {
      const redirect = await new Promise<Answer>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port: plainPort, path: '/dashboard', headers: { host: 'localhost' } },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' }));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(redirect.status).toBe(301);
      expect(redirect.headers.location).toBe('https://localhost/dashboard');
      expect((await tls('GET', '/metrics')).status).toBe(404);
    });

    it('closes a connection naming another host without an answer (DNS rebinding), on both ports', async () => {
      await expect(tls('GET', '/api/session', { host: 'rebind.attacker.example' })).rejects.toThrow();
      const plain = new Promise<Answer>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port: plainPort, path: '/', headers: { host: 'rebind.attacker.example' } },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' }));
          },
        );
        req.on('error', reject);
        req.end();
      });
      await expect(plain).rejects.toThrow();
      expect((await tls('GET', '/api/session')).status).toBe(200);
    });
  },
);
