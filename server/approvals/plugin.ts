import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SUCCESS_CODE, type HeldAnswer } from '../contract/index.js';
import { GatewayError } from '../errors.js';
import { pathOf } from '../lib/request-path.js';
import type { PrimaryChannel } from '../cluster/ipc.js';
import { NO_STORE } from '../plugins/security.js';
import { dualControlOn } from './config.js';
import { decideAction, decideSettings, type Decision } from './decide.js';
import { emit, recordOf, type ApprovalListener } from './events.js';
import { FileApprovalStore } from './file-store.js';
import { HeldCalls, type HeldRoute } from './held-calls.js';
import { IpcApprovalStore } from './ipc-store.js';
import { RedisApprovalStore } from './redis-store.js';
import { registerApprovalRoutes } from './routes.js';
import type { ApprovalStore } from './store.js';

export interface ApprovalsService {
  /** Whether any call is held (DUAL_CONTROL_ABOVE or DUAL_CONTROL_SETTINGS set). */
  readonly enabled: boolean;
  /**
   * Told of every hold, confirmation and decline, in order, before the answer goes out. The audit
   * trail records both administrators by adding itself here.
   */
  readonly onApprovalEvent: ApprovalListener[];
}

declare module 'fastify' {
  interface FastifyInstance {
    approvals: ApprovalsService;
  }
}

export interface ApprovalsPluginOptions {
  /** Where holds live. Default: Redis with REDIS_URL; the primary's in a cluster worker; else DATA_DIR/approvals.json. */
  store?: ApprovalStore;
  primary?: PrimaryChannel | null;
  /** The clock of hold expiry, for tests. */
  now?: () => number;
}

type Row = Record<string, unknown>;

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Members a held action's body may carry: anything else could be a backend's own name for the targets, sent on unheld. */
const ACTION_MEMBERS = new Set(['id', 'ids']);

/**
 * The JSON body of a held call as an object. Only JSON is taken: a form or other body could carry
 * the targets where the gateway does not look, so it is refused rather than sent unheld.
 */
function heldBody(request: FastifyRequest, route: HeldRoute): Row {
  if (request.url.includes('?'))
    throw new GatewayError(
      'BAD_REQUEST',
      `${route.path} takes its values in a JSON body only while it is held for a second approver`,
    );
  let body: unknown = request.body;
  if (body === undefined || body === null) body = {};
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body) as unknown;
    } catch {
      throw new GatewayError('BAD_REQUEST', `${route.path} takes a JSON body`);
    }
  }
  if (Buffer.isBuffer(body)) throw new GatewayError('UNSUPPORTED_MEDIA_TYPE', `${route.path} takes a JSON body`);
  if (!isRow(body)) throw new GatewayError('BAD_REQUEST', `${route.path} takes a JSON object`);
  if (route.kind === 'action') {
    const foreign = Object.keys(body).find((key) => !ACTION_MEMBERS.has(key));
    if (foreign !== undefined)
      throw new GatewayError(
        'BAD_REQUEST',
        `${route.path} takes only id or ids while it is held for a second approver, not "${foreign}"`,
      );
    if (body.id === undefined && body.ids === undefined)
      throw new GatewayError('BAD_REQUEST', `${route.path} needs id or ids`);
  }
  return body;
}

function heldAnswer(reply: FastifyReply, approvalId: string, expiresAt: number): FastifyReply {
  const data: HeldAnswer = { held: true, approvalId, expiresAt: new Date(expiresAt).toISOString() };
  reply.header('cache-control', NO_STORE);
  return reply.code(200).send({ code: SUCCESS_CODE, msg: 'Held: waiting for a second approver', data });
}

/**
 * Two-person approval at the gateway. A withdrawal approval above DUAL_CONTROL_ABOVE, or a save of
 * a settings screen DUAL_CONTROL_SETTINGS names, is held before it reaches the backend (and before
 * a backend map translates it): the gateway reads what it is about, keeps the call, and answers
 * `{held: true, approvalId}`. Another administrator holding the screen's permission confirms it
 * (the call then goes to the backend under their session, through the same translation as an
 * ordinary call) or declines it (/api/approvals). The gateway guards only what passes through it:
 * anyone who can call the backend directly is not held.
 */
export default fp<ApprovalsPluginOptions>(
  async (app, options) => {
    const config = app.config.dualControl;
    const now = options.now ?? Date.now;
    const listeners: ApprovalListener[] = [];
    const enabled = dualControlOn(config);
    app.decorate('approvals', { enabled, onApprovalEvent: listeners } satisfies ApprovalsService);

    const channel = options.primary ?? null;
    const store: ApprovalStore =
      options.store ??
      (app.redis
        ? new RedisApprovalStore(app.redis)
        : channel
          ? new IpcApprovalStore(channel)
          : new FileApprovalStore({
              dir: app.config.dataDir,
              onUnreadable: (file, aside, reason) =>
                app.log.warn({ file, aside, reason }, 'set aside an unreadable file of held calls: its holds are gone'),
            }));
    // Opened now, so an unwritable DATA_DIR stops the start rather than the first held approval.
    if (enabled) await store.open();
    app.addHook('onClose', async () => {
      await store.close();
    });

    registerApprovalRoutes(app, { store, now, listeners, enabled, above: config.above });
    if (!enabled) return;

    const held = new HeldCalls(config, app.backendMap);
    const ttlMs = config.ttlHours * 3_600_000;

    app.addHook('preHandler', async (request, reply) => {
      const classified = held.classify(request.method, pathOf(request.url));
      if (classified === null) return;
      if ('refused' in classified) throw classified.refused;
      const route = classified.held;
      const session = request.session;
      // The route's own hook has refused a call without a session already.
      if (!session) return;
      const body = heldBody(request, route);
      const permissions = await app.permissions.of(session);
      if (permissions === 'unauthorized')
        throw new GatewayError('NOT_LOGGED_IN', 'the backend no longer takes this session');
      if (!permissions.includes(route.resource.permission))
        throw new GatewayError('FORBIDDEN', `${route.path} needs ${route.resource.permission}`);

      const context = { app, request, session, now: now(), above: config.above, ttlMs };
      const decision: Decision =
        route.kind === 'action' ? await decideAction(context, route, body) : await decideSettings(context, route, body);
      if ('pass' in decision) return;
      if ('answer' in decision) {
        reply.header('cache-control', NO_STORE);
        return reply.code(decision.answer.status).send(decision.answer.body);
      }
      const hold = decision.hold;
      const outcome = await store.create(hold, context.now);
      if (!outcome.created) {
        const existing = outcome.existing.hold;
        // The same administrator sending the same call again (a retry, a second click): the same hold.
        if (existing.requestedBy === session.userId && JSON.stringify(existing.call.body) === JSON.stringify(body)) {
          return heldAnswer(reply, existing.id, existing.expiresAt);
        }
        throw new GatewayError(
          'APPROVAL_CONFLICT',
          'a held call on the same records already waits for a second approver: confirm or decline it first',
          {
            data: { approvalId: existing.id },
          },
        );
      }
      request.log.info(
        { approvalId: hold.id, resource: hold.resource, action: hold.action, targets: hold.targets },
        'held for a second approver',
      );
      await emit(listeners, { type: 'hold', approval: recordOf(hold), by: session.userId }, request, request.log);
      return heldAnswer(reply, hold.id, hold.expiresAt);
    });
  },
  { name: 'approvals', dependencies: ['session', 'session-calls', 'upstream', 'backend-map', 'permissions'] },
);
