import { Redis } from 'ioredis';
import { expect } from 'vitest';
import type { Session } from '../../../server/session/plugin.js';
import { sessionKey } from '../../../server/plugins/permissions.js';
import { loadConfig } from '../../../server/config.js';
import { CALLS, GATEWAY_PATHS, WITHDRAWAL_REVIEW_PERMISSION } from '../../../server/contract/index.js';
import { PERMISSIONS } from '../../../server/contract/permissions.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../../support/fake-backend.js';
import { fakeLogInOver, routeFakeLogin } from '../../support/fake-session.js';
import { freePort } from '../../support/ports.js';
import { tempDir, waitHealthy, type NodeProcess } from '../../support/processes.js';
import { gatewayProcess } from './held-backend.js';

/**
 * Gateways sharing one Redis, for the tests of REDIS_URL: replicas that are the shipped bundle
 * (dist/server/main.js), each a process of its own on a port of its own, read from outside as an
 * operator would (their pino lines, /readyz, /metrics), on one fake backend that counts the
 * withdrawal polls per session and answers each session's count as the test sets it.
 */

export const SECRET = 'replicas-share-this-session-secret-0123456789';
/** Each replica serves /metrics on its own port behind this bearer token, as an operator would set it. */
export const METRICS_TOKEN = 'replica-metrics-token-0123456789';
export const POLL_MS = 400;
export const MAX_STREAMS = 2;
/** Streams one account may hold across its logins: more than one session's, fewer than two. */
export const MAX_ACCOUNT_STREAMS = 3;
const COUNT_PATH = loadConfig({}).withdrawalCountPath;

export interface Replica {
  process: NodeProcess;
  port: number;
  origin: string;
  /** Its pino lines so far. */
  logs(): Array<Record<string, unknown>>;
}

export class RedisRig {
  /** The pending count the backend answers per token; 'ended' answers 401 (session over). */
  readonly counts = new Map<string, number | 'ended'>();
  private sessions = 0;
  private readonly replicas: Replica[] = [];

  private constructor(readonly backend: FakeBackend) {}

  static async start(): Promise<RedisRig> {
    const backend = await startFakeBackend();
    const rig = new RedisRig(backend);
    routeFakeLogin(backend);
    backend.route(`GET ${CALLS.permission}`, (call, res) => {
      if (!rig.counts.has(String(call.headers['w-token'])))
        return sendJson(res, { code: 401, msg: 'Please log in again' });
      // Every rig session is an administrator who reads everyone's UI errors.
      sendJson(res, {
        code: 200,
        msg: 'ok',
        data: [{ permission: WITHDRAWAL_REVIEW_PERMISSION }, { permission: PERMISSIONS.adminUser }],
      });
    });
    backend.route(`GET ${COUNT_PATH}`, (call, res) => {
      const count = rig.counts.get(String(call.headers['w-token']));
      if (count === undefined || count === 'ended') return sendJson(res, { code: 401, msg: 'Please log in again' });
      sendJson(res, { code: 200, msg: 'ok', data: count });
    });
    return rig;
  }

  /** A replica on `redisUrl`, answering /healthz; close() stops it (harmlessly, if the test already did). */
  async startReplica(redisUrl: string): Promise<Replica> {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const gateway = gatewayProcess({
      SESSION_SECRET: SECRET,
      CHAT_BACKEND_URL: this.backend.url,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: tempDir('redis-replica-data-'),
      UI_DIR: tempDir('redis-replica-ui-'),
      REDIS_URL: redisUrl,
      WITHDRAWAL_POLL_MS: String(POLL_MS),
      EVENTS_MAX_PER_SESSION: String(MAX_STREAMS),
      EVENTS_MAX_PER_ACCOUNT: String(MAX_ACCOUNT_STREAMS),
      METRICS_TOKEN,
      LOG_LEVEL: 'info',
    });
    const replica: Replica = { process: gateway, port, origin, logs: () => gateway.logLines() };
    this.replicas.push(replica);
    await waitHealthy(gateway, origin);
    return replica;
  }

  /** A new backend session (pending count `count`) logged in through `replica`, of a new account unless `userId` names one. */
  async logIn(
    replica: Replica,
    count = 3,
    userId?: string,
  ): Promise<{ token: string; userId: string; cookie: string }> {
    const n = ++this.sessions;
    const token = `tok-${n}`;
    const user = userId ?? `u-${n}`;
    this.counts.set(token, count);
    return { token, userId: user, cookie: await fakeLogInOver(replica.origin, { token, userId: user }) };
  }

  /** Upstream polls of the session's count, by every gateway together. */
  pollsOf(token: string): number {
    return this.backend.calls.filter((c) => c.url.split('?')[0] === COUNT_PATH && c.headers['w-token'] === token)
      .length;
  }

  async close(): Promise<void> {
    for (const replica of this.replicas.splice(0)) await replica.process.stop();
    await this.backend.close();
  }
}

/** Whether the replica says (in /readyz) that its connection to Redis is ready: sharing on. */
export async function shared(replica: Replica): Promise<boolean> {
  const ready = await readyz(replica);
  return (JSON.parse(ready.text) as { details?: { redis?: string } }).details?.redis === 'connected';
}

/** Whether the replica says (in /readyz) that Redis is unavailable: going on alone. */
export async function alone(replica: Replica): Promise<boolean> {
  const ready = await readyz(replica);
  return (JSON.parse(ready.text) as { details?: { redis?: string } }).details?.redis === 'unavailable';
}

export function postError(replica: Replica, message: string): Promise<Response> {
  return fetch(`${replica.origin}${GATEWAY_PATHS.errorLog}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: replica.origin },
    body: JSON.stringify({ message, url: '/dashboard' }),
  });
}

/** The messages of the error-log entries the replica lists for `keyword`. */
export async function listedMessages(replica: Replica, cookie: string, keyword: string): Promise<string[]> {
  const query = `?pageNum=1&pageSize=50&keyword=${encodeURIComponent(keyword)}`;
  const res = await fetch(`${replica.origin}${GATEWAY_PATHS.errorLog}${query}`, { headers: { cookie } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: { list: Array<{ message: string }> } };
  return body.data.list.map((entry) => entry.message);
}

export async function logOut(replica: Replica, cookie: string): Promise<void> {
  const res = await fetch(`${replica.origin}${GATEWAY_PATHS.logout}`, {
    method: 'POST',
    headers: { cookie, origin: replica.origin },
  });
  expect(res.status).toBe(204);
}

/** The status of a /manage call with the session: 200 taken, 401 refused. */
export async function permissionStatus(replica: Replica, cookie: string): Promise<number> {
  return (await fetch(`${replica.origin}${CALLS.permission}`, { headers: { cookie } })).status;
}

/** A sample's value on the replica's /metrics page, read by its name as a scraper would. */
export async function metric(replica: Replica, name: string): Promise<number> {
  const text = await (
    await fetch(`${replica.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`/metrics has no ${name}:\n${text.slice(0, 2000)}`);
  return Number(line.slice(name.length + 1));
}

export async function readyz(replica: Replica): Promise<{ status: number; text: string }> {
  const res = await fetch(`${replica.origin}${GATEWAY_PATHS.readyz}`);
  return { status: res.status, text: await res.text() };
}

/**
 * The withdrawal-poll locks every gateway tried to take, as the redis-server itself saw them
 * (MONITOR): one `SET <prefix>withdrawal-poll:<session>:<period> <replica> NX` per gateway, session
 * and period it scheduled. The polls a session cost are then checked against the periods the
 * gateways scheduled, whatever the machine's timers did, instead of against elapsed time.
 */
export class PollLockWatch {
  /** Session key -> period -> the replicas that tried to take its lock. */
  private readonly tries = new Map<string, Map<string, Set<string>>>();

  private constructor(
    private readonly client: Redis,
    private readonly source: Redis,
  ) {}

  static async start(redisUrl: string): Promise<PollLockWatch> {
    const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    const monitor = await client.monitor();
    // Redis going away at the end of a file is no news to a watcher.
    monitor.on('error', () => undefined);
    client.on('error', () => undefined);
    const watch = new PollLockWatch(monitor, client);
    monitor.on('monitor', (_time: string, args: string[]) => {
      const [command, key, replica] = args;
      const marker = 'withdrawal-poll:';
      if (command?.toLowerCase() !== 'set' || !key?.includes(marker) || replica === undefined) return;
      const rest = key.slice(key.indexOf(marker) + marker.length);
      const session = rest.slice(0, rest.lastIndexOf(':'));
      const period = rest.slice(rest.lastIndexOf(':') + 1);
      let periods = watch.tries.get(session);
      if (!periods) watch.tries.set(session, (periods = new Map()));
      let replicas = periods.get(period);
      if (!replicas) periods.set(period, (replicas = new Set()));
      replicas.add(replica);
    });
    return watch;
  }

  private periodsOf(login: { token: string; userId: string }): Map<string, Set<string>> {
    return this.tries.get(sessionKey({ token: login.token, userId: login.userId } as Session)) ?? new Map();
  }

  /** The periods in which some gateway scheduled a poll of the session (exactly one of them took the lock). */
  claimedPeriods(login: { token: string; userId: string }): number {
    return this.periodsOf(login).size;
  }

  /** The periods in which every one of `replicas` gateways scheduled a poll of the session. */
  periodsClaimedByAll(login: { token: string; userId: string }, replicas: number): number {
    return [...this.periodsOf(login).values()].filter((set) => set.size >= replicas).length;
  }

  close(): void {
    this.client.disconnect();
    this.source.disconnect();
  }
}
