import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  GATEWAY_PATHS,
  SESSION_ENDED_EVENT,
  SUCCESS_CODE,
  type SessionEndedEvent,
  WITHDRAWAL_EVENT,
  WITHDRAWAL_REVIEW_PERMISSION,
  type WithdrawalCountEvent,
} from '../contract/index.js';
import { GatewayError, errorBody } from '../errors.js';
import { countUpstreamError } from '../lib/metrics.js';
import type { Session } from '../session/plugin.js';
import { sessionKey } from '../plugins/permissions.js';
import { SseStreams, OPEN_CHUNK, eventChunk, retryChunk } from './sse-streams.js';
import { WithdrawalHub, type HubSubscriber, type PollOutcome } from './withdrawal-hub.js';
import { readCount } from './answers.js';
import { RedisPollShare, RedisStreamSlots } from './redis-share.js';

export interface EventsOptions {
  /** Comment heartbeat period; keeps proxies and browsers from timing the stream out. */
  heartbeatMs?: number;
  /** How long a session's permission answer is reused (by every endpoint: see plugins/permissions.ts). */
  permissionTtlMs?: number;
  /** Reconnection delay suggested to browsers when the gateway shuts down. */
  retryMs?: number;
  /** Queued bytes after which a stream that does not read is cut. */
  maxBufferedBytes?: number;
}

const SSE_HEADERS: OutgoingHttpHeaders = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store, no-transform',
  connection: 'keep-alive',
  // nginx and similar proxies would otherwise hold events back in their buffers.
  'x-accel-buffering': 'no',
};

/** A cap on open event streams: its metric label, and the reason the 429 gives. */
interface StreamCap {
  limit: string;
  why: string;
}

/** How long shutdown waits for ended streams to flush before cutting their sockets. */
const END_FLUSH_MS = 2_000;
/** setTimeout's longest delay; a later expiry is re-armed when it fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

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
    this.end('backend');
  }

  /** Tells the tab why its session ended, then ends the stream. */
  end(reason: SessionEndedEvent['reason']): void {
    const event: SessionEndedEvent = { reason };
    this.streams.send(this.res, eventChunk(SESSION_ENDED_EVENT, event));
    this.streams.delete(this.res);
    this.res.end();
  }
}

/** The open streams of one session (one login), so its logout or expiry can end them all. */
interface SessionTabs {
  tabs: Set<TabStream>;
  hubKey: string;
  /** The session's own expiry: what a rise of the revocation floor is compared with. */
  expiresAt: number;
  expiry: NodeJS.Timeout | null;
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

  const maxPerSession = app.config.eventsMaxPerSession;
  const bySession = new Map<string, SessionTabs>();
  // One account may log in many times (five logins once held 100 streams), and every stream
  // holds a socket of MAX_CONNECTIONS: accounts are capped across their sessions, and all streams
  // together below the socket cap, so calls and probes always find a socket.
  const { eventsMaxPerAccount: maxPerAccount, eventsMaxTotal: maxTotal } = app.config;
  const byAccount = new Map<string, number>();

  const SESSION_FULL: StreamCap = {
    limit: 'event_streams_per_session',
    why: `this session already has ${maxPerSession} event streams open`,
  };
  const ACCOUNT_FULL: StreamCap = {
    limit: 'event_streams_per_account',
    why: `this account already has ${maxPerAccount} event streams open`,
  };
  const GATEWAY_FULL: StreamCap = {
    limit: 'event_streams_total',
    why: `the gateway already has ${maxTotal} event streams open`,
  };

  /** The cap a new stream of this session would pass in this process, or null when it may open. */
  const overCap = (session: Session): StreamCap | null => {
    if ((bySession.get(session.id)?.tabs.size ?? 0) >= maxPerSession) return SESSION_FULL;
    if ((byAccount.get(session.userId) ?? 0) >= maxPerAccount) return ACCOUNT_FULL;
    if (streams.size >= maxTotal) return GATEWAY_FULL;
    return null;
  };
  const refuse = (reply: FastifyReply, cap: StreamCap) => {
    app.metrics.limited.inc({ limit: cap.limit });
    reply.header('retry-after', '30');
    return reply.code(429).send(errorBody('RATE_LIMITED', `${errorBody('RATE_LIMITED').msg}: ${cap.why}`));
  };

  const endSession = (id: string, reason: SessionEndedEvent['reason']) => {
    const group = bySession.get(id);
    if (!group) return;
    bySession.delete(id);
    if (group.expiry) clearTimeout(group.expiry);
    for (const tab of group.tabs) {
      hub.unsubscribe(group.hubKey, tab);
      tab.end(reason);
    }
  };

  const armExpiry = (id: string, session: Session, group: SessionTabs) => {
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, app.sessions.expiresAt(session) - app.sessions.now()));
    group.expiry = setTimeout(() => {
      if (app.sessions.now() >= app.sessions.expiresAt(session)) endSession(id, 'expired');
      else armExpiry(id, session, group);
    }, delay);
    group.expiry.unref();
  };

  const stopHearingIds = app.sessions.onRevoked((id) => endSession(id, 'logged-out'));
  // Logouts forgotten past the cap end every session as old as theirs, streams included.
  const stopHearingFloor = app.sessions.onFloorRaised((floor) => {
    for (const [id, group] of [...bySession]) if (group.expiresAt <= floor) endSession(id, 'logged-out');
  });
  const stopHearing = () => {
    stopHearingIds();
    stopHearingFloor();
  };

  const pollMs = app.config.withdrawalPollMs;
  const redis = app.redis;
  const share = redis ? new RedisPollShare(redis, pollMs, (key, outcome) => hub.apply(key, outcome)) : null;
  const slots = redis ? new RedisStreamSlots(redis, maxPerSession) : null;
  // The same slots by account, under a name no session id can take (ids have no colon).
  const accountSlots = redis ? new RedisStreamSlots(redis, maxPerAccount) : null;
  // With a map that binds the count, the poll is the map's call (its input never changes, so it is
  // prepared once); one that marks it unsupported has no poll and no stream at all.
  const mapped = app.backendMap?.namesOwn('withdrawalCount')
    ? app.backendMap.prepareOwn('withdrawalCount', 'GET', {})
    : null;
  const countUnsupported = mapped !== null && 'unsupported' in mapped;
  const countPath =
    mapped && !('unsupported' in mapped) ? mapped.request.path.split('?')[0]! : app.config.withdrawalCountPath;
  const outcomeOf = (code: unknown, data: unknown): PollOutcome => {
    if (code === 401) return { status: 'ended' };
    if (code !== SUCCESS_CODE)
      throw new GatewayError('UPSTREAM_BAD_ANSWER', `${countPath} answered code ${String(code)}`);
    const count = readCount(data);
    if (count === null) throw new GatewayError('UPSTREAM_BAD_ANSWER', `${countPath} answered without a count`);
    return { status: 'count', count };
  };
  const hub = new WithdrawalHub<Session>({
    pollMs,
    ...(share ? { share } : {}),
    async poll(session): Promise<PollOutcome> {
      app.metrics.withdrawalPolls.inc();
      if (mapped && !('unsupported' in mapped)) {
        const answer = await app.sendMapped(mapped, { session });
        return outcomeOf(answer.body.code, answer.body.data);
      }
      const answer = await app.upstream.call<unknown>(countPath, { session });
      return outcomeOf(answer.code, answer.data);
    },
    onPollFailure(error, session) {
      countUpstreamError(app.metrics, error);
      const reason = error instanceof Error ? error.message : String(error);
      app.log.warn(
        { userId: session.userId, path: countPath, reason },
        'withdrawal count poll failed; keeping the last count',
      );
    },
    onPollRecovered(session) {
      app.log.info({ userId: session.userId, path: countPath }, 'withdrawal count poll answers again');
    },
    onSessionEnded(key) {
      // A browser reconnecting with the dead session must hear 401 without another backend call.
      app.permissions.ended(key);
    },
  });

  // A stream that takes nothing: the schema declares no input.
  app.get(GATEWAY_PATHS.events, { schema: {} }, async (request: FastifyRequest, reply: FastifyReply) => {
    if (closing || app.shuttingDown) return reply.code(503).send(errorBody('SHUTTING_DOWN'));
    const session = request.session;
    if (!session) return reply.code(401).send(errorBody('NOT_LOGGED_IN'));
    // Without a count there is nothing to stream: the UI shows no badge (the offer says so).
    if (countUnsupported) {
      const call = 'console.withdrawalCount';
      return reply.code(404).send(new GatewayError('UNSUPPORTED_BY_BACKEND', call, { data: { call } }).toBody());
    }
    const early = overCap(session);
    if (early) return refuse(reply, early);

    const key = sessionKey(session);
    let held: Awaited<ReturnType<typeof app.permissions.of>>;
    try {
      held = await app.permissions.of(session);
    } catch (error) {
      if (error instanceof GatewayError) {
        countUpstreamError(app.metrics, error);
        request.log.warn({ reason: error.message }, 'permission look-up for the event stream failed');
        return reply.code(error.status).send(error.toBody());
      }
      throw error;
    }
    if (held === 'unauthorized') return reply.code(401).send(errorBody('NOT_LOGGED_IN'));
    if (!held.includes(WITHDRAWAL_REVIEW_PERMISSION)) return reply.code(403).send(errorBody('FORBIDDEN'));
    if (closing || app.shuttingDown) return reply.code(503).send(errorBody('SHUTTING_DOWN'));
    // Checked again after the look-up: the session may have been logged out, or filled up, meanwhile.
    if (await app.sessions.isRevoked(session)) return reply.code(401).send(errorBody('NOT_LOGGED_IN'));
    const late = overCap(session);
    if (late) return refuse(reply, late);
    // Other replicas' streams of the session and of the account count too, while Redis answers.
    const slot = slots ? await slots.take(session.id) : null;
    if (slots && slot === null) return refuse(reply, SESSION_FULL);
    const accountSlot = accountSlots ? await accountSlots.take(`account:${session.userId}`) : null;
    const releaseSlots = () => {
      if (slot !== null) slots?.release(slot);
      if (accountSlot !== null) accountSlots?.release(accountSlot);
    };
    if (accountSlots && accountSlot === null) {
      releaseSlots();
      return refuse(reply, ACCOUNT_FULL);
    }
    // Checked once more after the awaits: another stream of the account may have opened meanwhile.
    const last = overCap(session);
    if (last || closing || app.shuttingDown) {
      releaseSlots();
      if (last) return refuse(reply, last);
      return reply.code(503).send(errorBody('SHUTTING_DOWN'));
    }

    const res = reply.raw;
    // The tab may have gone while the permission look-up ran; its close event has already fired.
    if (res.destroyed || res.writableEnded || request.raw.socket.destroyed) {
      releaseSlots();
      return reply.hijack();
    }

    // hijack() skips Fastify's header writing, so carry over what earlier hooks (security) set.
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) headers[name] = value;
    }
    delete headers['content-length'];
    delete headers['content-disposition'];
    Object.assign(headers, SSE_HEADERS);
    reply.hijack();
    res.writeHead(200, headers);
    res.write(OPEN_CHUNK);

    const tab = new TabStream(res, streams);
    streams.add(res);
    let group = bySession.get(session.id);
    if (!group) {
      group = { tabs: new Set(), hubKey: key, expiresAt: app.sessions.expiresAt(session), expiry: null };
      bySession.set(session.id, group);
      armExpiry(session.id, session, group);
    }
    group.tabs.add(tab);
    byAccount.set(session.userId, (byAccount.get(session.userId) ?? 0) + 1);
    const joined = group;
    res.once('close', () => {
      releaseSlots();
      const left = (byAccount.get(session.userId) ?? 1) - 1;
      if (left <= 0) byAccount.delete(session.userId);
      else byAccount.set(session.userId, left);
      streams.delete(res);
      hub.unsubscribe(key, tab);
      joined.tabs.delete(tab);
      if (joined.tabs.size === 0 && bySession.get(session.id) === joined) {
        if (joined.expiry) clearTimeout(joined.expiry);
        bySession.delete(session.id);
      }
    });
    hub.subscribe(key, session, tab);
  });

  app.addHook('preClose', async () => {
    closing = true;
    stopHearing();
    for (const group of bySession.values()) if (group.expiry) clearTimeout(group.expiry);
    bySession.clear();
    hub.close();
    slots?.close();
    accountSlots?.close();
    const ended = streams.endAll(retryChunk(retryMs));
    await Promise.all(ended.map((res) => waitClosed(res, END_FLUSH_MS)));
  });
}

export default fp(eventsPlugin, { name: 'events', dependencies: ['session', 'permissions', 'backend-map'] });
