import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ERROR_LOG_LIMITS, GATEWAY_PATHS } from '../contract/gateway.js';
import {
  ErrorLogInputSchema,
  ErrorLogPageSchema,
  ErrorLogQuerySchema,
  ErrorLogStoredSchema,
  type ErrorLogEntry,
} from '../contract/error-log.js';
import { GatewayError } from '../errors.js';
import { answerSchema, okAnswer } from '../lib/answer-schema.js';
import { timeBound } from '../lib/time-bound.js';
import { RateLimiter } from './rate-limit.js';
import { checkEntryBody } from './schema.js';
import { type ErrorLog, type ErrorLogQuery } from './store.js';
import { LanedErrorLog, anonymousCap, localErrorLog } from './lanes.js';
import type { Session } from '../session/plugin.js';
import { IpcErrorLogStore } from './ipc-store.js';
import type { PrimaryChannel } from '../cluster/ipc.js';
import { RedisErrorLog } from './redis-store.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where UI errors go now: the shared log in Redis, or the local one (no REDIS_URL, or Redis away). */
    errorLogTarget(): 'redis' | 'local' | 'local-fallback';
  }
}

export interface ErrorLogPluginOptions {
  /** Rotation threshold of the log file, bytes (default 5 MiB). */
  maxFileBytes?: number;
  /** Writes per client: burst and refill per minute (default 30 and 30). */
  rateLimit?: { capacity: number; refillPerMinute: number };
  /** Clock for the rate limiter, for tests. */
  now?: () => number;
  /**
   * The store to use. Default: the primary's, over IPC, in a cluster worker (WORKERS > 1);
   * else a local file store under DATA_DIR.
   */
  store?: ErrorLog;
  /** In a cluster worker: the primary, which owns the one error-log file. */
  primary?: PrimaryChannel | null;
}

const USER_AGENT_MAX_CHARS = 512;
const RATE_LIMIT_MAX_CLIENTS = 10_000;
function userAgentOf(request: FastifyRequest): string | null {
  const value = request.headers['user-agent'];
  if (typeof value !== 'string' || value === '') return null;
  return value.length > USER_AGENT_MAX_CHARS ? value.slice(0, USER_AGENT_MAX_CHARS) : value;
}

/**
 * Whose writes a bucket counts: the session's when there is one, else the client address (the
 * socket's, or what a proxy TRUST_PROXY trusts saw), never an address the client wrote itself.
 */
function rateLimitKey(request: FastifyRequest): string {
  return request.session ? `session:${request.session.id}` : `address:${request.ip}`;
}

/**
 * The UI's error log. Writes are open to visitors without a session, since a failure on the
 * login page is worth recording, so they are size-capped and rate-limited per session, or per
 * client address without one, and anonymous ones are kept in a small lane of their own that never
 * pushes out a logged-in session's entries (error-log/lanes.ts). Reading and clearing need a
 * session, and reach that session's user's entries only, or everyone's (anonymous ones included)
 * with ERROR_LOG_ADMIN_PERMISSION. With WORKERS > 1 the rate limit is kept per
 * worker (a client may get up to WORKERS times the burst), while the entries go to the primary's
 * one store.
 */
export default fp<ErrorLogPluginOptions>(
  async (app, options) => {
    const channel = options.primary ?? null;
    const own: ErrorLog =
      options.store ??
      (channel ? new IpcErrorLogStore(channel) : localErrorLog(app.config.dataDir, options.maxFileBytes));
    const onFallbackWrite = () => app.metrics.errorLogFallbackWrites.inc();
    // Two streams, as the local log has two lanes: anonymous entries never trim the others.
    const shared = app.redis
      ? new RedisErrorLog({
          share: app.redis,
          maxEntries: app.config.errorLogMaxEntries,
          lane: 'signed-in',
          fallback: own,
          onFallbackWrite,
          onFallback: (active, reason) => {
            if (active)
              app.log.warn(
                { reason },
                'the shared error log in Redis is unavailable: UI errors go to the local error log until it is back',
              );
            else app.log.info('the shared error log in Redis answers again: UI errors are shared once more');
          },
        })
      : null;
    const store: ErrorLog =
      shared && app.redis
        ? new LanedErrorLog({
            'signed-in': shared,
            anonymous: new RedisErrorLog({
              share: app.redis,
              maxEntries: anonymousCap(app.config.errorLogMaxEntries, 10),
              stream: 'error-log:anonymous',
              lane: 'anonymous',
              fallback: own,
              onFallbackWrite,
            }),
          })
        : own;
    app.decorate('errorLogTarget', () => (shared ? (shared.usingFallback ? 'local-fallback' : 'redis') : 'local'));
    // Opened now so that an unwritable DATA_DIR stops the start, not the first UI error.
    await store.open();
    app.addHook('onClose', async () => {
      await store.close();
    });

    const limiter = new RateLimiter({
      capacity: options.rateLimit?.capacity ?? 30,
      refillPerMinute: options.rateLimit?.refillPerMinute ?? 30,
      maxClients: RATE_LIMIT_MAX_CLIENTS,
      ...(options.now ? { now: options.now } : {}),
    });
    const retryAfterSeconds = String(Math.ceil(60 / (options.rateLimit?.refillPerMinute ?? 30)));

    // The contract's schemas are the routes' validators and, through the type provider, their types.
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();
    typed.post(
      GATEWAY_PATHS.errorLog,
      {
        bodyLimit: ERROR_LOG_LIMITS.maxEntryBytes,
        schema: { body: ErrorLogInputSchema, response: { 200: answerSchema(ErrorLogStoredSchema) } },
        // The shared Ajv coerces and strips; this route refuses wrong types and unknown fields.
        validatorCompiler: () => checkEntryBody,
        // Counted before the body is read, so a flood costs neither parsing nor disk.
        onRequest: async (request, reply) => {
          if (!limiter.take(rateLimitKey(request))) {
            reply.header('retry-after', retryAfterSeconds);
            throw new GatewayError('RATE_LIMITED');
          }
        },
      },
      async (request) => {
        const entry: ErrorLogEntry = {
          ...request.body,
          id: randomUUID(),
          time: new Date().toISOString(),
          // Only a session the gateway sealed names a user; anything else is stored as anonymous.
          userId: request.session?.userId ?? null,
          // The account typed at login, which the backend's numeric id does not say to a reader.
          account: request.session?.account || null,
          userAgent: userAgentOf(request),
        };
        await store.append(entry);
        app.metrics.errorLogWrites.inc();
        // The id only: the entry's text may carry personal data and stays out of the logs.
        request.log.debug({ errorLogId: entry.id }, 'stored a UI error');
        return { code: 200, msg: 'ok', data: { id: entry.id } };
      },
    );

    const adminPermission = app.config.errorLogAdminPermission;
    /**
     * Whose entries the session may read and clear: its own user's (null: everyone's, anonymous
     * ones included), for holders of ERROR_LOG_ADMIN_PERMISSION. Asked of the backend's permission
     * call; without an answer, the session gets the narrower view rather than an error, since the
     * log matters most while the backend is in trouble.
     */
    const ownerFor = async (request: FastifyRequest, session: Session): Promise<string | null> => {
      try {
        const held = await app.permissions.of(session);
        if (held === 'unauthorized')
          throw new GatewayError('NOT_LOGGED_IN', 'the backend no longer takes this session');
        return held.includes(adminPermission) ? null : session.userId;
      } catch (error) {
        if (error instanceof GatewayError && error.errorName === 'NOT_LOGGED_IN') throw error;
        request.log.warn(
          { reason: error instanceof Error ? error.message : String(error) },
          'permission look-up for the error log failed: showing the caller its own entries',
        );
        return session.userId;
      }
    };

    typed.get(
      GATEWAY_PATHS.errorLog,
      {
        schema: { querystring: ErrorLogQuerySchema, response: { 200: answerSchema(ErrorLogPageSchema) } },
        onRequest: app.sessions.require,
      },
      async (request, reply) => {
        const { pageNum, pageSize, keyword } = request.query;
        const owner = await ownerFor(request, request.session!);
        const query: ErrorLogQuery = { pageNum, pageSize };
        if (owner !== null) query.owner = owner;
        if (keyword !== undefined && keyword.trim() !== '') query.keyword = keyword;
        const since = timeBound('since', request.query.since, false);
        const until = timeBound('until', request.query.until, true);
        if (since !== undefined) query.since = since;
        if (until !== undefined) query.until = until;
        reply.header('cache-control', 'no-store');
        return {
          code: 200,
          msg: 'ok',
          data: { ...(await store.list(query)), scope: owner === null ? ('all' as const) : ('own' as const) },
        };
      },
    );

    // Clearing is the holder's: the log is what an administrator reads to find out what went wrong,
    // and the entries of someone without the right are evidence for the holder, not theirs to wipe.
    typed.delete(
      GATEWAY_PATHS.errorLog,
      { schema: { response: { 200: okAnswer } }, onRequest: app.sessions.require },
      async (request) => {
        const owner = await ownerFor(request, request.session!);
        if (owner !== null) throw new GatewayError('FORBIDDEN', `clearing the error log needs ${adminPermission}`);
        await store.clear({});
        request.log.info({ userId: request.session?.userId }, 'error log cleared');
        return { code: 200, msg: 'ok' };
      },
    );
  },
  { name: 'error-log', dependencies: ['session', 'permissions'] },
);
