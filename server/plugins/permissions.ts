import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import { CALLS, SUCCESS_CODE } from '../contract/index.js';
import { GatewayError } from '../errors.js';
import { PermissionCache } from '../events/permission-cache.js';
import { heldPermissions } from '../events/answers.js';
import type { Session } from './session.js';

/** What the backend's permission call says of a session: the permissions it holds, or that it is over. */
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
    const cache = new PermissionCache<Session, HeldPermissions>({
      ttlMs: options.ttlMs ?? 60_000,
      async lookUp(session): Promise<HeldPermissions> {
        const answer = await app.upstream.call<unknown>(CALLS.permission, { session });
        if (answer.code === 401) return 'unauthorized';
        if (answer.code !== SUCCESS_CODE) {
          throw new GatewayError('UPSTREAM_BAD_ANSWER', `the permission look-up answered code ${answer.code}`);
        }
        return heldPermissions(answer.data);
      },
    });
    app.decorate('permissions', {
      of: (session) => cache.get(sessionKey(session), session),
      ended: (key) => cache.set(key, 'unauthorized'),
    } satisfies PermissionService);
    app.addHook('preClose', async () => {
      cache.clear();
    });
  },
  { name: 'permissions', dependencies: ['session', 'upstream'] },
);
