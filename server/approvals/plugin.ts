import fp from 'fastify-plugin';
import type { FastifyReply } from 'fastify';
import { SUCCESS_CODE, type HeldAnswer } from '../contract/index.js';
import { GatewayError } from '../errors.js';
import { pathOf } from '../lib/request-path.js';
import type { PrimaryChannel } from '../cluster/ipc.js';
import { NO_STORE } from '../plugins/security.js';
import { dualControlOn } from './config.js';
import { decideAction, decideSettings, type Decision } from './decide.js';
import { emit, recordOf, type ApprovalListener } from './events.js';
import { FileApprovalStore } from './file-store.js';
import { HeldCalls } from './held-calls.js';
import { heldBody } from './held-body.js';
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

/**
 * DUAL_CONTROL_MAX_OPEN: one administrator's holds still waiting (not expired) are bounded, so
 * nobody fills the store and the second approvers' list. Counted before the hold is added, so
 * two at once may pass it by one; the bound is against a flood, not an exact quota.
 */
async function refuseOverCap(store: ApprovalStore, holder: string, max: number, now: number): Promise<void> {
  const open = (await store.list(now)).filter((s) => s.hold.requestedBy === holder && s.hold.expiresAt >= now).length;
  if (open >= max)
    throw new GatewayError(
      'TOO_MANY_HOLDS',
      `${open} of your held calls already wait for a second approver (at most ${max}): have them confirmed or declined first`,
      { data: { open, max } },
    );
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
      const judged = heldBody(request, route);
      const body = judged.body;
      // What passes on unheld is the judged body too: the backend reads the ids the decision read.
      request.body = body;
      const permissions = await app.permissions.of(session);
      if (permissions === 'unauthorized')
        throw new GatewayError('NOT_LOGGED_IN', 'the backend no longer takes this session');
      if (!permissions.includes(route.resource.permission))
        throw new GatewayError('FORBIDDEN', `${route.path} needs ${route.resource.permission}`);

      const context = { app, request, session, now: now(), above: config.above, ttlMs };
      const decision: Decision =
        route.kind === 'action'
          ? await decideAction(context, route, body, judged.targets)
          : await decideSettings(context, route, body);
      if ('pass' in decision) return;
      if ('answer' in decision) {
        reply.header('cache-control', NO_STORE);
        return reply.code(decision.answer.status).send(decision.answer.body);
      }
      const hold = decision.hold;
      await refuseOverCap(store, session.userId, config.maxOpen, context.now);
      const outcome = await store.create(hold, context.now);
      if (!outcome.created) {
        const existing = outcome.existing.hold;
        // The same administrator sending the same call again (a retry, a second click): the same hold.
        // Only in the one spelling: `"04"` beside a held 4 is another call on the same record.
        if (
          judged.canonical &&
          existing.requestedBy === session.userId &&
          JSON.stringify(existing.call.body) === JSON.stringify(body)
        ) {
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
