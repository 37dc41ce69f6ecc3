import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * How a refused body still reaches its client as the answer, not as a reset: after a final answer
 * that closes the connection while the request body is still arriving, the rest is read and
 * dropped for at most this long (nginx's lingering_time is 30 s; a refused body on a console's
 * network needs far less) ...
 */
export const LINGER_MS = 10_000;
/** ... and at most this many bytes (past it, the client is no uploader but a firehose). */
export const LINGER_BYTES = 32 * 1024 * 1024;

export interface ContinueAndLingerOptions {
  /** Answers an `Expect` other than `100-continue` (HTTP/1.1 only; Node ignores it in HTTP/1.0). */
  refuseExpectation(req: IncomingMessage, res: ServerResponse): void;
  lingerMs?: number;
  lingerBytes?: number;
}

/**
 * `Expect: 100-continue` and lingering close on the gateway's HTTP server.
 *
 * The interim "100 Continue" goes out when the body is first read, as Go's net/http does, never
 * before: every refusal the gateway makes before reading a body (no session, a declared length
 * past the limit, a refused upload) is then the client's final answer at once, and the body is
 * never sent for nothing. Node, seeing no 100 sent, closes the connection after that answer.
 *
 * When a connection closes after an answer while its request body is still arriving (a 413 of a
 * 3 MB post, sent before the post is), closing at once would leave unread bytes in the socket,
 * and the kernel answers those with a reset that can destroy the 413 before the client reads it.
 * So the write side is closed (FIN after the answer), and the rest of the body is read and
 * dropped until it ends, the client closes, or the bounds above are reached.
 */
export function continueAndLinger(server: Server, options: ContinueAndLingerOptions): void {
  const lingerMs = options.lingerMs ?? LINGER_MS;
  const lingerBytes = options.lingerBytes ?? LINGER_BYTES;
  /** The request each socket is on: the one Node's close after an answer concerns. */
  const current = new WeakMap<Socket, IncomingMessage>();
  const patched = new WeakSet<Socket>();

  const track = (req: IncomingMessage) => {
    const socket = req.socket;
    current.set(socket, req);
    if (patched.has(socket)) return;
    patched.add(socket);
    const destroySoon = socket.destroySoon.bind(socket);
    // Node calls destroySoon once an answer that ends the connection is written.
    socket.destroySoon = () => {
      const open = current.get(socket);
      if (!open || open.complete || socket.destroyed) return destroySoon();
      linger(socket, open, lingerMs, lingerBytes);
    };
  };

  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    track(req);
    continueOnFirstRead(req, res);
    server.emit('request', req, res);
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    track(req);
    res.shouldKeepAlive = false;
    options.refuseExpectation(req, res);
  });
  // Registered after the application's own listener: it only notes the socket's request.
  server.on('request', (req: IncomingMessage) => track(req));
}

/** Sends "100 Continue" when the body is first asked for, unless a final answer went out first. */
function continueOnFirstRead(req: IncomingMessage, res: ServerResponse): void {
  const read = req._read.bind(req);
  req._read = (size: number) => {
    req._read = read;
    if (!res.headersSent && !res.writableEnded && !res.destroyed) res.writeContinue();
    read(size);
  };
}

function linger(socket: Socket, req: IncomingMessage, lingerMs: number, lingerBytes: number): void {
  let left = lingerBytes;
  const done = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(done, lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // The answer is out: FIN after it; the read side stays open (Node's HTTP sockets allow half-open).
  socket.end();
  // Node's HTTP parser keeps reading the body into the request, which Node has set to drop it.
  req.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left <= 0) done();
  });
  req.once('end', done);
  req.once('error', done);
  req.resume();
}
