import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_PATHS } from '../../server/contract/index.js';
import { fakeLogInOver } from '../support/fake-session.js';
import { SAVE_PATH, callsSince, startRig, type Rig } from './support/rig.js';

/**
 * What HTTP clients send, as nginx answers it: `Expect: 100-continue` (curl adds it to every body
 * over 1 MB) gets "100 Continue" once the gateway will read the body, or the final answer at once
 * when it will not; any other expectation 417; and a body refused as too large reaches its client
 * as a 413, never as a connection reset, however much of it is still on the way.
 */

interface Exchange {
  /** Everything received, interim answers included. */
  raw: string;
  /** The final answer's status (after any 1xx), 0 when none arrived. */
  status: number;
  body: string;
  /** Whether a 100 Continue came before the final answer. */
  continued: boolean;
  /** Whether the body was sent (after a 100, or at once when not waiting). */
  sentBody: boolean;
  reset: boolean;
}

const PIECE = 16 * 1024;

const FINAL = /^HTTP\/1\.1 ([2-5]\d\d) [^\r]*\r\n[\s\S]*?\r\n\r\n/m;

/**
 * One request over a raw socket. With `waitFor100`, the body goes only after "100 Continue" (as
 * curl does), and never when a final answer comes first; otherwise it follows the headers at once.
 * Resolves when the server closes the socket, or once the final answer's body is complete.
 */
function exchange(port: number, head: string, body: Buffer, waitFor100: boolean): Promise<Exchange> {
  return new Promise((resolve) => {
    // Half-open, as curl is: it goes on sending its body after the server's answer and FIN, which
    // is what meets a reset from a server that closed with bytes unread.
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const result: Exchange = { raw: '', status: 0, body: '', continued: false, sentBody: false, reset: false };
    let at = 0;
    let ended = false;
    let answered = false;
    const sendBody = () => {
      if (result.sentBody) return;
      result.sentBody = true;
      // In pieces, each after the one before has left, as over a real network: on loopback one
      // write arrives whole before the gateway has even answered, and nothing is left to reset.
      const next = () => {
        if (socket.destroyed) return;
        if (at >= body.length) {
          if (answered || ended) socket.end();
          return;
        }
        const piece = body.subarray(at, at + PIECE);
        at += piece.length;
        socket.write(piece, () => setImmediate(next));
      };
      next();
    };
    const finish = () => {
      const final = FINAL.exec(result.raw.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ''));
      if (final) {
        result.status = Number(final[1]);
        result.body = result.raw.slice(result.raw.indexOf(final[0]) + final[0].length);
      }
      resolve(result);
    };
    socket.setEncoding('latin1');
    socket.on('connect', () => {
      socket.write(head);
      if (!waitFor100) sendBody();
    });
    socket.on('data', (chunk: string) => {
      result.raw += chunk;
      if (result.raw.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) result.continued = true;
      const final = FINAL.exec(result.raw.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ''));
      if (waitFor100 && result.continued && !final) sendBody();
      if (final) {
        const length = /content-length: (\d+)/i.exec(final[0]);
        const rest = result.raw.length - (result.raw.indexOf(final[0]) + final[0].length);
        // A kept-alive connection stays open: the answer is whole once its body is.
        if (length && rest >= Number(length[1])) {
          answered = true;
          if (!result.sentBody || at >= body.length) socket.end();
        }
      }
    });
    socket.on('end', () => {
      ended = true;
      // Whatever is left of the body still goes (see above); with nothing left, this side closes too.
      if (!result.sentBody || at >= body.length) socket.end();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') result.reset = true;
    });
    socket.on('close', finish);
  });
}

function head(path: string, headers: Record<string, string>): string {
  const all = { host: '127.0.0.1', origin: 'http://127.0.0.1', ...headers };
  return `POST ${path} HTTP/1.1\r\n${Object.entries(all)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;
}

const json = (text: string) => Buffer.from(text);

let rig: Rig;
let cookie: string;

beforeAll(async () => {
  rig = await startRig({ BODY_LIMIT_BYTES: String(64 * 1024) });
  cookie = await fakeLogInOver(rig.url, { token: 'tok-expect', userId: '7' });
});
afterAll(async () => {
  await rig.close();
});

describe('Expect: 100-continue', () => {
  it('answers 100 Continue, then takes the body and passes the call on', async () => {
    // A record the contract's value check takes (a word at its 50-character limit), so the call reaches the backend.
    const body = json(JSON.stringify({ word: 'x'.repeat(50), category: 'other' }));
    const before = rig.backend.calls.length;
    const answer = await exchange(
      rig.port,
      head(SAVE_PATH, {
        cookie,
        'content-type': 'application/json',
        'content-length': String(body.length),
        expect: '100-continue',
        connection: 'close',
      }),
      body,
      true,
    );
    expect(answer.continued).toBe(true);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 200, msg: 'saved' });
    const calls = callsSince(rig.backend, before, SAVE_PATH);
    expect(calls).toHaveLength(1);
    // The expectation is the gateway's to meet: it is never passed on.
    expect(calls[0]!.headers.expect).toBeUndefined();
  });

  it('answers a request without a session with its 401 at once: no 100, and the body is never asked for', async () => {
    const before = rig.backend.calls.length;
    const answer = await exchange(
      rig.port,
      head(SAVE_PATH, { 'content-type': 'application/json', 'content-length': '20000', expect: '100-continue' }),
      json('{}'),
      true,
    );
    expect(answer.continued).toBe(false);
    expect(answer.sentBody).toBe(false);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'NOT_LOGGED_IN' });
    expect(callsSince(rig.backend, before)).toEqual([]);
  });

  it('answers a declared length past the limit with its 413 at once, and closes the connection', async () => {
    const answer = await exchange(
      rig.port,
      head(SAVE_PATH, {
        cookie,
        'content-type': 'application/json',
        'content-length': String(3 * 1024 * 1024),
        expect: '100-continue',
      }),
      json('{}'),
      true,
    );
    expect(answer.continued).toBe(false);
    expect(answer.sentBody).toBe(false);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'BODY_TOO_LARGE' });
    expect(answer.raw).toMatch(/\r\nconnection: close\r\n/i);
  });

  it('refuses an upload it will not take at once, before a byte of the file', async () => {
    // This rig's session holds no screen that uploads (403), and the file is past any kind's
    // limit (413): either way the refusal comes before the 100, and the file is never sent.
    const answer = await exchange(
      rig.port,
      head(`${GATEWAY_PATHS.upload}?kind=image&name=a.png`, {
        cookie,
        'content-type': 'application/octet-stream',
        'content-length': String(500 * 1024 * 1024),
        expect: '100-continue',
      }),
      json(''),
      true,
    );
    expect(answer.continued).toBe(false);
    expect(answer.sentBody).toBe(false);
    expect([403, 413]).toContain(answer.status);
    expect(JSON.parse(answer.body)).toMatchObject({ code: answer.status });
  });

  it('answers any other expectation with 417 in the envelope', async () => {
    const before = rig.backend.calls.length;
    const answer = await exchange(
      rig.port,
      head(SAVE_PATH, { cookie, 'content-type': 'application/json', 'content-length': '2', expect: 'bananas' }),
      json('{}'),
      true,
    );
    expect(answer.continued).toBe(false);
    expect(answer.status).toBe(417);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 417, error: 'EXPECTATION_FAILED' });
    expect(answer.raw).toMatch(/\r\nx-content-type-options: nosniff\r\n/i);
    expect(callsSince(rig.backend, before)).toEqual([]);
  });
});

describe('a body refused as too large', () => {
  // The issue's case: a 3 MB post to the error log (limit 16 KiB) sent whole, without waiting.
  const big = Buffer.alloc(3 * 1024 * 1024, 'a');
  const errorLogHead = head(GATEWAY_PATHS.errorLog, {
    'content-type': 'application/json',
    'content-length': String(big.length),
  });

  it.each([1, 2, 3, 4, 5])('reaches the client as 413, not as a reset (run %i)', async () => {
    const answer = await exchange(rig.port, errorLogHead, big, false);
    expect(answer.reset).toBe(false);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'BODY_TOO_LARGE' });
  });

  it('reaches the client as 413 when the body follows a 100 Continue and grows past the limit', async () => {
    // Chunked: the length is not known up front, so the body is asked for, then refused midway.
    const chunk = Buffer.alloc(256 * 1024, 'b');
    const chunks = Buffer.concat([
      ...Array.from({ length: 8 }, () =>
        Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]),
      ),
      Buffer.from('0\r\n\r\n'),
    ]);
    const answer = await exchange(
      rig.port,
      head(SAVE_PATH, {
        cookie,
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
        expect: '100-continue',
      }),
      chunks,
      true,
    );
    expect(answer.continued).toBe(true);
    expect(answer.reset).toBe(false);
    expect(answer.status).toBe(413);
  });
});
