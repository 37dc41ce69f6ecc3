import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS, ENABLE_MODE_HEADER, WITHDRAWAL_REVIEW_PERMISSION } from '../../server/contract/index.js';
import { SANDBOX_AES_KEY_TEXT } from '../../sandbox/key.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { SseClient } from '../support/sse-client.js';
import { removeTempDirs, tempDir, waitHealthy, type NodeProcess } from '../support/processes.js';
import { freePort } from '../support/ports.js';
import { logIn } from '../support/login.js';
import { gatewayProcess } from './support/held-backend.js';

/**
 * Scaling out: the sealed cookie carries the session, so a browser that a load balancer sends to
 * another replica after logging in keeps working, when the replicas share SESSION_SECRET. Two
 * gateways, each the shipped bundle (dist/server/main.js) in a process of its own with its own
 * data folder, as replicas run, on one sandbox backend, over real HTTP.
 */

const SHARED_SECRET = 'replicas-share-this-session-secret-0123456789';

interface Replica {
  process: NodeProcess;
  port: number;
  origin: string;
}

let backend: StartedSandbox;
let a: Replica;
let b: Replica;

async function startReplica(backendUrl: string, secret = SHARED_SECRET): Promise<Replica> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const replica = gatewayProcess({
    SESSION_SECRET: secret,
    CHAT_BACKEND_URL: backendUrl,
    RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: tempDir('ops-replica-data-'),
    UI_DIR: tempDir('ops-replica-ui-'),
  });
  try {
    await waitHealthy(replica, origin);
  } catch (error) {
    await replica.stop();
    throw error;
  }
  return { process: replica, port, origin };
}

beforeAll(async () => {
  backend = await startSandbox({ port: 0, withdrawalTickMs: 0 });
  [a, b] = await Promise.all([startReplica(backend.url), startReplica(backend.url)]);
});

afterAll(async () => {
  await a?.process.stop();
  await b?.process.stop();
  await backend?.close();
  removeTempDirs();
});

describe('two replicas on one backend', { timeout: 60_000 }, () => {
  it('a login on one replica works on the other: the encoded permission list comes back decoded', async () => {
    const cookie = await logIn(a.origin);

    const session = await fetch(`${b.origin}/api/session`, { headers: { cookie } });
    expect(await session.json()).toMatchObject({ loggedIn: true });

    const res = await fetch(`${b.origin}${CALLS.permission}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get(ENABLE_MODE_HEADER)).toBeNull();
    const body = (await res.json()) as { code: number; data: Array<{ permission: string }> };
    expect(body.code).toBe(200);
    expect(body.data.map((entry) => entry.permission)).toContain(WITHDRAWAL_REVIEW_PERMISSION);
  });

  it('either replica serves the event stream of a session opened on the other', async () => {
    const cookie = await logIn(b.origin);
    const stream = await SseClient.open(a.port, cookie, { timeoutMs: 30_000 });
    try {
      expect(stream.status).toBe(200);
      await stream.waitFor(() => /event: withdrawal-count\ndata: \{"count":\d+\}/.test(stream.body), 'a count event');
    } finally {
      stream.close();
    }
  });

  it('a session the gateway did not seal is refused by every replica alike', async () => {
    const cookie = 'token=forged-token; userId=1';
    for (const replica of [a, b]) {
      const res = await fetch(`${replica.origin}${CALLS.permission}`, { headers: { cookie } });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 401, error: 'NOT_LOGGED_IN' });
    }
  });

  it('a replica with another SESSION_SECRET refuses the session the others sealed', async () => {
    const stranger = await startReplica(backend.url, 'a-different-secret-for-the-odd-replica-out');
    try {
      const cookie = await logIn(a.origin);
      const res = await fetch(`${stranger.origin}${CALLS.permission}`, { headers: { cookie } });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: 'NOT_LOGGED_IN' });
    } finally {
      await stranger.process.stop();
    }
  });
});
