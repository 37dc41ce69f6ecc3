import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { SANDBOX_AES_KEY_TEXT } from '../../sandbox/key.js';
import { skipWithout } from '../support/ci.js';
import { readDockerfile } from './support/dockerfile.js';
import { REPO_ROOT } from '../support/paths.js';

/**
 * The operator's files must not drift from the code: a variable the gateway reads but the
 * configuration table of docs/operators.md, .env.example or the compose file forget is a setting operators cannot find.
 */

const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');

/** `docker compose` (v2 plugin) or `docker-compose` (v1), whichever this machine has; neither needs an engine for `config`. */
function composeCommand(): string[] | null {
  if (spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0) return ['docker', 'compose'];
  if (spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0) return ['docker-compose'];
  return null;
}
const compose = composeCommand();

/** Every variable loadConfig looks at, seen by handing it an environment that records reads. */
function variablesTheGatewayReads(): string[] {
  const seen = new Set<string>();
  const env = new Proxy({} as Record<string, string | undefined>, {
    get(_target, name) {
      if (typeof name === 'string') seen.add(name);
      return undefined;
    },
  });
  loadConfig(env, { sandboxKey: SANDBOX_AES_KEY_TEXT });
  return [...seen].sort();
}

function configurationTable(): string[] {
  const doc = read('docs/operators.md');
  const start = doc.indexOf('\n## Configuration');
  expect(start).toBeGreaterThan(0);
  const section = doc.slice(start + 1, doc.indexOf('\n## ', start + 1));
  return [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]!);
}

describe('operator files', () => {
  const gatewayVariables = variablesTheGatewayReads();

  it('the configuration table of docs/operators.md names every variable the gateway reads', () => {
    expect(gatewayVariables.length).toBeGreaterThan(10);
    expect(configurationTable()).toEqual(expect.arrayContaining(gatewayVariables));
  });

  it('.env.example documents every variable of the configuration table, commented out', () => {
    const example = read('.env.example');
    for (const name of configurationTable()) expect(example, name).toMatch(new RegExp(`^# ${name}=`, 'm'));
    // Defaults stay defaults until an operator uncomments a line: no live assignment in the example.
    expect(example).not.toMatch(/^[A-Z_]+=/m);
  });

  it('docker-compose.yml passes every setting to the console, except what the image itself fixes', () => {
    const compose = read('docker-compose.yml');
    const { stages } = readDockerfile(REPO_ROOT);
    const fixedByImage = Object.keys(stages.at(-1)!.env);
    for (const name of gatewayVariables.filter((n) => !fixedByImage.includes(n))) {
      expect(compose, name).toMatch(new RegExp(`^\\s+${name}: \\$\\{${name}:-`, 'm'));
    }
  });

  it('docker-compose.yml probes health with the same command as the image', () => {
    const { stages } = readDockerfile(REPO_ROOT);
    const probe = stages.at(-1)!.healthcheck;
    expect(probe).not.toBeNull();
    expect(read('docker-compose.yml')).toContain(`test: ${JSON.stringify(['CMD', ...probe!]).replace(/","/g, '", "')}`);
  });

  it.skipIf(skipWithout(compose === null ? ['docker-compose'] : [], 'checking docker-compose.yml'))(
    'docker compose config accepts the compose file, with and without the backend named',
    () => {
      const [program, ...base] = compose!;
      // A clean environment, so a developer's .env-like shell variables do not decide the outcome.
      const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
      for (const extra of [
        {},
        {
          CHAT_BACKEND_IMAGE: 'registry.example.com/chat/backend:1',
          RESPONSE_AES_KEY: 'base64:MDEyMzQ1Njc4OWFiY2RlZg==',
        },
      ]) {
        const result = spawnSync(program!, [...base, '-f', 'docker-compose.yml', '--profile', 'sandbox', 'config'], {
          cwd: REPO_ROOT,
          env: { ...env, ...extra },
          encoding: 'utf8',
        });
        expect(result.status, result.stderr).toBe(0);
        for (const service of ['chat-backend:', 'console:', 'console-sandbox:'])
          expect(result.stdout).toContain(service);
        if ('CHAT_BACKEND_IMAGE' in extra) expect(result.stdout).toContain('registry.example.com/chat/backend:1');
      }
    },
  );

  it.skipIf(skipWithout(compose === null ? ['docker-compose'] : [], 'checking docker-compose.yml'))(
    'the replicas example: two consoles sharing one Redis behind nginx, with the nginx site it mounts',
    () => {
      const [program, ...base] = compose!;
      const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
      const result = spawnSync(program!, [...base, '-f', 'docker-compose.yml', '--profile', 'replicas', 'config'], {
        cwd: REPO_ROOT,
        env,
        encoding: 'utf8',
      });
      expect(result.status, result.stderr).toBe(0);
      for (const service of ['redis:', 'console-replica-a:', 'console-replica-b:', 'console-balancer:'])
        expect(result.stdout).toContain(service);
      expect(result.stdout.match(/REDIS_URL: redis:\/\/redis:6379\/0/g)).toHaveLength(2);
      const site = read('deploy/nginx-replicas.conf');
      for (const replica of ['console-replica-a:8080', 'console-replica-b:8080'])
        expect(site).toContain(`server ${replica}`);
    },
  );
});
