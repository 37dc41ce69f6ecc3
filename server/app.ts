import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import type { Config } from './config.js';
import type { PrimaryChannel } from './cluster/ipc.js';
import { createMetrics, type Metrics } from './lib/metrics.js';
import { loggerOptions } from './lib/logger.js';
import { installErrorHandler } from './lib/error-handler.js';
import { applyServerLimits, serverLimitOptions } from './lib/server-limits.js';
import { trustProxyOption } from './lib/trust-proxy.js';
import { requestIdOf } from './lib/forwarded.js';
import upstream from './plugins/upstream.js';
import security from './plugins/security.js';
import requestGuard from './plugins/request-guard.js';
import hostGuard from './plugins/host-guard.js';
import requestLog from './plugins/request-log.js';
import session from './session/plugin.js';
import login from './session/login.js';
import metricsEndpoint from './plugins/metrics-endpoint.js';
import type { RevocationStore } from './session/revocations.js';
import type { AttemptCounter } from './session/login-throttle.js';
import backendMap from './plugins/backend-map.js';
import sessionCalls from './session/calls.js';
import manageProxy from './plugins/manage-proxy.js';
import contractCheck from './plugins/contract-check.js';
import upload from './plugins/upload.js';
import events, { type EventsOptions } from './events/plugin.js';
import permissions from './plugins/permissions.js';
import errorLog from './error-log/plugin.js';
import audit from './audit/plugin.js';
import approvals from './approvals/plugin.js';
import savedViews from './saved-views/plugin.js';
import { recordApprovalEvents } from './audit/approval-events.js';
import health from './plugins/health.js';
import staticUi from './plugins/static-ui.js';
import { RedisShare } from './redis/share.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    metrics: Metrics;
    /** True once SIGTERM has been received: new event streams are refused, open ones ended. */
    shuttingDown: boolean;
    /**
     * With REDIS_URL: the connection replicas and workers share the error log, session refusals,
     * login counts and withdrawal polls through. Null without it: everything stays in this process
     * (or with the cluster primary).
     */
    redis: RedisShare | null;
  }
}

export interface BuildAppOptions {
  config: Config;
  /** pino options, false to silence, or an existing pino stream for tests. */
  logger?: FastifyServerOptions['logger'];
  /** Shown in /api/session so the UI can label sandbox mode. */
  sandbox?: boolean;
  /** Collect process metrics (off in tests that build many apps in one process). */
  processMetrics?: boolean;
  /** Rotation size of the error-log files (bytes), small in tests that fill them. */
  errorLogMaxFileBytes?: number;
  /** false: no audit trail at all, so a benchmark can tell what recording costs a call. */
  audit?: boolean;
  /** Heartbeat and cache periods of /api/events, shortened by tests and benchmarks. */
  events?: EventsOptions;
  /** Clock of session ages and login throttling, for tests. */
  now?: () => number;
  /**
   * Where session revocations and failed-login counts live. Default: this process's memory, or
   * the cluster primary's in a worker (WORKERS > 1).
   */
  sessionStores?: { revocations?: RevocationStore; loginAttempts?: AttemptCounter };
  /**
   * In a cluster worker (WORKERS > 1): the channel to the primary, which owns the error log, the
   * session revocations and login counts, and sums every worker's metrics. Absent in a single
   * process and in tests, which keep their own.
   */
  primary?: PrimaryChannel;
  /** Told of every route as it is registered, with its schema (the route-schema test reads them). */
  onRoute?: (route: RouteOptions) => void;
}

/**
 * Builds the gateway. Registers the plugins in a fixed order and never listens: main.ts does,
 * tests use inject or listen on port 0.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger === undefined ? loggerOptions(config) : options.logger,
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: config.bodyLimitBytes,
    // The client's X-Request-Id only when short and plain (requestIdOf), never verbatim.
    requestIdHeader: false,
    genReqId: (raw) => requestIdOf(raw.headers),
    ...serverLimitOptions(config),
    // The health plugin answers what arrives during shutdown, in the envelope (SHUTTING_DOWN).
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // One line per request (the request-log plugin writes it when the answer is sent) instead of
    // Fastify's two: at saturation each log line costs as much as the proxying itself.
    logController: new LogController({ disableRequestLogging: true }),
  });

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.decorate('config', config);
  app.decorate('metrics', createMetrics({ processMetrics: options.processMetrics ?? false }));
  app.decorate('shuttingDown', false);
  const redis = config.redisUrl === null ? null : connectRedis(app, config.redisUrl);
  app.decorate('redis', redis);
  applyServerLimits(app, config);
  installErrorHandler(app);

  const stores = options.sessionStores ?? {};
  const primary = options.primary ?? null;
  await app.register(upstream);
  await app.register(security);
  await app.register(hostGuard);
  await app.register(requestGuard);
  await app.register(requestLog);
  await app.register(health);
  await app.register(metricsEndpoint, { primary });
  await app.register(session, {
    sandbox: options.sandbox ?? false,
    primary,
    ...(options.now ? { now: options.now } : {}),
    ...(stores.revocations ? { revocations: stores.revocations } : {}),
  });
  await app.register(login, {
    primary,
    ...(options.now ? { now: options.now } : {}),
    ...(stores.loginAttempts ? { attempts: stores.loginAttempts } : {}),
  });
  await app.register(sessionCalls);
  // Before the proxy: the mapped calls' own routes are more specific than its /manage/*.
  await app.register(backendMap);
  const permissionTtlMs = options.events?.permissionTtlMs;
  // Before the upload: an upload needs the permission of a screen that takes its kind of file.
  await app.register(permissions, permissionTtlMs === undefined ? {} : { ttlMs: permissionTtlMs });
  await app.register(upload, { primary, ...(options.now ? { now: options.now } : {}) });
  await app.register(manageProxy);
  // The contract's value rules on the proxy's and the map's calls, before the audit trail and dual control look at them.
  await app.register(contractCheck);
  // Its hooks wrap every route, the proxy's and the map's included, whatever their order.
  if (options.audit !== false) await app.register(audit, { primary });
  await app.register(events, options.events ?? {});
  // Holds calls of the proxy and the backend map's routes above (its hook runs before any route's handler).
  await app.register(approvals, { primary, ...(options.now ? { now: options.now } : {}) });
  // Holds, confirmations and declines go into the trail beside the calls they stand for.
  if (options.audit !== false) recordApprovalEvents(app);

  await app.register(errorLog, {
    primary,
    ...(options.errorLogMaxFileBytes === undefined ? {} : { maxFileBytes: options.errorLogMaxFileBytes }),
  });
  await app.register(savedViews, { primary });
  await app.register(staticUi);
  if (redis) {
    app.addHook('onClose', async () => {
      await redis.close();
    });
  }

  return app;
}

/** Connects in the background: the gateway starts, and works, whether Redis answers yet or not. */
function connectRedis(app: FastifyInstance, url: string): RedisShare {
  app.metrics.redisUp.set(0);
  return new RedisShare({
    url,
    log: app.log,
    onStateChange: (up) => app.metrics.redisUp.set(up ? 1 : 0),
  });
}
