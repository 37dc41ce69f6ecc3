import type { FastifyInstance } from 'fastify';
import { CALLS } from '../../server/contract/index.js';
import { sendJson, type FakeBackend } from './fake-backend.js';
import { logInInject, logInOver } from './login.js';

// The logins themselves are login.ts's; these names stay for the tests that import them here.
export { logInInject, logInOver };

/**
 * Sessions of a fake backend: its login answers any `<token>/<userId>` account (routeFakeLogin),
 * and fakeLogIn/fakeLogInOver log in as one through login.ts's helpers.
 */

/** The backend credentials a fake login hands out. */
export interface BackendSession {
  token: string;
  userId: string;
}

/** The password of every fake account; anything else is refused with code 1001. */
export const FAKE_PASSWORD = 'pw';

/** The account name that makes the fake login answer with this token and user id. */
export function fakeAccount({ token, userId }: BackendSession): string {
  return `${token}/${userId}`;
}

/**
 * Adds POST /manage/logIn to a fake backend: account `<token>/<userId>` with password `pw`
 * answers code 200 with that token and user id, any other password code 1001.
 */
export function routeFakeLogin(backend: FakeBackend): void {
  backend.route(`POST ${CALLS.login}`, (call, res) => {
    const body = JSON.parse(call.body) as { account?: string; password?: string };
    const slash = body.account?.lastIndexOf('/') ?? -1;
    if (body.password !== FAKE_PASSWORD || !body.account || slash <= 0) {
      return sendJson(res, { code: 1001, msg: 'Wrong account or password' });
    }
    sendJson(res, {
      code: 200,
      msg: 'ok',
      data: { token: body.account.slice(0, slash), userId: body.account.slice(slash + 1) },
    });
  });
}

/** The cookies of Set-Cookie lines as name -> value (empty values, i.e. cleared cookies, included). */
export function setCookieValues(header: string | string[] | undefined): Record<string, string> {
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header];
  const out: Record<string, string> = {};
  for (const line of lines) {
    const pair = line.split(';')[0]!;
    const eq = pair.indexOf('=');
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1);
  }
  return out;
}

/** name=value pairs as one Cookie header. */
export function cookieHeader(cookies: Record<string, string>): string {
  return Object.entries(cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
}

/** Logs in as a fake backend session through an injected app (the backend needs routeFakeLogin). */
export function fakeLogIn(app: FastifyInstance, session: BackendSession): Promise<Record<string, string>> {
  return logInInject(app, { account: fakeAccount(session), password: FAKE_PASSWORD });
}

/** Logs in as a fake backend session through a listening gateway (the backend needs routeFakeLogin). */
export function fakeLogInOver(baseUrl: string, session: BackendSession): Promise<string> {
  return logInOver(baseUrl, { account: fakeAccount(session), password: FAKE_PASSWORD });
}
