import type { FastifyInstance } from 'fastify';
import { CALLS } from '../../server/contract/index.js';
import { sendJson, type FakeBackend } from './fake-backend.js';
import { SAME_ORIGIN } from '../server/support/gateway.js';
import { logInInject } from './login.js';

/**
 * Sessions as a browser gets them: the backend answers the login, the gateway sets its cookies,
 * and later calls send those cookies back. Tests never write a session cookie themselves, so
 * they hold whatever form the gateway gives its cookies.
 */

/** Makes a fake backend answer every login with `token` and `userId`. */
export function answerLogins(backend: FakeBackend, token = 'tok-session-1', userId: number | string = 7): void {
  backend.route(`POST ${CALLS.login}`, (_call, res) =>
    sendJson(res, { code: 200, msg: 'ok', data: { token, userId } }),
  );
}

/** Logs in as admin through `app` (inject) and returns the cookies it set, ready for `inject({ cookies })`. */
export function logInThrough(
  app: FastifyInstance,
  headers: Record<string, string> = SAME_ORIGIN,
): Promise<Record<string, string>> {
  return logInInject(app, 'admin', headers);
}

/** The same cookies as one Cookie header, for clients other than inject (values encoded as the gateway sends them). */
export function cookieHeaderOf(cookies: Record<string, string>): string {
  return Object.entries(cookies)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('; ');
}
