import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SUCCESS_CODE, isHeldAnswer } from '../contract/index.js';
import type { AuditActor, AuditEntry, AuditKind, AuditOutcome, AuditPage } from '../contract/audit.js';
import type { PrimaryChannel } from '../cluster/ipc.js';
import { pathOf } from '../lib/request-path.js';
import type { AuditDraft } from './chain.js';
import { readContract } from './contract-read.js';
import { ENTRY_MAX_BYTES, TARGETS_MAX, boundEntry } from './entry-bound.js';
import { secretFieldsOf } from './describe.js';
import { AnonymousShare } from './anonymous-share.js';
import { AuditFileStore } from './file-store.js';
import { IpcAuditStore } from './ipc-store.js';
import { actorOf, changes, namesOf, planOf, sentTargets, type Plan } from './plan.js';
import { boundedText, recordOf } from './redact.js';
import { RedisAuditStore } from './redis-store.js';
import registerRoutes from './routes.js';
import registerExport from './export.js';
import type { AuditQuery, AuditStore } from './store.js';

/**
 * What another plugin hands the recorder: the entry's kind and what it is about. The actor, time,
 * request id and client address come from the request when one is given. Secrets are dropped
 * whatever their place (redact.ts), so a caller may pass a body as it is.
 */
export interface AuditInput {
  kind: AuditKind;
  /** Taken from the request's session when absent. */
  actor?: AuditActor;
  resource?: string | null;
  call?: string | null;
  action?: string | null;
  targets?: readonly (string | number)[];
  /** What the targets are called, by id. */
  names?: Record<string, string>;
  reason?: string | null;
  outcome?: AuditOutcome | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown>;
  inputs?: Record<string, unknown>;
  export?: { filters: Record<string, string>; rows: number; format: 'csv' };
  /** What the kind carries beside (a hold's id, the change it holds). */
  detail?: Record<string, unknown>;
  /** The client address, when the entry is about one but made without its request (a count of attempts). */
  ip?: string | null;
}

export interface AuditService {
  /**
   * Records one entry and resolves with it as stored (chained, hashed); null when it could not be
   * stored, which is logged and counted (gateway_audit_failures_total) but never thrown: the call
   * it describes has happened either way.
   */
  record(input: AuditInput, request?: FastifyRequest | null): Promise<AuditEntry | null>;
  query(query: AuditQuery): Promise<AuditPage>;
  /** Removes what is past AUDIT_RETENTION_DAYS (an anchor keeps the chain whole); resolves with how many went. */
  prune(): Promise<number>;
  /** Where entries go now: the Redis stream, the local file, or the local file while Redis is away. */
  target(): 'redis' | 'local' | 'local-fallback';
}

declare module 'fastify' {
  interface FastifyInstance {
    audit: AuditService;
  }
}

export interface AuditPluginOptions {
  /** In a cluster worker: the primary, which owns the one file and chain. */
  primary?: PrimaryChannel | null;
  now?: () => number;
}

const DAY_MS = 86_400_000;
/** How often the counts of outsiders' attempts are looked at, to write those whose window closed. */
const ANONYMOUS_SWEEP_MS = 60_000;
/** Bytes of a proxied answer read for its code; a longer answer passes on whole, its code read from its start. */
const ANSWER_READ_MAX = 256 * 1024;
/** A read of the values before a change waits at most this long: the change itself must not wait on it much. */
const BEFORE_READ_TIMEOUT_MS = 10_000;

function isStream(payload: unknown): payload is Readable {
  return typeof payload === 'object' && payload !== null && typeof (payload as Readable).pipe === 'function';
}

/**
 * The answer's text for its code, and the payload to send in its place: a stream is read (up to
 * ANSWER_READ_MAX) and sent on as the bytes it held, or as a stream of the bytes read and the rest.
 */
async function readAnswer(payload: unknown): Promise<{ payload: unknown; text: string }> {
  if (payload === null || payload === undefined) return { payload, text: '' };
  if (typeof payload === 'string') return { payload, text: payload };
  if (Buffer.isBuffer(payload)) return { payload, text: payload.toString('utf8') };
  if (!isStream(payload)) return { payload, text: '' };
  const chunks: Buffer[] = [];
  let size = 0;
  const iterator = (payload as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  for (;;) {
    const next = await iterator.next();
    if (next.done) {
      const whole = Buffer.concat(chunks);
      return { payload: whole, text: whole.toString('utf8') };
    }
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    chunks.push(chunk);
    size += chunk.length;
    if (size > ANSWER_READ_MAX) break;
  }
  const head = Buffer.concat(chunks);
  const rest = async function* () {
    yield head;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  };
  return { payload: Readable.from(rest()), text: head.toString('utf8') };
}

/** The envelope's code and message, from the whole answer or, for a long one, from its start. */
function outcomeOf(status: number, text: string): { outcome: AuditOutcome; data: unknown } {
  try {
    const body = JSON.parse(text) as { code?: unknown; msg?: unknown; data?: unknown };
    const code = typeof body.code === 'number' || typeof body.code === 'string' ? body.code : null;
    const msg =
      typeof body.msg === 'string' && body.msg !== '' && code !== SUCCESS_CODE
        ? { msg: boundedText(body.msg, 200) }
        : {};
    return { outcome: { status, code, ...msg }, data: body.data };
  } catch {
    const match = /"code"\s*:\s*(-?\d+)/.exec(text.slice(0, 4096));
    return { outcome: { status, code: match ? Number(match[1]) : null }, data: undefined };
  }
}

/**
 * The audit trail: every call that changes something is recorded by the gateway itself, once its
 * answer is known and before the browser gets it, with who made it, what the contract calls it,
 * the records it names, its reason and its outcome; a record's edit and a settings save also with
 * the values before and after (read from the backend before the change goes on). Exports record
 * what left (export.ts). Other plugins record their own entries through `app.audit.record`.
 *
 * Its hooks are the application's own, so they wrap every route, the proxy's and the backend map's.
 */
export default fp<AuditPluginOptions>(
  async (app, options) => {
    const now = options.now ?? Date.now;
    const channel = options.primary ?? null;
    const own: AuditStore = channel
      ? new IpcAuditStore(channel)
      : new AuditFileStore({
          dir: app.config.dataDir,
          onDamage: (detail) => app.log.warn(detail),
          segmentBytes: app.config.auditSegmentBytes,
          maxBytes: app.config.auditMaxBytes,
        });
    const shared = app.redis
      ? new RedisAuditStore({
          share: app.redis,
          fallback: own,
          maxEntries: Math.max(1, Math.floor(app.config.auditMaxBytes / ENTRY_MAX_BYTES)),
          onFallbackWrite: () => app.metrics.auditFallbackWrites.inc(),
          onFallback: (active, reason) => {
            if (active)
              app.log.warn(
                { reason },
                'the shared audit trail in Redis is unavailable: entries go to the local trail in DATA_DIR until it is back',
              );
            else app.log.info('the shared audit trail in Redis answers again: entries are shared once more');
          },
        })
      : null;
    const store: AuditStore = shared ?? own;
    // Opened now, so that an unwritable DATA_DIR stops the start rather than the first change.
    await store.open();

    const record = async (input: AuditInput, request?: FastifyRequest | null): Promise<AuditEntry | null> => {
      const named = input.targets ?? [];
      // Bounded before it is chained (entry-bound.ts): one call costs the trail a few KB at most.
      const draft: AuditDraft = {
        id: randomUUID(),
        time: new Date(now()).toISOString(),
        kind: input.kind,
        actor: input.actor ?? actorOf(request?.session ?? null),
        requestId: request?.id ?? null,
        ip: input.ip !== undefined ? input.ip : (request?.ip ?? null),
        method: request?.method ?? null,
        path: request ? pathOf(request.url) : null,
        resource: input.resource ?? null,
        call: input.call ?? null,
        action: input.action ?? null,
        targets: named.slice(0, TARGETS_MAX).map(String),
        ...(input.names === undefined ? {} : { names: recordOf(input.names) as Record<string, string> }),
        reason: input.reason || null,
        outcome: input.outcome ?? null,
        ...(input.before === undefined ? {} : { before: input.before === null ? null : recordOf(input.before) }),
        ...(input.after === undefined ? {} : { after: recordOf(input.after) }),
        ...(input.inputs === undefined ? {} : { inputs: recordOf(input.inputs) }),
        ...(input.export === undefined
          ? {}
          : { export: { ...input.export, filters: recordOf(input.export.filters) as Record<string, string> } }),
        ...(input.detail === undefined ? {} : { detail: recordOf(input.detail) }),
      };
      try {
        const entry = await store.append(boundEntry(draft, named.length - TARGETS_MAX));
        app.metrics.auditEntries.inc({ kind: entry.kind });
        return entry;
      } catch (error) {
        app.metrics.auditFailures.inc();
        (request?.log ?? app.log).error(
          { err: error, kind: draft.kind, action: draft.action, resource: draft.resource, auditId: draft.id },
          'could not record an audit-trail entry',
        );
        return null;
      }
    };

    const retentionMs = app.config.auditRetentionDays * DAY_MS;
    const prune = async (): Promise<number> => {
      const removed = await store.prune(now() - retentionMs);
      if (removed > 0)
        app.log.info(
          { removed, retentionDays: app.config.auditRetentionDays },
          'audit trail: removed entries past their retention',
        );
      return removed;
    };

    app.decorate('audit', {
      record,
      query: (query: AuditQuery) => store.query(query),
      prune,
      target: () => (shared ? (shared.usingFallback ? 'local-fallback' : 'redis') : 'local'),
    } satisfies AuditService);

    // In a cluster worker the primary prunes its own file; everywhere else each process prunes
    // what it keeps, once at start and once a day (the same removal twice is harmless).
    if (!channel || shared) {
      const run = () =>
        void prune().catch((error: unknown) =>
          app.log.warn(
            { reason: error instanceof Error ? error.message : String(error) },
            'audit trail: retention failed',
          ),
        );
      app.addHook('onReady', async () => run());
      const timer = setInterval(run, DAY_MS);
      timer.unref();
      app.addHook('onClose', async () => clearInterval(timer));
    }
    // Outsiders' attempts have a bounded share of the trail (anonymous-share.ts): what is counted
    // is written as one entry per address when its window closes, and whatever is left at shutdown.
    const anonymous = new AnonymousShare({ now });
    const writeCounts = async (all: boolean): Promise<void> => {
      for (const count of anonymous.take(all)) {
        await record({
          kind: 'login',
          action: 'loginAttempts',
          actor: { userId: null, account: null },
          ip: count.ip,
          outcome: { status: count.throttled > 0 ? 429 : 200, code: null },
          detail: {
            throttled: count.throttled,
            failed: count.failed,
            from: new Date(count.from).toISOString(),
            until: new Date(count.until).toISOString(),
          },
        });
      }
    };
    const countsTimer = setInterval(() => void writeCounts(false), ANONYMOUS_SWEEP_MS);
    countsTimer.unref();
    app.addHook('onClose', async () => {
      clearInterval(countsTimer);
      await writeCounts(true);
      await store.close();
    });

    const plans = new WeakMap<FastifyRequest, Plan>();

    const readBefore = async (request: FastifyRequest, plan: Plan): Promise<void> => {
      const read = plan.read!;
      const secrets = secretFieldsOf(read.resource);
      let answered: unknown = null;
      try {
        const envelope = await readContract(
          app,
          request,
          request.session!,
          read.resource,
          read.path,
          read.query,
          Math.min(app.config.upstreamTimeoutMs, BEFORE_READ_TIMEOUT_MS),
        );
        answered = envelope.code === SUCCESS_CODE ? envelope.data : null;
      } catch (error) {
        request.log.warn(
          { reason: error instanceof Error ? error.message : String(error) },
          'audit trail: could not read the values before a change',
        );
      }
      const names = namesOf(plan, answered);
      if (names) plan.names = names;
      const diff = changes(plan, answered, secrets);
      if (diff) {
        plan.before = diff.before;
        plan.after = diff.after;
      }
    };

    /** Records a planned call with its outcome: read from the answer's text, or given when there is none to read. */
    const settle = async (
      request: FastifyRequest,
      reply: FastifyReply,
      plan: Plan,
      answer: string | AuditOutcome,
    ): Promise<void> => {
      const { outcome, data } =
        typeof answer === 'string' ? outcomeOf(reply.statusCode, answer) : { outcome: answer, data: undefined };
      // Held for a second administrator: nothing changed yet. The hold, and later its confirmation or
      // decline, are recorded as entries of their own by the approvals' listener.
      if (outcome.code === SUCCESS_CODE && isHeldAnswer(data)) return;
      // A login that did not open a session is an outsider's: counted beyond its share.
      if (
        plan.kind === 'login' &&
        outcome.code !== SUCCESS_CODE &&
        !anonymous.admit(request.ip, outcome.status === 429)
      )
        return;
      let actor = plan.actor;
      if (plan.kind === 'login' && outcome.code === SUCCESS_CODE && data && typeof data === 'object') {
        const userId = (data as { userId?: unknown }).userId;
        if (typeof userId === 'string' || typeof userId === 'number') actor = { ...actor, userId: String(userId) };
      }
      await record(
        {
          kind: plan.kind,
          actor,
          resource: plan.resource,
          call: plan.call,
          action: plan.action,
          targets: plan.targets,
          ...(plan.names ? { names: plan.names } : {}),
          reason: plan.reason,
          outcome,
          ...(plan.read ? { before: plan.before ?? null } : {}),
          ...(plan.after ? { after: plan.after } : {}),
          ...(plan.inputs ? { inputs: plan.inputs } : {}),
        },
        request,
      );
    };

    app.addHook('preHandler', async (request) => {
      const plan = planOf(request);
      if (!plan) return;
      plans.set(request, plan);
      if (plan.read) await readBefore(request, plan);
    });

    // Before the browser gets the answer: a change it was told of is in the trail.
    app.addHook('onSend', async (request, reply, payload) => {
      const plan = plans.get(request);
      if (!plan) return payload;
      plans.delete(request);
      if (plan.kind === 'change') plan.targets = sentTargets(request);
      let answer: Awaited<ReturnType<typeof readAnswer>>;
      try {
        answer = await readAnswer(payload);
      } catch (error) {
        // The backend's answer broke off while it was read: the call may have happened all the same.
        await settle(request, reply, plan, { status: 502, code: null, msg: 'the answer broke off' });
        throw error;
      }
      await settle(request, reply, plan, answer.text);
      return answer.payload;
    });

    // An answer that never went through onSend (the connection dropped first): its call is recorded all the same.
    app.addHook('onResponse', async (request, reply) => {
      const plan = plans.get(request);
      if (!plan) return;
      plans.delete(request);
      if (plan.kind === 'change') plan.targets = sentTargets(request);
      await settle(request, reply, plan, { status: reply.statusCode, code: null });
    });

    registerRoutes(app);
    registerExport(app);
  },
  { name: 'audit', dependencies: ['session', 'permissions', 'upstream'] },
);
