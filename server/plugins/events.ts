import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  CALLS,
  GATEWAY_PATHS,
  SESSION_ENDED_EVENT,
  SUCCESS_CODE,
  WITHDRAWAL_EVENT,
  WITHDRAWAL_REVIEW_PERMISSION,
  type WithdrawalCountEvent,
} from '../contract/index.js';
import { GatewayError, errorBody } from '../errors.js';
import { countUpstreamError } from '../lib/metrics.js';
import type { Session } from '../types.js';
import { PermissionCache, type Access } from '../events/permission-cache.js';
import { SseStreams, OPEN_CHUNK, eventChunk, retryChunk } from '../events/sse-streams.js';
import { WithdrawalHub, type HubSubscriber, type PollOutcome } from '../events/withdrawal-hub.js';
import { heldPermissions, readCount } from '../events/answers.js';

export interface EventsOptions {
  /** Comment heartbeat period; keeps proxies and browsers from timing the stream out. */
  heartbeatMs?: number;
  /** How long a session's permission answer is reused. */
  permissionTtlMs?: number;
  /** Reconnection delay suggested to browsers when the gateway shuts down. */
  retryMs?: number;
  /** Queued bytes after which a stream that does not read is cut. */
  maxBufferedBytes?: number;
}


const SSE_HEADERS: OutgoingHttpHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  // nginx and similar proxies would otherwise hold events back in their buffers.
  'x-accel-buffering': 'no',
};

/** How long shutdown waits for ended streams to flush before cutting their sockets. */
const END_FLUSH_MS = 2_000;

function sessionKey(session: Session): string {
  return `${session.token}\n${session.userId}`;
}

/** One browser tab's stream, as the hub's subscriber. Kept tiny: 5,000 of them must fit. */
class TabStream implements HubSubscriber {
  constructor(
    readonly res: ServerResponse,
    private readonly streams: SseStreams<ServerResponse>,
  ) {}

  onCount(count: number): void {
    const event: WithdrawalCountEvent = { count };
    this.streams.send(this.res, eventChunk(WITHDRAWAL_EVENT, event));
  }

  onEnded(): void {
    this.streams.send(this.res, eventChunk(SESSION_ENDED_EVENT, {}));
    this.streams.delete(this.res);
    this.res.end();
  }
}

function waitClosed(res: ServerResponse, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    // After the last chunk is flushed the keep-alive socket is of no further use during shutdown;
    // left open it would hold server.close() until the keep-alive time-out.
    const timer = setTimeout(() => {
      res.destroy();
      done();
    }, ms);
    timer.unref();
    if (res.destroyed) return done();
    res.once('close', done);
    res.once('finish', () => res.socket?.destroySoon());
  });
}

async function eventsPlugin(app: FastifyInstance, options: EventsOptions): Promise<void> {
  const retryMs = options.retryMs ?? 3_000;
  let closing = false;

  const streams = new SseStreams<ServerResponse>({
    heartbeatMs: options.heartbeatMs ?? 25_000,
    maxBufferedBytes: options.maxBufferedBytes ?? 8 * 1024,
    onSizeChange: (size) => app.metrics.eventStreams.set(size),
  });

  const permissions = new PermissionCache<Session>({
    ttlMs: options.permissionTtlMs ?? 60_000,
    async lookUp(session): Promise<Access> {
      const answer = await app.upstream.call<unknown>(CALLS.permission, { session });
      if (answer.code === 401) return 'unauthorized';
      if (answer.code !== SUCCESS_CODE) {
        throw new GatewayError('UPSTREAM_BAD_ANSWER', `the permission look-up answered code ${answer.code}`);
      }
      return heldPermissions(answer.data).includes(WITHDRAWAL_REVIEW_PERMISSION) ? 'allowed' : 'forbidden';
    },
  });

  const countPath = app.config.withdrawalCountPath;
  const hub = new WithdrawalHub<Session>({
    pollMs: app.config.withdrawalPollMs,
    async poll(session): Promise<PollOutcome> {
      app.metrics.withdrawalPolls.inc();
      const answer = await app.upstream.call<unknown>(countPath, { session });
      if (answer.code === 401) return { status: 'ended' };
      if (answer.code !== SUCCESS_CODE) {
        throw new GatewayError('UPSTREAM_BAD_ANSWER', `${countPath} answered code ${answer.code}`);
      }
      const count = readCount(answer.data);
      if (count === null) throw new GatewayError('UPSTREAM_BAD_ANSWER', `${countPath} answered without a count`);
      return { status: 'count', count };
    },
    onPollFailure(error, session) {
      countUpstreamError(app.metrics, error);
      const reason = error instanceof Error ? error.message : String(error);
      app.log.warn({ userId: session.userId, path: countPath, reason }, 'withdrawal count poll failed; keeping the last count');
    },
    onPollRecovered(session) {
      app.log.info({ userId: session.userId, path: countPath }, 'withdrawal count poll answers again');
    },
    onSessionEnded(key) {
      // A browser reconnecting with the dead session must hear 401 without another backend call.
      permissions.set(key, 'unauthorized');
    },
  });

  app.get(GATEWAY_PATHS.events, async (request: FastifyRequest, reply: FastifyReply) => {
    if (closing || app.shuttingDown) return reply.code(503).send(errorBody('SHUTTING_DOWN'));
    const session = request.session;
    if (!session) return reply.code(401).send(errorBody('NOT_LOGGED_IN'));

    const key = sessionKey(session);
    let access: Access;
    try {
      access = await permissions.get(key, session);
    } catch (error) {
      if (error instanceof GatewayError) {
        countUpstreamError(app.metrics, error);
        request.log.warn({ reason: error.message }, 'permission look-up for the event stream failed');
        return reply.code(error.status).send(error.toBody());
      }
      throw error;
    }
    if (access === 'unauthorized') return reply.code(401).send(errorBody('NOT_LOGGED_IN'));
    if (access === 'forbidden') return reply.code(403).send(errorBody('FORBIDDEN'));
    if (closing || app.shuttingDown) return reply.code(503).send(errorBody('SHUTTING_DOWN'));

    const res = reply.raw;
    // The tab may have gone while the permission look-up ran; its close event has already fired.
    if (res.destroyed || res.writableEnded || request.raw.socket.destroyed) return reply.hijack();

    // hijack() skips Fastify's header writing, so carry over what earlier hooks (security) set.
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) headers[name] = value;
    }
    delete headers['content-length'];
    Object.assign(headers, SSE_HEADERS);
    reply.hijack();
    res.writeHead(200, headers);
    res.write(OPEN_CHUNK);

    const tab = new TabStream(res, streams);
    streams.add(res);
    res.once('close', () => {
      streams.delete(res);
      hub.unsubscribe(key, tab);
    });
    hub.subscribe(key, session, tab);
  });

  app.addHook('preClose', async () => {
    closing = true;
    hub.close();
    permissions.clear();
    const ended = streams.endAll(retryChunk(retryMs));
    await Promise.all(ended.map((res) => waitClosed(res, END_FLUSH_MS)));
  });
}

export default fp(eventsPlugin, { name: 'events', dependencies: ['session'] });
