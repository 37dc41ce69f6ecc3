import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LoginAnswer, PermissionEntry } from '../../server/contract/index.js';
import { ALL_PERMISSIONS, CALLS, TOKEN_HEADER, USER_ID_HEADER } from '../../server/contract/index.js';
import { CODES, MESSAGES, SandboxError, badRequest, ok } from '../errors.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import { passwordMatches } from '../store/accounts.js';
import { adminOf, bodyObject, setAdmin } from './common.js';

/**
 * The permission a path falls under: the longest permission string that is the path or a parent
 * of it. Null for calls that need only a login (/manage/count, /manage/permission...).
 */
export function requiredPermission(path: string): string | null {
  let best: string | null = null;
  for (const permission of ALL_PERMISSIONS) {
    if (
      (path === permission || path.startsWith(`${permission}/`)) &&
      (best === null || permission.length > best.length)
    ) {
      best = permission;
    }
  }
  return best;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Requests the guard turned away: their answer is the interceptor's, never encoded. */
export const refusedRequests = new WeakSet<FastifyRequest>();

function refuse(request: FastifyRequest, reply: FastifyReply, msg: string): FastifyReply {
  refusedRequests.add(request);
  return reply.code(200).send({ code: CODES.unauthorized, msg });
}

export function registerAuth(app: FastifyInstance, store: SandboxStore): void {
  app.addHook('onRequest', async (request, reply) => {
    // The matched route's pattern, not the raw URL, so odd spellings of a path cannot dodge the check.
    const path = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
    if (!path.startsWith('/manage/') || path === CALLS.login) return;
    const check = store.sessions.check(header(request, TOKEN_HEADER), header(request, USER_ID_HEADER));
    if (check.status === 'elsewhere') return refuse(request, reply, MESSAGES.loggedInElsewhere);
    if (check.status === 'expired') return refuse(request, reply, MESSAGES.loginExpired);
    const permission = requiredPermission(path);
    if (permission !== null && !check.account.permissions.includes(permission)) {
      return refuse(request, reply, MESSAGES.noPermission);
    }
    setAdmin(request, check.account);
  });

  app.post(CALLS.login, async (request) => {
    const body = bodyObject(request.body);
    const { account, password } = body;
    if (typeof account !== 'string' || typeof password !== 'string' || account === '' || password === '') {
      throw badRequest('account and password are required');
    }
    // The authenticator code is checked only for accounts bound to Google Authenticator; the
    // sandbox accounts are not, so any code (usually empty) passes.
    if (body.code !== undefined && body.code !== null && typeof body.code !== 'string')
      throw badRequest('code must be text');
    const admin = store.accounts.all().find((a) => a.account === account);
    if (!admin || !passwordMatches(admin, password))
      throw new SandboxError(CODES.wrongCredentials, MESSAGES.wrongCredentials);
    if (admin.status !== 'enabled') throw new SandboxError(1003, 'This account has been disabled');
    admin.lastLoginTime = new Date().toISOString();
    admin.lastLoginIp = request.ip;
    store.logOperation({
      adminAccount: admin.account,
      action: 'login',
      module: 'auth',
      detail: 'Signed in',
      ip: request.ip,
    });
    const answer: LoginAnswer & { token: string } = { token: store.sessions.open(admin), userId: admin.userId };
    return ok(answer);
  });

  app.get(CALLS.permission, async (request) => {
    const entries: PermissionEntry[] = adminOf(request).permissions.map((permission) => ({ permission }));
    return ok(entries);
  });
}
