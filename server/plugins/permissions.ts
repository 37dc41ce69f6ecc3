import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import { CALLS, SUCCESS_CODE } from '../contract/index.js';
import { GatewayError } from '../errors.js';
import { PermissionCache } from '../events/permission-cache.js';
import { heldPermissions } from '../events/answers.js';
import type { Session } from '../session/plugin.js';
import { compilePermissions, type PermissionRule } from '../backend-map/permissions.js';
import { readPointer, parsePointer } from '../backend-map/pointer.js';
import { refusedCode, scalarText } from '../backend-map/answer.js';
import { readBackendJson } from '../lib/backend-json.js';
import { NO_STORE } from './security.js';

/** What the backend's permission call (or the map's permissions) says of a session: the permissions it holds, or that it is over. */
export type HeldPermissions = readonly string[] | 'unauthorized';

export interface PermissionService {
  /**
   * The session's permissions, from the backend's permission call, reused for a short while and
   * shared by concurrent callers. Throws a GatewayError when the backend gives no usable answer.
   */
  of(session: Session): Promise<HeldPermissions>;
  /** Records that the backend no longer takes the session (learnt elsewhere, e.g. by a poll). */
  ended(key: string): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    permissions: PermissionService;
  }
}

export interface PermissionsPluginOptions {
  /** How long a session's answer is reused (default a minute). */
  ttlMs?: number;
}

/** A digest of the backend's token and user id: what answers and polls are shared by, safe to hand to Redis. */
export function sessionKey(session: Session): string {
  return createHash('sha256').update(`${session.token}\n${session.userId}`).digest('base64url');
}

/**
 * Which permissions a session holds, as the backend says: the one look-up every gateway endpoint
 * that answers by permission uses (the event stream, the error log), so a user opening many tabs
 * costs one permission call a minute, whichever endpoints they open.
 */
export default fp<PermissionsPluginOptions>(
  async (app, options) => {
    const map = app.config.backendMap?.map;
    const rule: PermissionRule | null = map?.permissions === undefined ? null : compilePermissions(map.permissions);
    const envelope = {
      code: parsePointer(map?.answer?.code ?? '/code'),
      success: new Set((map?.answer?.success ?? [SUCCESS_CODE]).map(String)),
    };
    const refusals = new Map(Object.entries(map?.refusals ?? {}));

    /** The map's permission call: its list at the map's pointer; a refusal the map reads as 401 ends the session. */
    const askBackend = async (
      session: Session,
      call: Extract<PermissionRule, { kind: 'call' }>,
    ): Promise<HeldPermissions> => {
      const answer = await app.upstream.request(call.path, {
        method: call.method,
        session,
        ...(call.method === 'POST' ? { body: {} } : {}),
      });
      const json = await readBackendJson(app.decodeAnswer, answer, call.method, call.path);
      const code = readPointer(json, envelope.code);
      if (code === undefined || !envelope.success.has(scalarText(code))) {
        if (refusedCode(code, refusals) === 401) return 'unauthorized';
        throw new GatewayError(
          'UPSTREAM_BAD_ANSWER',
          `the permission look-up ${call.path} answered code ${scalarText(code)}`,
        );
      }
      return heldPermissions(readPointer(json, call.list));
    };

    const cache = new PermissionCache<Session, HeldPermissions>({
      ttlMs: options.ttlMs ?? 60_000,
      async lookUp(session): Promise<HeldPermissions> {
        if (rule?.kind === 'call') return askBackend(session, rule);
        const answer = await app.upstream.call<unknown>(CALLS.permission, { session });
        if (answer.code === 401) return 'unauthorized';
        if (answer.code !== SUCCESS_CODE) {
          throw new GatewayError('UPSTREAM_BAD_ANSWER', `the permission look-up answered code ${answer.code}`);
        }
        return heldPermissions(answer.data);
      },
    });
    const service: PermissionService = {
      // A table (or "all") is read from the sealed session: nothing to ask, nothing to cache.
      of: (session) =>
        rule?.kind === 'fixed' ? Promise.resolve(rule.of(session.kept)) : cache.get(sessionKey(session), session),
      ended: (key) => cache.set(key, 'unauthorized'),
    };
    app.decorate('permissions', service);
    app.addHook('preClose', async () => {
      cache.clear();
    });

    if (!rule) return;
    // With the map's permissions the UI's permission call is the gateway's to answer: the backend
    // has none of its own (OpenIM, Shiku), or its list is elsewhere.
    app.get(CALLS.permission, { onRequest: app.sessions.require, schema: {} }, async (request, reply) => {
      const held = await service.of(request.session!);
      if (held === 'unauthorized') throw new GatewayError('NOT_LOGGED_IN', 'the backend no longer takes this session');
      reply.header('cache-control', NO_STORE);
      return { code: SUCCESS_CODE, msg: 'ok', data: held.map((permission) => ({ permission })) };
    });
  },
  { name: 'permissions', dependencies: ['session', 'upstream'] },
);
