import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shutdownBegun, startHeldRig, startSlowCall } from './support/held-backend.js';
import { cleanupAfterEach } from '../support/processes.js';

/**
 * What the Shutdown section of docs/operators.md promises beyond the basics, on the shipped bundle: what
 * arrives once shutdown began is answered 503 SHUTTING_DOWN (readiness included), the error log
 * is flushed, and calls still running after SHUTDOWN_TIMEOUT_MS are abandoned with exit code 1.
 * A request "arriving during shutdown" is made a fact, not a race: its connection is opened and
 * its head half sent before the signal (so the connection is busy, not idle), the rest after.
 */

const defer = cleanupAfterEach();
const startRig = (env: Record<string, string> = {}) => startHeldRig(defer, env);

/** A raw HTTP/1.1 exchange on its own socket, sent in parts, with the whole answer kept. */
class RawCall {
  answer = '';
  readonly closed: Promise<void>;
  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (this.answer += chunk));
    this.closed = new Promise((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => {});
  }

  static async open(port: number, firstPart: string): Promise<RawCall> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const call = new RawCall(socket);
    socket.write(firstPart);
    return call;
  }

  finish(rest: string): void {
    this.socket.write(rest);
  }

  status(): number {
    return Number(/^HTTP\/1\.1 (\d{3})/.exec(this.answer)?.[1] ?? 0);
  }

  body(): string {
    return this.answer.slice(this.answer.indexOf('\r\n\r\n') + 4);
  }
}

describe('during shutdown', { timeout: 120_000 }, () => {
  it('/readyz answers 503 SHUTTING_DOWN to a probe that arrives once shutdown began, and new connections are refused', async () => {
    const rig = await startRig();
    const slow = await startSlowCall(rig, rig.baseUrl, rig.cookie);
    const probe = await RawCall.open(rig.port, `GET /readyz HTTP/1.1\r\nHost: 127.0.0.1:${rig.port}\r\n`);

    rig.gateway.signal('SIGTERM');
    await shutdownBegun(rig);
    await expect(fetch(`${rig.baseUrl}/readyz`)).rejects.toThrow();

    probe.finish('\r\n');
    await probe.closed;
    expect(probe.status(), probe.answer).toBe(503);
    expect(probe.answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(probe.body())).toEqual({
      code: 503,
      msg: 'The gateway is shutting down',
      error: 'SHUTTING_DOWN',
    });

    // The call in flight before the signal still finishes, and the process exits cleanly.
    rig.release();
    expect((await slow.answer).status).toBe(200);
    expect(await rig.gateway.exited).toEqual({ code: 0, signal: null });
  });

  it('flushes the error log: an entry whose body arrives after the signal is stored, whole, before the exit', async () => {
    const rig = await startRig();
    const slow = await startSlowCall(rig, rig.baseUrl, rig.cookie);
    const body = JSON.stringify({ message: 'posted while shutting down', url: '/ops/shutdown' });
    const half = Math.floor(body.length / 2);
    const post = await RawCall.open(
      rig.port,
      `POST /api/error-log HTTP/1.1\r\nHost: 127.0.0.1:${rig.port}\r\nOrigin: ${rig.baseUrl}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
    );
    // Entries posted just before the signal, answered or not yet, must not be lost either.
    const before = Array.from({ length: 10 }, (_, i) =>
      fetch(`${rig.baseUrl}/api/error-log`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: rig.baseUrl },
        body: JSON.stringify({ message: `burst ${i}`, url: '/ops/shutdown' }),
      }).then(
        (res) => res.status,
        () => 'refused' as const,
      ),
    );
    await rig.gateway.waitFor(
      () => rig.gateway.logLines().some((l) => l.method === 'POST' && l.url === '/api/error-log'),
      'the burst to be answered',
    );

    rig.gateway.signal('SIGTERM');
    await shutdownBegun(rig);
    post.finish(body.slice(half));
    await post.closed;
    expect(post.status(), post.answer).toBe(200);
    // Its connection was kept alive before the signal; the answer closes it, or the exit would
    // wait for the client to let go.
    expect(post.answer).toMatch(/\r\nconnection: close\r\n/i);
    rig.release();
    await slow.answer;
    expect(await rig.gateway.exited).toEqual({ code: 0, signal: null });

    // Posted without a session: the anonymous lane's file holds them.
    const stored = readFileSync(path.join(rig.dataDir, 'error-log-anonymous.jsonl'), 'utf8');
    expect(stored.endsWith('\n')).toBe(true);
    const messages = stored
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { message: string }).message);
    expect(messages).toContain('posted while shutting down');
    const statuses = await Promise.all(before);
    const acknowledged = statuses.flatMap((status, i) => (status === 200 ? [`burst ${i}`] : []));
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(messages).toEqual(expect.arrayContaining(acknowledged));
  });

  it('abandons calls still running after SHUTDOWN_TIMEOUT_MS and exits 1', async () => {
    const rig = await startRig({ SHUTDOWN_TIMEOUT_MS: '1000' });
    const slow = await startSlowCall(rig, rig.baseUrl, rig.cookie);
    rig.gateway.signal('SIGTERM');
    const exit = await rig.gateway.exited;
    expect(exit, rig.gateway.output()).toEqual({ code: 1, signal: null });
    expect(rig.gateway.logLines().map((l) => l.msg)).toContain('shutdown timed out; exiting');
    // The backend still held the call: the gateway did not wait for it.
    expect(rig.slowAnswered()).toBe(false);
    await expect(slow.answer).rejects.toThrow();
  });
});
