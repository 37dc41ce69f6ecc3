import fp from 'fastify-plugin';
import { CALLS, GATEWAY_PATHS } from '../contract/index.js';
import { errorBody } from '../errors.js';

const READINESS_TIMEOUT_MS = 3_000;
/** Probes arrive every few seconds from each monitor; one upstream check a second is plenty. */
const READINESS_CACHE_MS = 1_000;

const statusSchema = {
  type: 'object',
  properties: {
    status: { type: 'string' },
    uptimeSeconds: { type: 'number' },
  },
} as const;

/**
 * Liveness and readiness, and the gateway's side of a shutdown: what arrives once it began is
 * refused in the envelope and no connection outlives it.
 */
export default fp(
  async (app) => {
    // However the close began (a signal in main.ts, a worker told to stop, a test), what arrives
    // from now on on a connection still open is told so and asked to go elsewhere; calls already
    // in flight finish. New connections are no longer accepted at all.
    app.addHook('preClose', async () => {
      app.shuttingDown = true;
    });
    app.addHook('onRequest', async (_request, reply) => {
      if (!app.shuttingDown) return;
      reply.header('connection', 'close');
      return reply.code(503).send(errorBody('SHUTTING_DOWN'));
    });
    // A call that was in flight when shutdown began must not leave its connection open for the
    // next one: a browser would keep it for the keep-alive time (KEEP_ALIVE_TIMEOUT_MS), and the close would wait
    // for it past SHUTDOWN_TIMEOUT_MS.
    app.addHook('onSend', async (_request, reply) => {
      if (app.shuttingDown) reply.header('connection', 'close');
    });

    app.get(
      GATEWAY_PATHS.healthz,
      { schema: { response: { 200: statusSchema } }, logLevel: 'warn' },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        return { status: 'ok', uptimeSeconds: Math.round(process.uptime()) };
      },
    );

    let lastCheck: { at: number; ok: boolean } | null = null;
    const backendReachable = async (): Promise<boolean> => {
      if (lastCheck && Date.now() - lastCheck.at < READINESS_CACHE_MS) return lastCheck.ok;
      let ok: boolean;
      try {
        // Any HTTP answer proves the backend is there; only a failed connection or time-out does not.
        await app.upstream.request(CALLS.siteConfig, { timeoutMs: READINESS_TIMEOUT_MS, maxBytes: 1024 * 1024 });
        ok = true;
      } catch {
        ok = false;
      }
      lastCheck = { at: Date.now(), ok };
      return ok;
    };

    // Ready or not and why, in words: the backend's address is nobody's business outside.
    app.get(GATEWAY_PATHS.readyz, { schema: {}, logLevel: 'warn' }, async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      if (app.shuttingDown) return reply.code(503).send(errorBody('SHUTTING_DOWN'));
      if (!(await backendReachable())) return reply.code(503).send(errorBody('NOT_READY'));
      // Redis is shared state, not a dependency: its loss is a note, never a reason to take the
      // replica out of the load balancer. No address or password, only the state.
      if (!app.redis) return { status: 'ready' };
      const redis = app.redis.available ? 'connected' : 'unavailable';
      const errorLog =
        app.hasDecorator('errorLogTarget') && app.errorLogTarget() === 'redis' && app.redis.available
          ? 'shared in Redis'
          : 'local file: Redis is unavailable, entries written now stay on this replica';
      const auditTrail =
        app.hasDecorator('audit') && app.audit.target() === 'redis' && app.redis.available
          ? 'shared in Redis'
          : 'local file: Redis is unavailable, entries written now stay on this replica until it is back';
      return { status: 'ready', details: { redis, errorLog, auditTrail } };
    });
  },
  { name: 'health' },
);
