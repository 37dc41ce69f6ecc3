import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyHttpOptions, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { errorBody, type GatewayErrorName } from '../errors.js';
import { NO_STORE, SECURITY_HEADERS } from '../plugins/security.js';
import { capConnectionsPerAddress } from './connection-limits.js';
import { continueAndLinger } from './continue-and-linger.js';

/** Headers must arrive well before the whole request; a real client sends them in one packet. */
const HEADERS_TIMEOUT_MAX_MS = 15_000;

/**
 * The Node server's limits, as Fastify options: a request's headers and body must arrive within
 * REQUEST_TIMEOUT_MS (Node's requestTimeout covers receiving the request only, so an event
 * stream's answer may last for hours), and the connection check runs often enough that a socket
 * past its time is closed soon after.
 */
export function serverLimitOptions(config: Config): Partial<FastifyHttpOptions<Server>> {
  const requestTimeout = config.requestTimeoutMs;
  const headersTimeout = Math.min(requestTimeout, HEADERS_TIMEOUT_MAX_MS);
  return {
    requestTimeout,
    // A few seconds by default (KEEP_ALIVE_TIMEOUT_MS): an idle kept-alive socket is a slot of
    // MAX_CONNECTIONS nobody uses. A front proxy that keeps sockets to the gateway must let them
    // go sooner (nginx: keepalive_timeout in the upstream block), or it may reuse one just closed.
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      headersTimeout,
      requestTimeout,
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 4))),
    },
    clientErrorHandler,
    frameworkErrors,
  };
}

/**
 * Caps the open sockets, in all and per client address; answers `Expect: 100-continue` with the
 * interim 100 only once a body is read (any refusal before that is the final answer at once), any
 * other expectation with 417; and lets a refused body drain before its connection closes, so the
 * client reads the 413 rather than a reset. (That no kept-alive socket outlives a shutdown is the
 * health plugin's part.)
 */
export function applyServerLimits(app: FastifyInstance, config: Config): void {
  app.server.maxConnections = config.maxConnections;
  capConnectionsPerAddress(app, config);
  continueAndLinger(app.server, {
    refuseExpectation: (req, res) => {
      app.log.debug({ expect: req.headers.expect, answer: 'EXPECTATION_FAILED' }, 'expectation refused');
      const body = JSON.stringify(errorBody('EXPECTATION_FAILED'));
      res.writeHead(errorBody('EXPECTATION_FAILED').code, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        'cache-control': NO_STORE,
        ...SECURITY_HEADERS,
        connection: 'close',
      });
      res.end(body);
    },
  });
  // Node hands CONNECT to a 'connect' listener and, with none, drops the socket without a word.
  // The gateway is no forward proxy: it says so in the envelope, and nothing is tunnelled.
  app.server.on('connect', (_req, socket: Socket) => {
    app.log.debug({ answer: 'METHOD_NOT_ALLOWED' }, 'CONNECT refused');
    refuseConnect(socket);
  });
}

/** The answer to CONNECT on any of the gateway's ports: 405 in the envelope, then the socket closes. */
export function refuseConnect(socket: Socket): void {
  answerAndClose(socket, rawAnswer('METHOD_NOT_ALLOWED', { allow: PROXIED_METHODS }));
}

/** What an Allow header names: the methods the gateway serves somewhere. */
const PROXIED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';

/** Writes a whole answer and closes; a client that never reads cannot hold the socket past a second. */
function answerAndClose(socket: Socket, answer: string): void {
  if (socket.writable) socket.end(answer);
  socket.once('finish', () => socket.destroy());
  setTimeout(() => socket.destroy(), 1_000).unref();
}

function rawAnswer(name: GatewayErrorName, extra: Record<string, string> = {}): string {
  const body = JSON.stringify(errorBody(name));
  const { code } = errorBody(name);
  const headers = [
    `HTTP/1.1 ${code} ${STATUS_CODES[code] ?? 'Error'}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    `cache-control: ${NO_STORE}`,
    ...Object.entries({ ...SECURITY_HEADERS, ...extra }).map(([k, v]) => `${k}: ${v}`),
    'connection: close',
  ];
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}

/**
 * Errors Node meets before any request exists (a request that did not arrive in time, headers
 * past the limit, bytes that are not HTTP) answer in the catalogue's envelope, then the socket
 * closes.
 */
function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const name: GatewayErrorName =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? 'REQUEST_TIMEOUT'
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? 'HEADERS_TOO_LARGE'
        : 'BAD_REQUEST';
  this.log.debug({ code: error.code, answer: name }, 'client error before a request');
  answerAndClose(socket, rawAnswer(name));
}

/** Fastify's own refusals before routing (a URL that does not decode, a parameter too long). */
function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(SECURITY_HEADERS);
  reply.header('cache-control', NO_STORE);
  const known = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  if (!known) request.log.error({ err: error }, 'unexpected framework error');
  const name: GatewayErrorName = known ? 'BAD_REQUEST' : 'INTERNAL';
  const body = known ? errorBody(name, `${errorBody(name).msg}: the URL is not valid`) : errorBody(name);
  void reply.code(body.code).send(body);
}
