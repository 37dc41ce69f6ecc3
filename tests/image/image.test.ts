import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS, GATEWAY_PATHS } from '../../server/contract/index.js';
import { SANDBOX_AES_KEY_TEXT } from '../../sandbox/key.js';
import { readDockerfile, type Stage } from '../ops/support/dockerfile.js';
import { REPO_ROOT } from '../support/paths.js';
import { freePort } from '../support/ports.js';
import { logIn } from '../support/login.js';
import { SseClient } from '../support/sse-client.js';
import { skipWithout } from '../support/ci.js';
import { DockerObjects, IMAGE, docker, dockerOk, imageMissing, inspect, pollUntil } from './docker.js';

/**
 * The real image, built from the Dockerfile (`.ci/build-image`, which CI runs first), run by a real
 * Docker engine: what it holds, who it runs as, what it may write, how it reports health and how it
 * stops, on its sandbox backend and in front of a sandbox backend in a second container. Skipped
 * where there is no image; failed in CI, which always builds it.
 */

interface ImageInspect {
  Config: {
    User: string;
    Env: string[];
    Cmd: string[] | null;
    Entrypoint: string[] | null;
    WorkingDir: string;
    ExposedPorts: Record<string, object> | null;
    Volumes: Record<string, object> | null;
    StopSignal?: string;
    Healthcheck?: { Test: string[]; Interval: number; Timeout: number; StartPeriod: number; Retries: number };
  };
}

interface ContainerInspect {
  State: {
    Running: boolean;
    ExitCode: number;
    OOMKilled: boolean;
    Health?: { Status: string; Log: Array<{ ExitCode: number; Output: string }> };
  };
}

const objects = new DockerObjects();
let runtime: Stage;

const missing = imageMissing();

/** Docker's duration text (`15s`, `1m30s`) in nanoseconds, as `docker inspect` reports durations. */
function nanoseconds(text: string): number {
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+)(ms|s|m|h)/g)) {
    total += Number(amount) * { ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 }[unit as 'ms' | 's' | 'm' | 'h'];
  }
  return total;
}

async function logs(container: string): Promise<{ stdout: string; stderr: string }> {
  const run = await docker(['logs', container]);
  return { stdout: run.stdout, stderr: run.stderr };
}

/** Resolves once the container's gateway (or sandbox) answers `probePath`; fails with its logs when it exits first. */
async function waitAnswering(
  container: string,
  baseUrl: string,
  probePath: string = GATEWAY_PATHS.healthz,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}${probePath}`)).ok) return;
    } catch {
      // not listening yet
    }
    const state = (await inspect<ContainerInspect>('container', container)).State;
    if (!state.Running || Date.now() > deadline) {
      const { stdout, stderr } = await logs(container);
      throw new Error(
        `${container} ${state.Running ? 'did not answer in time' : `exited with ${state.ExitCode}`}\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Runs a Node script in a throwaway container of the image, as its own user unless told otherwise. */
async function nodeInImage(
  script: string,
  options: { user?: string; workdir?: string; module?: boolean } = {},
): Promise<string> {
  return dockerOk([
    'run',
    '--rm',
    '--network',
    'none',
    ...(options.user ? ['--user', options.user] : []),
    ...(options.workdir ? ['--workdir', options.workdir] : []),
    '--entrypoint',
    'node',
    IMAGE,
    ...(options.module ? ['--input-type=module'] : []),
    '-e',
    script,
  ]);
}

beforeAll(() => {
  runtime = readDockerfile(REPO_ROOT).stages.at(-1)!;
});

afterAll(async () => {
  await objects.removeAll();
}, 60_000);

describe.skipIf(skipWithout(missing ? [missing] : [], 'the image tests (build the image with .ci/build-image)'))(
  `the image ${IMAGE}`,
  { timeout: 120_000 },
  () => {
    describe('as built', () => {
      it('has the user, port, stop signal, health check, command, volume and environment the Dockerfile gives it', async () => {
        const { Config: config } = await inspect<ImageInspect>('image', IMAGE);
        // What the Dockerfile must say...
        expect(runtime.user).toBe('node');
        expect(runtime.stopSignal).toBe('SIGTERM');
        expect(runtime.exposed).toEqual([`${runtime.env.PORT}/tcp`]);
        expect(runtime.cmd).toEqual(['node', 'dist/server/main.js']);
        expect(runtime.volumes).toEqual([runtime.env.DATA_DIR]);
        // ...is what the image carries.
        expect(config.User).toBe(runtime.user);
        expect(config.StopSignal).toBe(runtime.stopSignal);
        expect(Object.keys(config.ExposedPorts ?? {})).toEqual(runtime.exposed);
        // Exec form and no entrypoint: node is PID 1 and receives the stop signal itself.
        expect(config.Cmd).toEqual(runtime.cmd);
        expect(config.Entrypoint).toBeNull();
        expect(config.WorkingDir).toBe(runtime.workdir);
        expect(Object.keys(config.Volumes ?? {})).toEqual(runtime.volumes);
        for (const [name, value] of Object.entries(runtime.env)) expect(config.Env).toContain(`${name}=${value}`);
        expect(config.Healthcheck?.Test).toEqual(['CMD', ...runtime.healthcheck!]);
        const options = runtime.healthcheckOptions;
        expect(config.Healthcheck).toMatchObject({
          Interval: nanoseconds(options.interval!),
          Timeout: nanoseconds(options.timeout!),
          StartPeriod: nanoseconds(options['start-period']!),
          Retries: Number(options.retries),
        });
      });

      it('holds dist/, the package files and production dependencies only, owned by root and read-only to uid 1000; /data is writable', async () => {
        const script = `
        const fs = require('fs'), path = require('path');
        const walk = (dir, out) => { for (const e of fs.readdirSync(dir, { withFileTypes: true })) { const p = path.join(dir, e.name); out.push(p); if (e.isDirectory()) walk(p, out); } return out; };
        const files = walk('/app', ['/app']);
        const writable = files.filter((p) => { try { fs.accessSync(p, fs.constants.W_OK); return true; } catch { return false; } });
        const attempt = (fn) => { try { fn(); return 'written'; } catch (e) { return e.code; } };
        console.log(JSON.stringify({
          uid: process.getuid(), gid: process.getgid(), node: process.version, files: files.length, writable,
          notRootOwned: files.filter((p) => fs.lstatSync(p).uid !== 0),
          top: fs.readdirSync('/app').sort(), dist: fs.readdirSync('/app/dist').sort(), modules: fs.readdirSync('/app/node_modules'),
          replaceApp: attempt(() => fs.writeFileSync('/app/dist/server/main.js', 'x')),
          addToApp: attempt(() => fs.writeFileSync('/app/extra.js', 'x')),
          data: attempt(() => fs.writeFileSync('/data/probe', 'x')),
          dataOwner: fs.statSync('/data').uid,
        }));`;
        const seen = JSON.parse(await nodeInImage(script)) as Record<string, unknown> & {
          files: number;
          modules: string[];
        };
        expect(seen).toMatchObject({
          uid: 1000,
          gid: 1000,
          writable: [],
          notRootOwned: [],
          top: ['dist', 'node_modules', 'package-lock.json', 'package.json'],
          dist: ['server', 'web'],
          replaceApp: 'EACCES',
          addToApp: 'EACCES',
          data: 'written',
          dataOwner: 1000,
        });
        expect(seen.node).toMatch(/^v24\./);
        expect(seen.files).toBeGreaterThan(500);
        expect(seen.modules).toEqual(expect.arrayContaining(['fastify', 'undici', 'pino', 'prom-client']));
        for (const devOnly of ['vitest', 'typescript', 'esbuild', 'tsx', 'react', 'playwright-core', 'pino-pretty'])
          expect(seen.modules).not.toContain(devOnly);
      });

      it('installs every package the server bundles import, and refuses to start without one', async () => {
        // esbuild writes each import statement on one line of its own; dynamic imports may sit anywhere.
        const script = `
        import { readdirSync, readFileSync } from 'node:fs';
        const specifiers = new Set();
        for (const file of readdirSync('.').filter((f) => f.endsWith('.js'))) {
          const code = readFileSync(file, 'utf8');
          const statements = /^(?:import|export)\\b[^\\n]*?\\bfrom\\s*["']([^"']+)["'];?$|^import\\s*["']([^"']+)["'];?$/gm;
          const dynamic = /\\bimport\\(\\s*["']([^"']+)["']\\s*\\)/g;
          for (const m of [...code.matchAll(statements), ...code.matchAll(dynamic)]) {
            const s = m[1] ?? m[2];
            if (!/^(\\.|\\/|node:)/.test(s)) specifiers.add(s);
          }
        }
        for (const s of specifiers) await import(s);
        console.log(JSON.stringify([...specifiers]));`;
        const loaded = JSON.parse(await nodeInImage(script, { workdir: '/app/dist/server', module: true })) as string[];
        expect(loaded).toEqual(expect.arrayContaining(['fastify', 'undici', 'prom-client', 'pino']));

        const broken = await docker([
          'run',
          '--rm',
          '--network',
          'none',
          '--user',
          'root',
          '--entrypoint',
          'sh',
          IMAGE,
          '-c',
          'rm -rf node_modules/undici && exec node dist/server/main.js',
        ]);
        expect(broken.code).not.toBe(0);
        expect(broken.stderr).toContain("Cannot find package 'undici'");
      });
    });

    describe('run on its sandbox backend, with a fresh named volume', () => {
      let container: string;
      let volume: string;
      let port: number;
      let baseUrl: string;
      let cookie: string;

      beforeAll(async () => {
        port = await freePort();
        baseUrl = `http://127.0.0.1:${port}`;
        volume = objects.volume('data');
        // As docs/operators.md runs it: a named volume on /data and a grace period above SHUTDOWN_TIMEOUT_MS.
        container = await objects.run('sandbox-console', [
          '-v',
          `${volume}:/data`,
          '--stop-timeout',
          '40',
          '-e',
          `PORT=${port}`,
          '-e',
          'HOST=127.0.0.1',
          IMAGE,
        ]);
        await waitAnswering(container, baseUrl);
      });

      it('serves the console: admin/admin123 logs in through the gateway and /manage answers, decoded', async () => {
        cookie = await logIn(baseUrl);
        const session = await (await fetch(`${baseUrl}${GATEWAY_PATHS.session}`, { headers: { cookie } })).json();
        expect(session).toMatchObject({ loggedIn: true, sandbox: true });

        // The sandbox answers these two encrypted (modes 1 and 3): the browser gets plain JSON.
        for (const call of [CALLS.permission, CALLS.count]) {
          const answer = await fetch(`${baseUrl}${call}`, { headers: { cookie } });
          expect(answer.status, call).toBe(200);
          expect(answer.headers.get('w-enable-mode')).toBeNull();
          const body = (await answer.json()) as { code: number; data: unknown };
          expect(body.code, call).toBe(200);
          expect(body.data).toBeTruthy();
        }

        const page = await fetch(`${baseUrl}/dashboard`, { headers: { accept: 'text/html', cookie } });
        expect(page.status).toBe(200);
        const html = await page.text();
        const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
        expect(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css'))).toBe(true);
        for (const asset of assets) {
          const res = await fetch(`${baseUrl}/${asset}`, { headers: { 'accept-encoding': 'br' } });
          expect(res.status, asset).toBe(200);
          expect(res.headers.get('cache-control')).toContain('immutable');
        }
        expect((await fetch(`${baseUrl}${GATEWAY_PATHS.readyz}`)).status).toBe(200);

        const { stdout } = await logs(container);
        expect(stdout).toContain('SANDBOX MODE');
        // The sandbox banner names the password; no request line may carry it.
        expect(stdout).not.toMatch(/"password":"(?!\[redacted\])/);
        const token = /(?:^|; )token=([^;]+)/.exec(cookie)![1]!;
        expect(stdout).not.toContain(token);
      });

      it('runs node as PID 1 with uid 1000, and keeps the error log on the volume', async () => {
        const status = await dockerOk(['exec', container, 'cat', '/proc/1/status']);
        expect(status).toMatch(/^Uid:\s+1000\s+1000\s+1000\s+1000$/m);
        expect(status).toMatch(/^Gid:\s+1000\s+1000\s+1000\s+1000$/m);
        const command = await dockerOk(['exec', container, 'cat', '/proc/1/cmdline']);
        expect(command.split('\0').filter(Boolean)).toEqual(['node', 'dist/server/main.js']);

        const message = `image-test-${Date.now()}`;
        const posted = await fetch(`${baseUrl}${GATEWAY_PATHS.errorLog}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: baseUrl },
          body: JSON.stringify({ message, url: '/image-test' }),
        });
        expect(posted.status).toBe(200);
        // Posted without a session: the anonymous lane's file holds it.
        const stored = await dockerOk(['exec', container, 'cat', '/data/error-log-anonymous.jsonl']);
        expect(stored).toContain(message);
        // The volume did not exist before the run: Docker created it from the image's /data, owned by node.
        expect(await dockerOk(['exec', container, 'stat', '-c', '%u:%g', '/data'])).toBe('1000:1000');
      });

      it('turns healthy through its own HEALTHCHECK, whose probe fails when nothing answers', async () => {
        const state = await pollUntil(
          async () => (await inspect<ContainerInspect>('container', container)).State,
          (s) => s.Health?.Status === 'healthy' || !s.Running,
          'the health status to turn healthy',
          90_000,
        );
        expect(state.Health?.Status).toBe('healthy');
        expect(state.Health!.Log.at(-1)!.ExitCode).toBe(0);
        // The same probe against a port nobody listens on fails: the check can tell.
        const { Config: config } = await inspect<ImageInspect>('image', IMAGE);
        const [form, ...probe] = config.Healthcheck!.Test;
        expect(form).toBe('CMD');
        const failing = await docker(['exec', '-e', `PORT=${await freePort()}`, container, ...probe]);
        expect(failing.code).toBe(1);
      });

      it('on docker stop ends its event streams and exits 0 within the grace period', async () => {
        const stream = await SseClient.open(port, cookie, { timeoutMs: 30_000 });
        expect(stream.status).toBe(200);
        await stream.waitFor(() => stream.counts().length > 0, 'the first count event');

        await dockerOk(['stop', container], 90_000);
        await stream.waitFor(() => stream.ended, 'the event stream to end');
        expect(stream.body).toMatch(/retry: \d+\n\n$/);
        const state = (await inspect<ContainerInspect>('container', container)).State;
        // Past the grace period Docker sends SIGKILL, and the exit code would be 137.
        expect(state).toMatchObject({ Running: false, ExitCode: 0, OOMKilled: false });
        const { stdout } = await logs(container);
        expect(stdout).toContain('"signal":"SIGTERM"');
        expect(stdout).toContain('shut down cleanly');
      });
    });

    describe('run in front of a sandbox backend in a second container (CHAT_BACKEND_URL)', () => {
      let backend: string;
      let backendUrl: string;
      let gateway: string;
      let baseUrl: string;

      beforeAll(async () => {
        const backendPort = await freePort();
        backendUrl = `http://127.0.0.1:${backendPort}`;
        backend = await objects.run('backend', [
          '-e',
          `PORT=${backendPort}`,
          '--entrypoint',
          'node',
          IMAGE,
          'dist/server/sandbox.js',
        ]);
        await waitAnswering(backend, backendUrl, CALLS.siteConfig);

        const port = await freePort();
        baseUrl = `http://127.0.0.1:${port}`;
        gateway = await objects.run('gateway', [
          '-e',
          `PORT=${port}`,
          '-e',
          `CHAT_BACKEND_URL=${backendUrl}`,
          '-e',
          `RESPONSE_AES_KEY=${SANDBOX_AES_KEY_TEXT}`,
          IMAGE,
        ]);
        await waitAnswering(gateway, baseUrl);
      });

      it('logs in, decodes the backend answers and serves its files, as a gateway to a real backend', async () => {
        const ready = await fetch(`${baseUrl}${GATEWAY_PATHS.readyz}`);
        expect(ready.status).toBe(200);
        // Ready because the backend container answers; its address is not told to whoever asks.
        const readiness = (await ready.json()) as Record<string, unknown>;
        expect(readiness).toEqual({ status: 'ready' });
        expect(JSON.stringify(readiness)).not.toContain(backendUrl);

        const cookie = await logIn(baseUrl);
        expect(await (await fetch(`${baseUrl}${GATEWAY_PATHS.session}`, { headers: { cookie } })).json()).toMatchObject(
          { loggedIn: true, sandbox: false },
        );
        for (const call of [CALLS.permission, CALLS.count]) {
          const body = (await (await fetch(`${baseUrl}${call}`, { headers: { cookie } })).json()) as { code: number };
          expect(body.code, call).toBe(200);
        }
        const site = (await (await fetch(`${baseUrl}${CALLS.siteConfig}`)).json()) as { data: { webIconPath: string } };
        const icon = await fetch(`${baseUrl}/plate/${site.data.webIconPath.replace(/^\/+(plate\/)?/, '')}`);
        expect(icon.status).toBe(200);

        const { stdout } = await logs(gateway);
        expect(stdout).not.toContain('SANDBOX MODE');
        expect(stdout).toContain(`"chatBackendUrl":"${backendUrl}"`);
      });

      it('reports the backend container gone: not ready, and 502 for calls', async () => {
        const cookie = await logIn(baseUrl);
        await dockerOk(['stop', backend], 60_000);
        const notReady = await pollUntil(
          () => fetch(`${baseUrl}${GATEWAY_PATHS.readyz}`),
          (r) => r.status === 503,
          'readiness to fail',
          30_000,
        );
        expect(await notReady.json()).toMatchObject({ error: 'NOT_READY' });
        const call = await fetch(`${baseUrl}${CALLS.permission}`, { headers: { cookie } });
        expect(call.status).toBe(502);
        expect(await call.json()).toMatchObject({ error: 'UPSTREAM_UNREACHABLE' });
      });
    });
  },
);
