import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ApprovalIdParamsSchema,
  ApprovalListSchema,
  DeclineBodySchema,
  GATEWAY_PATHS,
  RESOURCES,
  SUCCESS_CODE,
  type SettingsResource,
} from '../contract/index.js';
import { GatewayError } from '../errors.js';
import { answerSchema, okAnswer } from '../lib/answer-schema.js';
import type { Session } from '../session/plugin.js';
import { NO_STORE } from '../plugins/security.js';
import { callAsSession, type ContractAnswer } from './backend.js';
import { changedSince } from './decide.js';
import { emit, recordOf, type ApprovalListener } from './events.js';
import { viewOf, type Hold } from './hold.js';
import type { ApprovalStore } from './store.js';

export interface RouteContext {
  store: ApprovalStore;
  now: () => number;
  listeners: ApprovalListener[];
  /** Off: the list is empty and there is nothing to confirm. */
  enabled: boolean;
  /** DUAL_CONTROL_ABOVE, told with the list so a dialog can say beforehand that an approval will be held. */
  above: number | null;
}

/** Who may see and settle a hold: holders of its screen's permission, as the backend says. */
async function permissionsOf(app: FastifyInstance, session: Session): Promise<readonly string[]> {
  const held = await app.permissions.of(session);
  if (held === 'unauthorized') throw new GatewayError('NOT_LOGGED_IN', 'the backend no longer takes this session');
  return held;
}

/**
 * GET /api/approvals lists the holds the session may settle (its own included, marked `mine`);
 * POST /api/approvals/{id}/confirm sends a hold's call to the backend under the confirming
 * session and answers the backend's answer; POST /api/approvals/{id}/decline drops it with a
 * reason. Confirming and declining first claim the hold in the store, so of two administrators
 * acting at once one proceeds and the other hears 409.
 */
export function registerApprovalRoutes(scope: FastifyInstance, context: RouteContext): void {
  const { store, now, listeners, enabled, above } = context;
  // The contract's schemas are the routes' validators and, through the type provider, their types.
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  /** The hold, readable by this session: 404 when there is none, 403 without the screen's permission. */
  const settle = async (request: FastifyRequest, id: string) => {
    const session = request.session!;
    const stored = enabled ? await store.get(id, now()) : null;
    if (!stored) throw new GatewayError('APPROVAL_NOT_FOUND');
    const held = await permissionsOf(scope, session);
    if (!held.includes(stored.hold.permission))
      throw new GatewayError('FORBIDDEN', `this hold needs ${stored.hold.permission}`);
    return { session, hold: stored.hold };
  };

  /** Claims the hold for this attempt: 409 while another confirmation or decline runs on it. */
  const claim = async (id: string): Promise<{ hold: Hold; token: string }> => {
    const token = randomUUID();
    const outcome = await store.claim(id, token, now());
    if (!outcome.claimed) {
      if (outcome.reason === 'missing') throw new GatewayError('APPROVAL_NOT_FOUND');
      throw new GatewayError(
        'APPROVAL_CONFLICT',
        'another administrator is confirming or declining this hold right now',
      );
    }
    return { hold: outcome.hold, token };
  };

  app.get(
    GATEWAY_PATHS.approvals,
    { onRequest: app.sessions.require, schema: { response: { 200: answerSchema(ApprovalListSchema) } } },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      if (!enabled) return { code: SUCCESS_CODE, msg: 'ok', data: { list: [], dualControlAbove: null } };
      const session = request.session!;
      const held = await permissionsOf(scope, session);
      const at = now();
      const list = (await store.list(at))
        .filter((s) => held.includes(s.hold.permission))
        .sort((a, b) => a.hold.requestedAt - b.hold.requestedAt)
        .map((s) => viewOf(s, session.userId, at));
      return { code: SUCCESS_CODE, msg: 'ok', data: { list, dualControlAbove: above } };
    },
  );

  app.post(
    `${GATEWAY_PATHS.approvals}/:id/confirm`,
    { onRequest: app.sessions.require, schema: { params: ApprovalIdParamsSchema } },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      const { session, hold: seen } = await settle(request, request.params.id);
      if (now() > seen.expiresAt) throw new GatewayError('APPROVAL_EXPIRED');
      if (seen.requestedBy === session.userId) throw new GatewayError('SAME_APPROVER');
      const { hold, token } = await claim(seen.id);
      let answer: ContractAnswer;
      try {
        const refusal = hold.kind === 'settings' ? await refuseIfChanged(scope, request, session, hold) : null;
        if (refusal) {
          await store.release(hold.id, token);
          return reply.code(refusal.status).send(refusal.body);
        }
        answer = await callAsSession(scope, request, session, hold.call.method, hold.call.path, hold.call.body);
      } catch (error) {
        // Nothing reached the backend, or it could not be heard: the hold waits for another try.
        await store.release(hold.id, token);
        throw error;
      }
      if (answer.body.code === 401) {
        // The confirming session ended at the backend: the call was not made, the hold waits.
        await store.release(hold.id, token);
        return reply.code(answer.status).send(answer.body);
      }
      // The backend decided (done, or refused: no longer pending, say): the hold is settled either way.
      await store.remove(hold.id, token);
      const outcome = answer.body.code === SUCCESS_CODE ? 'sent' : 'refused';
      request.log.info(
        { approvalId: hold.id, requestedBy: hold.requestedBy, outcome, code: answer.body.code },
        'held call confirmed by a second approver',
      );
      await emit(
        listeners,
        {
          type: 'confirm',
          approval: recordOf(hold),
          by: session.userId,
          requestedBy: hold.requestedBy,
          outcome,
          backend: { status: answer.status, code: answer.body.code, msg: answer.body.msg },
        },
        request,
        request.log,
      );
      return reply.code(answer.status).send(answer.body);
    },
  );

  app.post(
    `${GATEWAY_PATHS.approvals}/:id/decline`,
    {
      onRequest: app.sessions.require,
      schema: { params: ApprovalIdParamsSchema, body: DeclineBodySchema, response: { 200: okAnswer } },
    },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      const { session } = await settle(request, request.params.id);
      const reason = request.body.reason.trim();
      const { hold, token } = await claim(request.params.id);
      if (!(await store.remove(hold.id, token))) throw new GatewayError('APPROVAL_NOT_FOUND');
      request.log.info({ approvalId: hold.id, requestedBy: hold.requestedBy }, 'held call declined');
      await emit(
        listeners,
        { type: 'decline', approval: recordOf(hold), by: session.userId, requestedBy: hold.requestedBy, reason },
        request,
        request.log,
      );
      return { code: SUCCESS_CODE, msg: 'Declined: nothing was sent to the backend' };
    },
  );
}

/**
 * A held settings save is sent whole: had the settings changed since it was held, confirming it
 * would silently undo that newer change. The confirmer hears 409 and the hold stays, to decline.
 * Answers the backend's refusal to read them (a session it no longer takes, say), to pass on.
 */
async function refuseIfChanged(
  app: FastifyInstance,
  request: FastifyRequest,
  session: Session,
  hold: Hold,
): Promise<ContractAnswer | null> {
  const resource = RESOURCES.find((r): r is SettingsResource => r.kind === 'settings' && r.id === hold.resource);
  if (!resource) return null;
  const current = await callAsSession(app, request, session, 'GET', hold.call.path, {});
  if (current.body.code !== SUCCESS_CODE) return current;
  const data =
    typeof current.body.data === 'object' && current.body.data !== null
      ? (current.body.data as Record<string, unknown>)
      : {};
  const changed = changedSince(resource, hold, data);
  if (changed.length > 0) {
    throw new GatewayError(
      'APPROVAL_CONFLICT',
      `these settings changed since the save was held (${changed.join(', ')}): decline it and save again`,
      {
        data: { approvalId: hold.id, changed },
      },
    );
  }
  return null;
}
