import { describe, expect, it } from 'vitest';
import type { Server } from 'node:net';
import { CALLS } from '../../server/contract/index.js';
import { SseClient } from '../support/sse-client.js';
import { waitUntil } from '../support/wait.js';
import { fakeLogInOver } from '../support/fake-session.js';
import { SAVE_PATH, callsSince, httpText, openSocket, rawRequest, rigPerTest } from './support/rig.js';

/**
 * Hole 4: a body that never arrived held its socket for ever (no request time-out, no cap on
 * connections). Now headers and body must arrive within REQUEST_TIMEOUT_MS, else 408 in the
 * catalogue's envelope and the socket closes; MAX_CONNECTIONS caps the sockets; an event stream,
 * whose request arrived long ago, is not cut by the request time-out.
 */

const rig = rigPerTest();

describe('requests that never finish arriving', { timeout: 60_000 }, () => {
  it('closes every socket whose body stalls, with 408 in the envelope, and nothing reaches the backend', async () => {
    const r = await rig({ REQUEST_TIMEOUT_MS: '600' });
    const cookie = await fakeLogInOver(r.url, { token: 'tok-slow', userId: '1' });
    const before = r.backend.calls.length;
    const head = httpText(`POST ${SAVE_PATH} HTTP/1.1`, {
      cookie,
      origin: 'http://127.0.0.1',
      'content-type': 'application/json',
      'content-length': '1000',
      connection: 'keep-alive',
    });
    const sockets = await Promise.all(Array.from({ length: 60 }, () => openSocket(r.port, `${head}{`)));
    await Promise.all(sockets.map((s) => s.closed));
    for (const s of sockets) {
      expect(s.received()).toMatch(/^HTTP\/1\.1 408 /);
      const body = s.received().slice(s.received().indexOf('\r\n\r\n') + 4);
      expect(JSON.parse(body)).toEqual({
        code: 408,
        msg: 'The request did not arrive in time',
        error: 'REQUEST_TIMEOUT',
      });
    }
    expect(callsSince(r.backend, before)).toEqual([]);
    // The gateway is still there.
    expect((await fetch(`${r.url}/healthz`)).status).toBe(200);
  });

  it('closes a socket whose headers never end', async () => {
    const r = await rig({ REQUEST_TIMEOUT_MS: '600' });
    const socket = await openSocket(r.port, 'GET /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    await socket.closed;
    expect(socket.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(socket.received()).toContain('"error":"REQUEST_TIMEOUT"');
  });

  it('keeps an event stream open long past the request time-out', async () => {
    const r = await rig({ REQUEST_TIMEOUT_MS: '300', WITHDRAWAL_POLL_MS: '100' });
    const cookie = await fakeLogInOver(r.url, { token: 'tok-stream', userId: '2' });
    const stream = await SseClient.open(r.port, cookie);
    try {
      expect(stream.status).toBe(200);
      await stream.waitFor(() => stream.counts().length > 0, 'the first count');
      // Several request time-outs (and connection checks) later, the stream is still open: the
      // gateway's own polls, every 100 ms, count that time out.
      const polls = () => r.backend.calls.filter((c) => c.url.split('?')[0] === CALLS.withdrawalCount).length;
      const first = polls();
      await waitUntil(() => polls() >= first + 12, 'twelve polls, four request time-outs later', { timeoutMs: 20_000 });
      expect(stream.ended).toBe(false);
    } finally {
      stream.close();
    }
  });

  it('answers bytes that are not HTTP with 400 in the envelope', async () => {
    const r = await rig({});
    const answer = await rawRequest(r.port, 'GARBAGE\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 400, error: 'BAD_REQUEST' });
    const huge = await rawRequest(r.port, httpText('GET /api/session HTTP/1.1', { 'x-big': 'a'.repeat(20_000) }));
    expect(huge.status).toBe(431);
    expect(JSON.parse(huge.body)).toMatchObject({ code: 431, error: 'HEADERS_TOO_LARGE' });
  });
});

/** Whether the server holds `n` sockets, as it counts them for MAX_CONNECTIONS. */
function connectionsAre(server: Server, n: number): Promise<boolean> {
  return new Promise((resolve) => server.getConnections((error, count) => resolve(!error && count === n)));
}

describe('MAX_CONNECTIONS', { timeout: 60_000 }, () => {
  it('closes sockets past the cap at once, and serves again once they are gone', async () => {
    const r = await rig({ MAX_CONNECTIONS: '10', REQUEST_TIMEOUT_MS: '30000' });
    const held = await Promise.all(
      Array.from({ length: 10 }, () => openSocket(r.port, 'GET /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\n')),
    );
    // Once the server counts them all, try more.
    await waitUntil(() => connectionsAre(r.app.server, 10), 'the ten sockets to be counted');
    const extra = await Promise.all(
      Array.from({ length: 5 }, () => rawRequest(r.port, httpText('GET /healthz HTTP/1.1'), 3_000)),
    );
    for (const answer of extra) {
      expect(answer.status).toBe(0);
      expect(answer.closedByServer).toBe(true);
    }
    for (const s of held) s.socket.destroy();
    await Promise.all(held.map((s) => s.closed));
    await waitUntil(() => connectionsAre(r.app.server, 0), 'the held sockets to be gone');
    expect((await rawRequest(r.port, httpText('GET /healthz HTTP/1.1'))).status).toBe(200);
  });
});
