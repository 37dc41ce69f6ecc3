import { describe, expect, it } from 'vitest';
import { CALLS, GATEWAY_PATHS, SESSION_ENDED_EVENT } from '../../server/contract/index.js';
import { SseClient } from '../support/sse-client.js';
import { FAKE_PASSWORD, cookieHeader, fakeAccount, setCookieValues } from '../support/fake-session.js';
import { cleanupAfterEach, freshCall, tempDir, waitHealthy, type NodeProcess } from '../support/processes.js';
import { freePort } from '../support/ports.js';
import { gatewayProcess } from '../ops/support/held-backend.js';
import { SAVE_PATH, startRecordingBackend } from './support/rig.js';

/**
 * WORKERS=2: one gateway (the shipped bundle, dist/server/main.js), two processes behind one port. A logout taken by one worker must be
 * refused by the other at once and end the session's streams on both, and failed logins count
 * against one limit whichever worker took them. Every request rides a connection of its own, so
 * the cluster spreads them over both workers; the pino lines (each with its pid) prove it did.
 */

const defer = cleanupAfterEach();

/** The pids of the workers that logged a request line matching `filter`. */
function pidsAnswering(gateway: NodeProcess, filter: (line: Record<string, unknown>) => boolean): Set<number> {
  return new Set(
    gateway
      .logLines()
      .filter((l) => l.msg === 'request completed' && filter(l))
      .map((l) => Number(l.pid)),
  );
}

async function startCluster() {
  const backend = await startRecordingBackend();
  defer(() => backend.close());
  const port = await freePort();
  // The shipped bundle, as the image runs it: cluster mode is the entry point's, not buildApp's.
  const gateway = gatewayProcess({
    WORKERS: '2',
    CHAT_BACKEND_URL: backend.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: tempDir('sec-cluster-data-'),
    UI_DIR: tempDir('sec-cluster-ui-'),
    LOG_LEVEL: 'info',
    LOGIN_MAX_FAILURES: '4',
  });
  defer(() => gateway.stop());
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitHealthy(gateway, baseUrl, 90_000);
  await gateway.waitFor(
    () => gateway.logLines().filter((l) => /^Server listening at /.test(String(l.msg))).length === 2,
    'both workers to listen',
    90_000,
  );
  return { backend, gateway, port, baseUrl };
}

async function logIn(baseUrl: string, account: string, password: string) {
  return freshCall(baseUrl, CALLS.login, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ account, password, code: '' }),
  });
}

describe('sessions across the workers of one gateway', { timeout: 180_000 }, () => {
  it('a logout on one worker is refused on every worker at once, and ends the streams on both', async () => {
    const { gateway, port, baseUrl, backend } = await startCluster();
    // The generated secret is shared: a session sealed by one worker opens on the other.
    const login = await fetch(`${baseUrl}${CALLS.login}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl },
      body: JSON.stringify({
        account: fakeAccount({ token: 'tok-cluster', userId: '7' }),
        password: FAKE_PASSWORD,
        code: '',
      }),
    });
    const cookie = cookieHeader(setCookieValues(login.headers.getSetCookie()));
    for (let i = 0; i < 6; i++)
      expect((await freshCall(baseUrl, CALLS.permission, { headers: { cookie } })).status).toBe(200);
    expect(pidsAnswering(gateway, (l) => l.url === CALLS.permission).size).toBe(2);

    const streams: SseClient[] = [];
    defer(async () => {
      for (const s of streams) s.close();
    });
    for (let i = 0; i < 6; i++) {
      const stream = await SseClient.open(port, cookie, { timeoutMs: 30_000, headers: { connection: 'close' } });
      streams.push(stream);
      expect(stream.status).toBe(200);
    }

    const out = await freshCall(baseUrl, GATEWAY_PATHS.logout, {
      method: 'POST',
      headers: { cookie, origin: baseUrl },
    });
    expect(out.status).toBe(204);

    // Right after the logout's answer, every worker refuses the cookie.
    const before = backend.calls.length;
    for (let i = 0; i < 8; i++) {
      const replay = await freshCall(baseUrl, SAVE_PATH, {
        method: 'POST',
        headers: { cookie, origin: baseUrl, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(replay.status).toBe(401);
      expect(JSON.parse(replay.body)).toMatchObject({ error: 'NOT_LOGGED_IN' });
    }
    expect(backend.calls.slice(before)).toEqual([]);
    await gateway.waitFor(
      () => pidsAnswering(gateway, (l) => l.url === SAVE_PATH && l.statusCode === 401).size === 2,
      'refusals from both workers',
    );

    for (const stream of streams) {
      await stream.waitFor(() => stream.ended, 'the stream of the logged-out session to end');
      expect(
        stream.events.some((e) => e.event === SESSION_ENDED_EVENT && JSON.parse(e.data).reason === 'logged-out'),
      ).toBe(true);
    }
    await gateway.waitFor(
      () => pidsAnswering(gateway, (l) => l.url === GATEWAY_PATHS.events).size === 2,
      'streams ended on both workers',
    );
  });

  it('counts failed logins once for the whole gateway, whichever worker takes them', async () => {
    const { gateway, baseUrl, backend } = await startCluster();
    const before = backend.calls.length;
    for (let i = 0; i < 4; i++) {
      const answer = await logIn(baseUrl, 'target/1', 'wrong');
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).code).toBe(1001);
    }
    expect(pidsAnswering(gateway, (l) => l.url === CALLS.login).size).toBe(2);
    for (let i = 0; i < 4; i++) {
      const refused = await logIn(baseUrl, 'target/1', FAKE_PASSWORD);
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body)).toMatchObject({ error: 'RATE_LIMITED' });
    }
    expect(backend.calls.slice(before).filter((c) => c.url === CALLS.login)).toHaveLength(4);
  });
});
