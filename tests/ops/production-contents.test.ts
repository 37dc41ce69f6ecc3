import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, renameSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CALLS } from '../../server/contract/index.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../server/support/fake-backend.js';
import { fakeLogInOver, routeFakeLogin } from '../server/support/session.js';
import { readDockerfile, replayCopies, type Stage } from './support/dockerfile.js';
import { NodeProcess, REPO_ROOT, freePort, logInAdmin, removeTempDirs, tempDir, waitHealthy } from './support/processes.js';

/**
 * What the image ships, without Docker: the Dockerfile's own COPY lines are replayed into temporary
 * folders (the build context filtered by .dockerignore), the build runs there, the runtime folder
 * gets production dependencies only, and the gateway starts with the image's CMD and ENV.
 * A file the build needs but the Dockerfile does not copy, or a package the gateway imports that is
 * only a dev dependency, fails here as it would in the image.
 */

const execFileAsync = promisify(execFile);
const KEY_TEXT = 'ops-test-key-0123456789abcdefghi'; // 32 bytes: AES-256

let build: Stage;
let runtime: Stage;
/** Stands for the runtime stage's WORKDIR (/app). */
let appDir: string;
/** Stands for the runtime stage's DATA_DIR volume (/data). */
let dataDir: string;
let backend: FakeBackend;

/** The runtime stage's ENV with image paths mapped onto the temporary folders. */
function imageEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(runtime.env)) {
    if (value === '/data' || value.startsWith('/data/')) env[name] = dataDir + value.slice('/data'.length);
    else if (value === runtime.workdir || value.startsWith(`${runtime.workdir}/`)) env[name] = appDir + value.slice(runtime.workdir.length);
    else env[name] = value;
  }
  return env;
}

/** The image's CMD, run by the Node running the tests (Node 24 when CI runs these tests on it). */
function cmdArgs(): string[] {
  const [program, ...args] = runtime.cmd ?? [];
  expect(program).toBe('node');
  return args;
}

const gateways: NodeProcess[] = [];
afterEach(async () => {
  for (const gateway of gateways.splice(0)) await gateway.stop();
});

async function startGateway(env: Record<string, string>): Promise<{ gateway: NodeProcess; baseUrl: string; port: number }> {
  const port = await freePort();
  const gateway = new NodeProcess(cmdArgs(), { cwd: appDir, env: { ...imageEnv(), PORT: String(port), HOST: '127.0.0.1', ...env } });
  gateways.push(gateway);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitHealthy(gateway, baseUrl);
  return { gateway, baseUrl, port };
}

beforeAll(async () => {
  const { stages, keep } = readDockerfile(REPO_ROOT);
  expect(stages.map((s) => s.name)).toEqual(['build', 'runtime']);
  [build, runtime] = stages as [Stage, Stage];
  expect(runtime.image).toMatch(/^node:24[.-]/);
  expect(runtime.user).toBe('node');
  expect(runtime.env.DATA_DIR).toBe('/data');
  expect(runtime.volumes).toContain('/data');

  // Build stage: the context as Docker would send it; node_modules stands in for `npm ci`.
  const buildDir = tempDir('ops-image-build-');
  replayCopies(build, buildDir, { dir: REPO_ROOT, keep }, {});
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(buildDir, 'node_modules'), 'dir');
  expect(build.runs).toContain('npm run build');
  await execFileAsync(process.execPath, ['build.mjs'], { cwd: buildDir, maxBuffer: 16 * 1024 * 1024 });

  // Runtime stage: package files from the context, dist/ from the build stage, production deps only.
  appDir = tempDir('ops-image-app-');
  dataDir = tempDir('ops-image-data-');
  replayCopies(runtime, appDir, { dir: REPO_ROOT, keep }, { build: { root: buildDir, workdir: build.workdir } });
  expect(runtime.runs.some((run) => run.includes('npm ci --omit=dev'))).toBe(true);
  await execFileAsync('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: appDir,
    maxBuffer: 16 * 1024 * 1024,
  });

  backend = await startFakeBackend();
  routeFakeLogin(backend);
  backend.route(`GET ${CALLS.siteConfig}`, (_call, res) =>
    sendJson(res, { code: 200, msg: 'ok', data: { chatRoomName: 'Ops', webIconPath: '/plate/icon.png' } }),
  );
  backend.route(`GET ${CALLS.permission}`, (call, res) => {
    if (call.headers['w-token'] !== 'prod-token' || call.headers['w-userid'] !== '42') {
      return sendJson(res, { code: 401, msg: 'not logged in' });
    }
    sendJson(res, { code: 200, msg: 'ok', data: [{ permission: '/manage/userpage' }] });
  });
}, 300_000);

afterAll(async () => {
  await backend?.close();
  // The runtime folder holds a full production node_modules; do not leave one per run behind.
  removeTempDirs();
});

describe('the production image contents', { timeout: 120_000 }, () => {
  it('hold exactly dist/ and the package files, and dev dependencies are absent', () => {
    expect(readdirSync(appDir).sort()).toEqual(['dist', 'node_modules', 'package-lock.json', 'package.json']);
    expect(readdirSync(path.join(appDir, 'dist')).sort()).toEqual(['server', 'web']);
    const installed = readdirSync(path.join(appDir, 'node_modules'));
    for (const devOnly of ['vitest', 'typescript', 'esbuild', 'tsx', 'react']) expect(installed).not.toContain(devOnly);
  });

  it('install every package the server bundles import', async () => {
    const serverDir = path.join(appDir, 'dist', 'server');
    const specifiers = new Set<string>();
    for (const file of readdirSync(serverDir).filter((f) => f.endsWith('.js'))) {
      const code = readFileSync(path.join(serverDir, file), 'utf8');
      // esbuild writes each import statement on one line of its own; dynamic imports may sit anywhere.
      const statements = /^(?:import|export)\b[^\n]*?\bfrom\s*["']([^"']+)["'];?$|^import\s*["']([^"']+)["'];?$/gm;
      const dynamic = /\bimport\(\s*["']([^"']+)["']\s*\)/g;
      for (const match of [...code.matchAll(statements), ...code.matchAll(dynamic)]) {
        const specifier = match[1] ?? match[2]!;
        if (!/^(\.|\/|node:)/.test(specifier)) specifiers.add(specifier);
      }
    }
    expect([...specifiers]).toEqual(expect.arrayContaining(['fastify', 'undici', 'prom-client']));
    // Loading each one from the runtime folder also catches a broken transitive dependency.
    const script = `for (const s of JSON.parse(process.argv[1])) await import(s);`;
    await execFileAsync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify([...specifiers])], {
      cwd: path.join(appDir, 'dist', 'server'),
    });
  });

  it('serve health, readiness, metrics, the UI and a proxied call against a real backend', async () => {
    const { gateway, baseUrl, port } = await startGateway({ CHAT_BACKEND_URL: backend.url, RESPONSE_AES_KEY: KEY_TEXT });

    const health = await fetch(`${baseUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });

    const ready = await fetch(`${baseUrl}/readyz`);
    expect(ready.status).toBe(200);

    const metrics = await (await fetch(`${baseUrl}/metrics`)).text();
    expect(metrics).toContain('gateway_http_requests_total');
    expect(metrics).toContain('gateway_process_cpu_user_seconds_total');

    // A session, logged in through the gateway as a browser would.
    const cookie = await fakeLogInOver(baseUrl, { token: 'prod-token', userId: '42' });

    // The UI: the shell page, then the hashed assets it names, served from the build's copies.
    const page = await fetch(`${baseUrl}/dashboard`, { headers: { accept: 'text/html', cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    for (const asset of assets) {
      const res = await fetch(`${baseUrl}/${asset}`, { headers: { 'accept-encoding': 'br' } });
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('cache-control')).toContain('immutable');
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const loginRedirect = await fetch(`${baseUrl}/dashboard`, { headers: { accept: 'text/html' }, redirect: 'manual' });
    expect(loginRedirect.status).toBe(302);

    // A proxied call carries the session from the cookies to the backend as w-token / w-userId.
    const answer = await fetch(`${baseUrl}${CALLS.permission}`, {
      headers: { cookie, 'x-request-id': 'ops-request-1' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-request-id')).toBe('ops-request-1');
    expect(await answer.json()).toEqual({ code: 200, msg: 'ok', data: [{ permission: '/manage/userpage' }] });
    const reached = backend.calls.filter((c) => c.url === CALLS.permission).at(-1);
    expect(reached?.headers['w-token']).toBe('prod-token');
    expect(reached?.headers.cookie).toBeUndefined();

    // JSON logs: the effective configuration with the key masked, request ids taken from the header.
    await gateway.waitFor(() => gateway.logLines().some((l) => l.reqId === 'ops-request-1'), 'a log line of the proxied call');
    const configLine = gateway.logLines().find((l) => l.msg === 'effective configuration');
    expect(configLine).toBeDefined();
    expect(JSON.stringify(configLine)).toContain(`"port":${port}`);
    expect(gateway.stdout).not.toContain(KEY_TEXT);
    expect(gateway.stdout).not.toContain('prod-token');
  });

  it('run the sandbox backend when no backend is named: admin/admin123 logs in and gets the cookies', async () => {
    const { gateway, baseUrl } = await startGateway({});
    expect(gateway.logLines().some((l) => String(l.msg).startsWith('SANDBOX MODE'))).toBe(true);

    const cookie = await logInAdmin(baseUrl);

    const session = await fetch(`${baseUrl}/api/session`, { headers: { cookie } });
    expect(await session.json()).toMatchObject({ loggedIn: true, sandbox: true });
    const permissions = await fetch(`${baseUrl}${CALLS.permission}`, { headers: { cookie } });
    const list = (await permissions.json()) as { code: number; data: unknown[] };
    expect(list.code).toBe(200);
    expect(list.data.length).toBeGreaterThan(0);
    expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
  });

  it("answer the image's HEALTHCHECK command, and fail it when nothing listens", async () => {
    const [program, ...args] = runtime.healthcheck ?? [];
    expect(program).toBe('node');
    const { port } = await startGateway({ CHAT_BACKEND_URL: backend.url });
    const probe = (probePort: number) =>
      execFileAsync(process.execPath, args, { env: { PATH: process.env.PATH ?? '', PORT: String(probePort) }, timeout: 20_000 });
    await expect(probe(port)).resolves.toBeDefined();
    await expect(probe(await freePort())).rejects.toMatchObject({ code: 1 });
  });

  it('refuse to start when a runtime dependency is missing', async () => {
    const moduleDir = path.join(appDir, 'node_modules', 'undici');
    const hidden = `${moduleDir}.hidden`;
    renameSync(moduleDir, hidden);
    try {
      const gateway = new NodeProcess(cmdArgs(), { cwd: appDir, env: { ...imageEnv(), PORT: String(await freePort()), CHAT_BACKEND_URL: backend.url } });
      gateways.push(gateway);
      const exit = await gateway.exited;
      expect(exit.code).not.toBe(0);
      expect(gateway.stderr).toContain("Cannot find package 'undici'");
    } finally {
      renameSync(hidden, moduleDir);
    }
  });
});
