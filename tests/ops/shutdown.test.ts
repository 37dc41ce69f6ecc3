import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SseClient } from '../support/sse-client.js';
import { expectSecondSignalExitsAtOnce, gatewayProcess, startHeldRig, startSlowCall } from './support/held-backend.js';
import { cleanupAfterEach, tempDir } from '../support/processes.js';

/**
 * The process as operators run it: a real `node` running the shipped bundle dist/server/main.js
 * (built by `node build.mjs`, as the image runs it), stopped with real signals. The slow backend
 * call is held open until the test lets it go, so "in flight during shutdown" is a fact of the
 * test, not a guess about timing.
 */

const defer = cleanupAfterEach();
const startRig = () => startHeldRig(defer);

// Each test starts a gateway process; on a loaded two-core machine that alone can take seconds.
describe('graceful shutdown', { timeout: 120_000 }, () => {
  it('on SIGTERM finishes the in-flight call, ends event streams with a retry hint, and exits 0', async () => {
    const rig = await startRig();
    const stream = await SseClient.open(rig.port, rig.cookie, { timeoutMs: 30_000 });
    expect(stream.status).toBe(200);
    await stream.waitFor(() => stream.body.includes('event: withdrawal-count'), 'the first count event');
    expect(stream.body).toContain('data: {"count":4}');

    const slow = await startSlowCall(rig, rig.baseUrl, rig.cookie);
    rig.gateway.signal('SIGTERM');

    // Shutdown ends the streams first (preClose) while the slow call is still held by the backend.
    await stream.waitFor(() => stream.ended, 'the event stream to end');
    expect(stream.body).toMatch(/retry: \d+\n\n$/);
    expect(rig.slowAnswered()).toBe(false);
    expect(rig.gateway.exit).toBeNull();
    // Load balancers must stop sending work: readiness fails (or nothing accepts any more).
    const readiness = await fetch(`${rig.baseUrl}/readyz`).then(
      (r) => r.status,
      () => 'refused',
    );
    expect(readiness).not.toBe(200);

    rig.release();
    const answer = await slow.answer;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ code: 200, msg: 'ok', data: { slow: true } });

    const exit = await rig.gateway.exited;
    expect(exit, rig.gateway.output()).toEqual({ code: 0, signal: null });
    const messages = rig.gateway.logLines().map((l) => l.msg);
    expect(messages).toContain('shut down cleanly');
  });

  it('on a second SIGTERM exits at once, without waiting for the in-flight call', async () => {
    const rig = await startRig();
    const slow = await startSlowCall(rig, rig.baseUrl, rig.cookie);

    await expectSecondSignalExitsAtOnce(rig, slow);
  });
});

/** A backend map that names a money unit the schema does not know. */
function badMapFile(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'ops-map-')), 'map.json');
  writeFileSync(file, JSON.stringify({ resources: { users: { fields: { balance: { money: 'dollars' } } } } }));
  return file;
}

describe('a bad configuration', { timeout: 60_000 }, () => {
  it.each([
    ['RESPONSE_AES_KEY', { RESPONSE_AES_KEY: 'short' }],
    ['CHAT_BACKEND_URL', { CHAT_BACKEND_URL: 'chat-backend:8081' }],
    ['WITHDRAWAL_POLL_MS', { WITHDRAWAL_POLL_MS: '-5' }],
    ['PORT', { PORT: 'eighty' }],
    ['BACKEND_MAP', { BACKEND_MAP: badMapFile() }],
  ])('stops the process with one line naming %s and exit code 78', async (variable, env) => {
    const gateway = gatewayProcess({ CHAT_BACKEND_URL: 'http://127.0.0.1:9', DATA_DIR: tempDir('ops-bad-'), ...env });
    defer(() => gateway.stop());
    const exit = await gateway.exited;
    expect(exit, gateway.output()).toEqual({ code: 78, signal: null });
    const lines = gateway.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(variable);
    expect(gateway.stdout).toBe('');
  });
});
