import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CALLS, RESOURCES, resourceCalls } from '../../server/contract/index.js';
import { REPO_ROOT } from '../support/paths.js';
import { freePort } from '../support/ports.js';
import { NodeProcess, removeTempDirs } from '../support/processes.js';
import { waitUntil } from '../support/wait.js';
import { builtGatewayArgs } from './support/built-gateway.js';

/**
 * SANDBOX_SEED and SANDBOX_USERS, as `npm run sandbox` (or the image's dist/server/sandbox.js)
 * reads them: the same seed gives the same people and money, another seed other ones, and the
 * users number what was asked. Each sandbox is the built bundle in a process of its own.
 */

const users = resourceCalls(RESOURCES.find((resource) => resource.id === 'users')!);
const running: NodeProcess[] = [];

afterAll(async () => {
  for (const sandbox of running.splice(0)) await sandbox.stop();
  removeTempDirs();
});

interface Person {
  account: string;
  nickname: string;
  balance: number;
}

/** Starts a sandbox with `env`; resolves with its first 100 users (seeded times aside) and how many it has. */
async function seeded(env: Record<string, string>): Promise<{ people: Person[]; total: number }> {
  builtGatewayArgs(); // refuses a missing or stale build, as for the gateway
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const sandbox = new NodeProcess([path.join(REPO_ROOT, 'dist', 'server', 'sandbox.js')], {
    cwd: REPO_ROOT,
    env: { PORT: String(port), ...env },
  });
  running.push(sandbox);
  await waitUntil(
    async () => (await fetch(`${origin}${CALLS.siteConfig}`).catch(() => null))?.ok === true,
    `the sandbox on ${port}`,
    { timeoutMs: 30_000 },
  );
  const login = await fetch(`${origin}${CALLS.login}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'admin', password: 'admin123', code: '' }),
  });
  const { data } = (await login.json()) as { data: { token: string; userId: string | number } };
  const answer = await fetch(`${origin}${users.list}?pageNum=1&pageSize=100&sort=id`, {
    headers: { 'w-token': data.token, 'w-userId': String(data.userId) },
  });
  const body = (await answer.json()) as { code: number; data: { list: Person[]; total: number } };
  expect(body.code).toBe(200);
  return {
    people: body.data.list.map(({ account, nickname, balance }) => ({ account, nickname, balance })),
    total: body.data.total,
  };
}

describe('the sandbox settings', { timeout: 120_000 }, () => {
  it('SANDBOX_SEED: the same seed gives the same data, another seed other data; SANDBOX_USERS: that many users', async () => {
    const [first, again, other] = await Promise.all([
      seeded({ SANDBOX_SEED: '7', SANDBOX_USERS: '40' }),
      seeded({ SANDBOX_SEED: '7', SANDBOX_USERS: '40' }),
      seeded({ SANDBOX_SEED: '8', SANDBOX_USERS: '40' }),
    ]);
    expect(first.total).toBe(40);
    expect(first.people).toHaveLength(40);
    expect(again).toEqual(first);
    expect(other.total).toBe(40);
    // Another seed: other names and other money, not the same people reshuffled.
    const names = new Set(first.people.map((p) => p.nickname));
    expect(other.people.filter((p) => names.has(p.nickname)).length).toBeLessThan(20);
    expect(other.people.map((p) => p.balance)).not.toEqual(first.people.map((p) => p.balance));

    const larger = await seeded({ SANDBOX_SEED: '7', SANDBOX_USERS: '250' });
    expect(larger.total).toBe(250);
  });
});
