import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import fp from 'fastify-plugin';
import { GATEWAY_PATHS } from '../contract/index.js';
import { errorBody, type GatewayErrorName } from '../errors.js';
import type { PrimaryChannel } from '../cluster/ipc.js';
import { METRICS_CALL } from '../cluster/metrics.js';
import { NO_STORE, SECURITY_HEADERS } from './security.js';
import { refuseConnect } from '../lib/server-limits.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the separate metrics server listens (METRICS_PORT); null when /metrics is on the main port. */
    metricsAddress(): AddressInfo | null;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** True when the Authorization header carries the bearer token; compared in constant time. */
export function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = typeof header === 'string' ? /^Bearer +(\S+)\s*$/i.exec(header) : null;
  return match !== null && timingSafeEqual(digest(match[1]!), expected);
}

/**
 * GET /metrics, Prometheus text. Off unless the operator says where it may be read: the text names
 * the Node version and the traffic, which is nobody's business on the console's public port.
 * METRICS_PORT serves it on a port of its own, METRICS_TOKEN requires `Authorization: Bearer
 * <token>` wherever it is served (on the main port when METRICS_PORT is unset); with neither, and
 * on the main port whenever METRICS_PORT is set, it answers 404. In a cluster worker the primary
 * sums every worker's registry, so any worker answers for all.
 */
export interface MetricsEndpointOptions {
  /** In a cluster worker: the primary, which sums every worker's metrics. */
  primary?: PrimaryChannel | null;
}

export default fp<MetricsEndpointOptions>(
  async (app, options) => {
    const { metricsPort, metricsToken, host } = app.config;
    const expected = metricsToken === null ? null : digest(metricsToken);
    const channel = options.primary ?? null;
    const collect = () => (channel ? channel.call<string>(METRICS_CALL) : app.metrics.registry.metrics());
    const refusal = (authorization: string | undefined): GatewayErrorName | null =>
      expected !== null && !bearerMatches(authorization, expected) ? 'UNAUTHORIZED' : null;

    // The main port's /metrics when it serves none: an explicit 404 in the catalogue, so that a
    // browser's navigation there gets no console page either.
    const notServedHere = () =>
      app.get(GATEWAY_PATHS.metrics, { schema: {}, logLevel: 'warn' }, async (_request, reply) => {
        reply.header('cache-control', NO_STORE);
        return reply.code(404).send(errorBody('NOT_FOUND'));
      });

    if (metricsPort === null && expected === null) {
      app.decorate('metricsAddress', () => null);
      notServedHere();
      return;
    }
    if (metricsPort === null) {
      app.decorate('metricsAddress', () => null);
      app.get(GATEWAY_PATHS.metrics, { schema: {}, logLevel: 'warn' }, async (request, reply) => {
        reply.header('cache-control', NO_STORE);
        if (refusal(request.headers.authorization)) {
          reply.header('www-authenticate', 'Bearer realm="metrics"');
          return reply.code(401).send(errorBody('UNAUTHORIZED'));
        }
        reply.header('content-type', app.metrics.registry.contentType);
        return collect();
      });
      return;
    }

    const send = (
      res: ServerResponse,
      status: number,
      type: string,
      body: string,
      extra: Record<string, string> = {},
    ) => {
      res.writeHead(status, {
        ...SECURITY_HEADERS,
        'content-type': type,
        'cache-control': NO_STORE,
        'content-length': Buffer.byteLength(body),
        ...extra,
      });
      res.end(body);
    };
    const sendError = (res: ServerResponse, name: GatewayErrorName, extra: Record<string, string> = {}) => {
      const body = errorBody(name);
      send(res, body.code, 'application/json; charset=utf-8', JSON.stringify(body), extra);
    };
    const handle = async (req: IncomingMessage, res: ServerResponse) => {
      const path = (req.url ?? '').split('?')[0];
      if (path !== GATEWAY_PATHS.metrics) return sendError(res, 'NOT_FOUND');
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return sendError(res, 'METHOD_NOT_ALLOWED', { allow: 'GET, HEAD' });
      if (refusal(req.headers.authorization))
        return sendError(res, 'UNAUTHORIZED', { 'www-authenticate': 'Bearer realm="metrics"' });
      try {
        send(res, 200, app.metrics.registry.contentType, await collect());
      } catch (error) {
        app.log.error({ err: error }, 'collecting metrics failed');
        sendError(res, 'INTERNAL');
      }
    };
    notServedHere();
    const server: Server = createServer(
      { requestTimeout: 10_000, headersTimeout: 5_000 },
      (req, res) => void handle(req, res),
    );
    server.maxConnections = 64;
    server.on('connect', (_req, socket: Socket) => refuseConnect(socket));

    app.decorate('metricsAddress', () => {
      const address = server.address();
      return address && typeof address === 'object' ? address : null;
    });
    // Listening when the gateway gets ready, so a port that is taken stops the start as the main
    // port would; a gateway only injected into (tests) gets ready too, and port 0 suits them.
    app.addHook('onReady', async () => {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(metricsPort, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      app.log.info({ port: (server.address() as AddressInfo).port }, 'metrics served on their own port');
    });
    app.addHook('onClose', async () => {
      if (!server.listening) return;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
  },
  { name: 'metrics-endpoint' },
);
