import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_ERRORS } from '../../server/errors.js';
import { startFakeBackend } from '../support/fake-backend.js';
import { REPO_ROOT } from '../support/paths.js';
import { freePort } from '../support/ports.js';
import { cleanupAfterEach, NodeProcess, tempDir, waitHealthy } from '../support/processes.js';

/**
 * The gateway's bundles with and without the sandbox, as `node build.mjs` writes them (here its
 * server part, into folders of their own): main.js never holds a module of the sandbox, which
 * comes from a bundle of its own only when there is no CHAT_BACKEND_URL, and a build with
 * SANDBOX=0 has no such bundle at all.
 */

const run = promisify(execFile);
const defer = cleanupAfterEach();

interface Build {
  server: string;
  files: string[];
  /** The sources a bundle's source map names, relative to the repository. */
  sourcesOf(bundle: string): string[];
}

/** `node build.mjs --server-only` into a folder of its own, which runs as dist/ would. */
async function build(sandbox: '0' | '1'): Promise<Build> {
  const out = tempDir(`sandbox-bundle-${sandbox}-`);
  // The bundles leave the packages external and are ES modules: they need both beside them.
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(out, 'node_modules'), 'dir');
  writeFileSync(path.join(out, 'package.json'), '{ "type": "module" }\n');
  await run(process.execPath, ['build.mjs', '--server-only'], {
    cwd: REPO_ROOT,
    env: { ...process.env, OUT_DIR: out, SANDBOX: sandbox },
  });
  const server = path.join(out, 'server');
  return {
    server,
    files: readdirSync(server).sort(),
    sourcesOf: (bundle) => {
      const map = JSON.parse(readFileSync(path.join(server, `${bundle}.map`), 'utf8')) as { sources: string[] };
      return map.sources.map((s) => path.relative(REPO_ROOT, path.resolve(server, s)).split(path.sep).join('/'));
    },
  };
}

function gateway(built: Build, env: Record<string, string>): NodeProcess {
  const started = new NodeProcess([path.join(built.server, 'main.js')], {
    cwd: built.server,
    env: {
      HOST: '127.0.0.1',
      DATA_DIR: tempDir('sandbox-bundle-data-'),
      UI_DIR: tempDir('sandbox-bundle-ui-'),
      ...env,
    },
  });
  defer(() => started.stop());
  return started;
}

// Two builds and up to two gateway processes; on a loaded two-core machine each takes seconds.
describe('the sandbox outside the gateway bundle', { timeout: 120_000 }, () => {
  let withSandbox: Build;
  let withoutSandbox: Build;

  beforeAll(async () => {
    [withSandbox, withoutSandbox] = await Promise.all([build('1'), build('0')]);
  }, 120_000);

  it('keeps every sandbox module out of main.js, in its own bundle that takes only the contract besides', () => {
    const gatewaySources = withSandbox.sourcesOf('main.js');
    expect(gatewaySources).toContain('server/main.ts');
    expect(gatewaySources.filter((s) => s.startsWith('sandbox/'))).toEqual([]);

    expect(withSandbox.files).toEqual(expect.arrayContaining(['sandbox-start.js', 'sandbox.js']));
    const sandboxSources = withSandbox.sourcesOf('sandbox-start.js');
    expect(sandboxSources).toContain('sandbox/start.ts');
    expect(sandboxSources.filter((s) => !s.startsWith('sandbox/') && !s.startsWith('server/contract/'))).toEqual([]);
  });

  it('with SANDBOX=0 builds no sandbox bundle, and the very same main.js', () => {
    expect(withoutSandbox.files).toEqual(['audit-verify.js', 'audit-verify.js.map', 'main.js', 'main.js.map']);
    expect(readFileSync(path.join(withoutSandbox.server, 'main.js'), 'utf8')).toBe(
      readFileSync(path.join(withSandbox.server, 'main.js'), 'utf8'),
    );
  });

  it('without the sandbox and without CHAT_BACKEND_URL, stops at start with SANDBOX_NOT_BUILT and exit code 78', async () => {
    const started = gateway(withoutSandbox, { PORT: String(await freePort()) });
    const exit = await started.exited;
    expect(exit, started.output()).toEqual({ code: 78, signal: null });
    const lines = started.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toEqual([`Invalid configuration: SANDBOX_NOT_BUILT: ${GATEWAY_ERRORS.SANDBOX_NOT_BUILT.msg}`]);
    expect(started.stdout).toBe('');
  });

  it('without the sandbox, runs in front of the chat backend CHAT_BACKEND_URL names', async () => {
    const backend = await startFakeBackend();
    defer(() => backend.close());
    const port = await freePort();
    const started = gateway(withoutSandbox, { PORT: String(port), CHAT_BACKEND_URL: backend.url });
    await waitHealthy(started, `http://127.0.0.1:${port}`);
    expect(existsSync(path.join(withoutSandbox.server, 'sandbox-start.js'))).toBe(false);
  });

  it('with the sandbox and without CHAT_BACKEND_URL, loads it from its bundle and runs on it', async () => {
    const port = await freePort();
    const started = gateway(withSandbox, { PORT: String(port), LOG_LEVEL: 'info' });
    await waitHealthy(started, `http://127.0.0.1:${port}`);
    // Ready means the gateway reaches its chat backend: the sandbox it started from sandbox-start.js.
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status, started.output()).toBe(200);
  });
});
