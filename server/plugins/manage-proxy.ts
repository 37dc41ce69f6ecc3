import fp from 'fastify-plugin';
import httpProxy, { type FastifyHttpProxyOptions } from '@fastify/http-proxy';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { ENABLE_MODE_HEADER } from '../contract/index.js';
import { parseEnableMode, type EncodedMode } from '../codec/index.js';
import { GatewayError } from '../errors.js';
import { registerJsonParsers } from '../lib/json-body.js';
import { backendRequestHeaders, passedAnswerHeaders } from '../lib/forwarded.js';
import { API_DISPOSITION, NO_STORE, ownOrigin } from './security.js';
import { plateAnswerHeaders } from '../lib/plate-headers.js';
import { countUpstreamError, upstreamErrorKind } from '../lib/metrics.js';
import { createBackendPool } from '../lib/upstream.js';
import { setQuery, type CallCredentials } from '../backend-map/auth.js';
import { pathOf } from '../lib/request-path.js';
import type { Pool } from 'undici';

type Headers = Record<string, string | string[] | number | undefined>;

interface UpstreamResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  stream: Readable;
}

/**
 * What the backend gets of a proxied request: the allowlisted headers every call to it carries,
 * the backend's own Host, and the headers of the body the proxy sends. The proxy keeps only the
 * media type of a body it passes on (`multipart/form-data` without its boundary), with which the
 * backend could not split an upload into its parts: the body goes out as the browser wrote it (a
 * JSON one re-serialised as UTF-8), so its content type does too.
 */
function headersForBackend(request: FastifyRequest, proxied: Headers): Headers {
  const out: Headers = backendRequestHeaders(request);
  if (proxied.host !== undefined) out.host = proxied.host;
  if (proxied['content-length'] !== undefined) out['content-length'] = proxied['content-length'];
  if (proxied['content-type'] !== undefined)
    out['content-type'] = request.headers['content-type'] ?? proxied['content-type'];
  return out;
}

/** Whether a Location of the backend's stays on the console's origin once resolved against it. */
function staysOnConsole(request: FastifyRequest, location: unknown): boolean {
  const own = ownOrigin(request);
  if (typeof location !== 'string' || own === null) return false;
  try {
    return new URL(location, own).origin === own;
  } catch {
    return false;
  }
}

function isJsonContentType(value: string | string[] | undefined): boolean {
  const text = Array.isArray(value) ? value[0] : value;
  return text !== undefined && /\bjson\b/i.test(text);
}

interface ProxyRouteOptions {
  prefix: string;
  upstream: string;
  rewritePrefix: string;
  methods: string[];
  /** Send the session's credentials (w-token and w-userId, or the backend map's auth). */
  credentials: boolean;
  /** Decode w-enable-mode bodies, refuse non-JSON error pages, never let an answer be cached. */
  jsonApi: boolean;
  /** Serve the answers as files that can never run as the console (/plate). */
  files: boolean;
  /** Refuse calls without a session (401 NOT_LOGGED_IN) before they reach the backend. */
  requireSession: boolean;
  /** The pool to send through: the backend's shared one, or one of the file server's own. */
  pool: Pool;
}

function registerProxy(app: FastifyInstance, route: ProxyRouteOptions) {
  const encodedModes = new WeakMap<FastifyRequest, EncodedMode>();
  const offOrigin = new WeakSet<FastifyRequest>();
  const { upstreamTimeoutMs } = app.config;
  // Made once per proxied call: the query (set first) and the headers must carry the same
  // generated values and signature.
  const credentialsOf = new WeakMap<FastifyRequest, CallCredentials>();
  const credentials = (request: FastifyRequest): CallCredentials => {
    let made = credentialsOf.get(request);
    if (!made) {
      made = app.upstream.credentials(request.session, request.method, pathOf(request.url));
      credentialsOf.set(request, made);
    }
    return made;
  };
  // Only a backend map's auth puts anything in the query; otherwise reply-from passes the query untouched.
  const queryString =
    route.credentials && app.upstream.options.auth
      ? {
          queryString: (search: string, reqUrl: string, request: FastifyRequest) => {
            const at = reqUrl.indexOf('?');
            const sent = search.length > 0 ? search.slice(1) : at < 0 ? '' : reqUrl.slice(at + 1);
            return setQuery(sent, credentials(request).query);
          },
        }
      : {};

  const sendError = (reply: FastifyReply, error: unknown) => {
    const gatewayError =
      error instanceof GatewayError ? error : new GatewayError('UPSTREAM_UNREACHABLE', undefined, { cause: error });
    countUpstreamError(app.metrics, gatewayError);
    // As the error handler does for the gateway's own calls: the cause (refused, certificate,
    // time-out) is for the operator's log, not the browser. Decode failures are logged where
    // they are found, once.
    if (upstreamErrorKind(gatewayError)) {
      reply.request.log.warn(
        { err: gatewayError.cause ?? gatewayError, path: reply.request.url.split('?')[0] },
        gatewayError.message,
      );
    }
    if (!reply.sent) reply.code(gatewayError.status).send(gatewayError.toBody());
  };

  return app.register(async (scope) => {
    // Our own body parsers, so the body limit holds for proxied calls too (the proxy's default
    // parser streams any size through) and malformed JSON is refused here with a clear error.
    scope.removeAllContentTypeParsers();
    registerJsonParsers(scope, { keepOtherText: true });
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    // The backend sees no call without a session the gateway vouches for: a forged, expired or
    // revoked cookie, or none, is answered here (before the body is even read).
    if (route.requireSession) {
      scope.addHook('onRequest', app.sessions.require);
      // Once the body has arrived, just before the backend call: only a session's own calls count.
      scope.addHook('preHandler', app.sessionCalls.limit);
    }

    await scope.register(httpProxy, {
      upstream: route.upstream,
      prefix: route.prefix,
      rewritePrefix: route.rewritePrefix,
      httpMethods: route.methods,
      proxyPayloads: false,
      disableRequestLogging: true,
      undici: route.pool as never,
      replyOptions: {
        timeout: upstreamTimeoutMs,
        ...queryString,
        rewriteRequestHeaders: (request: FastifyRequest, headers: Headers) => {
          // Called just before the call is sent; rewriteHeaders (the answer came) or onError ends it.
          app.sessionCalls.backendStarted(request);
          const out = headersForBackend(request, headers);
          if (route.credentials) Object.assign(out, credentials(request).headers);
          return out as never;
        },
        rewriteHeaders: (answered: Headers, request: FastifyRequest) => {
          app.sessionCalls.backendEnded(request);
          // The gateway's own headers (security, request id, cookies) stay as the gateway set
          // them: only what describes the answer itself passes.
          const headers = passedAnswerHeaders(answered);
          if (headers.location !== undefined && !staysOnConsole(request, headers.location)) {
            // The console would send its user (and the query string) to another origin.
            offOrigin.add(request);
            delete headers.location;
          }
          if (route.files) return plateAnswerHeaders(headers) as never;
          if (!route.jsonApi) return headers as never;
          headers['cache-control'] = NO_STORE;
          headers['content-disposition'] = API_DISPOSITION;
          delete headers.expires;
          delete headers.etag;
          delete headers['last-modified'];
          const mode = parseEnableMode(headers[ENABLE_MODE_HEADER] as string | undefined);
          if (mode !== null) {
            encodedModes.set(request, mode);
            delete headers[ENABLE_MODE_HEADER];
            delete headers['content-length'];
            delete headers['content-encoding'];
            headers['content-type'] = 'application/json; charset=utf-8';
          }
          return headers as never;
        },
        onResponse: (request: FastifyRequest, reply: FastifyReply, res: unknown) => {
          const response = res as UpstreamResponse;
          if (offOrigin.has(request) && response.statusCode >= 300 && response.statusCode < 400) {
            response.stream.resume();
            reply.removeHeader('content-length');
            reply.removeHeader('content-type');
            sendError(
              reply,
              new GatewayError('UPSTREAM_BAD_ANSWER', `HTTP ${response.statusCode} redirecting to another origin`),
            );
            return;
          }
          const mode = encodedModes.get(request);
          if (mode !== undefined) {
            app
              .decodeAnswerStream(response.stream, mode, request.url)
              .then((json) => reply.send(json))
              .catch((error: unknown) => {
                response.stream.destroy();
                sendError(reply, error);
              });
            return;
          }
          if (route.jsonApi && response.statusCode >= 400 && !isJsonContentType(response.headers['content-type'])) {
            // An HTML error page from a crashed backend or a proxy in front of it: say so in JSON.
            response.stream.resume();
            reply.removeHeader('content-length');
            reply.removeHeader('content-type');
            sendError(
              reply,
              new GatewayError(
                'UPSTREAM_BAD_ANSWER',
                `HTTP ${response.statusCode} with a ${String(response.headers['content-type'] ?? 'missing')} content type`,
              ),
            );
            return;
          }
          reply.send(response.stream);
        },
        onError: (reply: FastifyReply, { error }: { error: Error & { statusCode?: number } }) => {
          app.sessionCalls.backendEnded(reply.request);
          reply.removeHeader('content-length');
          const timedOut = error.statusCode === 504;
          sendError(
            reply,
            new GatewayError(timedOut ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_UNREACHABLE', undefined, { cause: error }),
          );
        },
      },
      // The typings of replyOptions lag behind reply-from's runtime signatures used above.
    } as unknown as FastifyHttpProxyOptions);
  });
}

/**
 * The backend's three faces: /manage with the session, /api/exclude without one, /plate for files.
 * In sandbox mode the backend's address is only known after it listens, so it is read at register.
 */
export default fp(
  async (app) => {
    const backend = app.config.chatBackendUrl;
    if (!backend)
      throw new Error('manage-proxy needs config.chatBackendUrl (main.ts sets it to the sandbox in sandbox mode)');
    const prefixPath = app.upstream.pathPrefix;
    await registerProxy(app, {
      prefix: '/manage',
      upstream: app.upstream.origin,
      rewritePrefix: `${prefixPath}/manage`,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      credentials: true,
      jsonApi: true,
      files: false,
      requireSession: true,
      pool: app.upstream.pool,
    });
    await registerProxy(app, {
      prefix: '/api/exclude',
      upstream: app.upstream.origin,
      rewritePrefix: `${prefixPath}/api/exclude`,
      methods: ['GET', 'HEAD'],
      credentials: false,
      jsonApi: true,
      files: false,
      requireSession: false,
      pool: app.upstream.pool,
    });
    const fileServer = new URL(app.config.fileServerUrl ?? backend);
    const sameServer = fileServer.origin === app.upstream.origin;
    const filePool = sameServer
      ? app.upstream.pool
      : createBackendPool(fileServer.origin, {
          timeoutMs: app.config.upstreamTimeoutMs,
          tlsInsecure: app.config.upstreamTlsInsecure,
        });
    // The proxy leaves the pools it is given open; the shared one closes with app.upstream.
    if (!sameServer) app.addHook('onClose', async () => filePool.close());
    await registerProxy(app, {
      prefix: '/plate',
      upstream: fileServer.origin,
      rewritePrefix: `${fileServer.pathname.replace(/\/+$/, '')}/plate`,
      methods: ['GET', 'HEAD'],
      credentials: false,
      jsonApi: false,
      files: true,
      requireSession: false,
      pool: filePool,
    });
  },
  { name: 'manage-proxy', dependencies: ['session', 'session-calls', 'upstream', 'login'] },
);
