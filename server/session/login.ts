import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CALLS, GATEWAY_PATHS, SUCCESS_CODE, type LoginAnswer, type LoginThrottled } from '../contract/index.js';
import { GatewayError } from '../errors.js';
import { mapLogin } from '../backend-map/map-login.js';
import type { PrimaryChannel } from '../cluster/ipc.js';
import { backendRequestHeaders } from '../lib/forwarded.js';
import { IpcAttemptCounter } from './cluster.js';
import { LoginThrottle, MemoryAttemptCounter, THROTTLE_WINDOW_MS, type AttemptCounter } from './login-throttle.js';
import { COOKIE_VALUE, type Session } from './plugin.js';
import { RedisAttemptCounter } from './redis-store.js';
import type { ConsoleLogin, LoginOutcome } from '../backend-map/auth.js';

export interface LoginPluginOptions {
  /** In a cluster worker: the primary, which keeps the failed-login counts of every worker. */
  primary?: PrimaryChannel | null;
  /** Clock of the throttle, for tests. */
  now?: () => number;
  /** Where failed logins are counted; default: in memory, or the primary's counters in a cluster worker. */
  attempts?: AttemptCounter;
}

/** One address guessing across many accounts is capped too, well above one person's typos. */
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 30;
/** How long logout waits for BACKEND_LOGOUT_PATH before answering anyway. */
const BACKEND_LOGOUT_TIMEOUT_MS = 5_000;

const loginBodySchema = {
  type: 'object',
  required: ['account', 'password'],
  properties: {
    account: { type: 'string', maxLength: 256 },
    password: { type: 'string', maxLength: 1024 },
    code: { type: 'string', maxLength: 64 },
  },
} as const;

const envelopeSchema = {
  type: 'object',
  required: ['code'],
  properties: { code: { type: 'number' }, msg: { type: 'string' } },
  additionalProperties: true,
} as const;

/**
 * Logging in and out. The login is the one backend call the gateway makes on the browser's
 * behalf before there is a session: it is throttled per account and client address, and its
 * token becomes the sealed session cookie instead of reaching the browser. Logout revokes the
 * session everywhere and tells the backend when it has a logout call.
 */
export default fp<LoginPluginOptions>(
  async (app, options) => {
    const now = options.now ?? Date.now;
    const channel = options.primary ?? null;
    const own = (): AttemptCounter => (channel ? new IpcAttemptCounter(channel) : new MemoryAttemptCounter());
    const counter = options.attempts ?? (app.redis ? new RedisAttemptCounter(app.redis, own()) : own());
    app.addHook('onClose', async () => {
      await counter.close();
    });
    const throttle = new LoginThrottle({
      counter,
      perAccount: app.config.loginMaxFailures,
      perAddress: LOGIN_MAX_FAILURES_PER_ADDRESS,
      windowMs: THROTTLE_WINDOW_MS,
      now,
    });

    /**
     * Tells the backend a session is over (BACKEND_LOGOUT_PATH), when it has such a call. Never
     * throws: the gateway already refuses the session, and the backend's copy expires on its own.
     */
    const tellBackend = async (request: FastifyRequest, ended: Session): Promise<void> => {
      // A map's `console.calls.logout` binds the call (its path starting from BACKEND_LOGOUT_PATH),
      // or marks it unsupported: the gateway's own session ends all the same. The backend map
      // plugin registers after this one, so it is looked up when a logout happens.
      const map = app.hasDecorator('backendMap') ? app.backendMap : null;
      const prepared = map?.namesOwn('logout') ? map.prepareOwn('logout', 'POST', {}) : null;
      if (prepared && 'unsupported' in prepared) return;
      const logoutPath = prepared ? prepared.request.path.split('?')[0]! : app.config.backendLogoutPath;
      if (!logoutPath) return;
      const options = {
        headers: backendRequestHeaders(request),
        timeoutMs: Math.min(app.config.upstreamTimeoutMs, BACKEND_LOGOUT_TIMEOUT_MS),
      };
      try {
        const code = prepared
          ? (await app.sendMapped(prepared, { session: ended, ...options })).body.code
          : (await app.upstream.call(logoutPath, { method: 'POST', session: ended, body: {}, ...options })).code;
        if (code !== SUCCESS_CODE) request.log.warn({ path: logoutPath, code }, 'the backend refused the logout call');
      } catch (error) {
        request.log.warn(
          { path: logoutPath, reason: error instanceof Error ? error.message : String(error) },
          'the backend logout call failed',
        );
      }
    };
    /** The backend map's login (auth.login): the backend's own call, its answer read the map's way. */
    const backendLogin = async (request: FastifyRequest, form: ConsoleLogin): Promise<LoginOutcome> => {
      const forwarded = backendRequestHeaders(request);
      return mapLogin(
        app.upstream.options.auth!,
        form,
        (path, init) => app.upstream.request(path, { ...init, headers: { ...forwarded, ...init.headers } }),
        app.decodeAnswer,
      );
    };
    const endSessionAfterFailure = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const ended = await app.sessions.end(request, reply);
      if (!ended) return;
      request.log.info({ userId: ended.userId }, 'a failed login ended the session the browser still had');
      await tellBackend(request, ended);
    };

    app.post<{ Body: { account: string; password: string; code?: string } }>(
      CALLS.login,
      { schema: { body: loginBodySchema, response: { 200: envelopeSchema } } },
      async (request, reply) => {
        const body = {
          account: request.body.account.trim(),
          password: request.body.password,
          code: (request.body.code ?? '').trim(),
        };
        const verdict = await throttle.begin(body.account, request.ip);
        if (!verdict.allowed) {
          const retryAfterSeconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
          reply.header('retry-after', String(retryAfterSeconds));
          request.log.warn({ clientAddress: request.ip, retryAfterSeconds }, 'login throttled after repeated failures');
          const data: LoginThrottled = { retryAfterSeconds };
          throw new GatewayError('RATE_LIMITED', `too many failed logins; try again in ${retryAfterSeconds} s`, {
            data,
          });
        }
        const { attempt } = verdict;
        const refused = async (): Promise<void> => {
          // Only the backend's own refusal counts against the account. It also ends the session this
          // browser had, as a logout does: clearing the cookie alone would leave a copy of it (taken
          // from this browser, or sitting in a shared one) valid after the user saw it go.
          await attempt.failed();
          if (request.session) await endSessionAfterFailure(request, reply);
          else if (request.sessionRefusal) app.sessions.clearCookies(request, reply);
        };
        const opened = async (
          token: string,
          userId: string,
          kept?: Readonly<Record<string, string>>,
        ): Promise<void> => {
          if (!COOKIE_VALUE.test(token) || !COOKIE_VALUE.test(userId)) {
            await attempt.abandoned();
            throw new GatewayError(
              'UPSTREAM_BAD_ANSWER',
              'the login answer carries a token or user id that cannot be a cookie',
            );
          }
          await attempt.succeeded();
          // A login replaces the session the browser came with: that one ends as a logout would,
          // so a copy of its cookie is worth nothing once someone else (or the same person) logs
          // in here. The backend is told only when it issued another token: some backends hand
          // the same token back on a second login, and that one is now the new session's.
          const previous = request.session ? await app.sessions.end(request, reply) : null;
          if (previous && previous.token !== token) await tellBackend(request, previous);
          app.sessions.open(request, reply, token, userId, kept, body.account);
        };

        if (app.upstream.options.auth) {
          let outcome: LoginOutcome;
          try {
            outcome = await backendLogin(request, body);
          } catch (error) {
            await attempt.abandoned();
            throw error;
          }
          if (outcome.ok) {
            const { token, userId, kept } = outcome.credentials;
            await opened(token, userId, kept);
            // The contract's answer: the token stays in the sealed cookie, kept values (an apiKey) too.
            return { code: SUCCESS_CODE, msg: 'ok', data: { userId } };
          }
          if ('unusable' in outcome) {
            await attempt.abandoned();
            throw new GatewayError('UPSTREAM_BAD_ANSWER', `the login answer: ${outcome.unusable}`);
          }
          await refused();
          // The map names the backend's "bind an authenticator first": the console says it in its own words.
          if (outcome.authenticatorNeeded)
            throw new GatewayError('AUTHENTICATOR_NEEDED', undefined, {
              data: { authenticatorNeeded: true, backendMsg: outcome.msg },
            });
          return { code: outcome.code, msg: outcome.msg };
        }

        let answer;
        try {
          answer = await app.upstream.call<LoginAnswer>(CALLS.login, {
            method: 'POST',
            body,
            headers: backendRequestHeaders(request),
          });
        } catch (error) {
          await attempt.abandoned();
          throw error;
        }
        const data = answer.data;
        if (answer.code === SUCCESS_CODE && data && typeof data.token === 'string' && data.token !== '') {
          const userId = String(data.userId ?? '');
          await opened(data.token, userId);
          const { token: _token, ...rest } = data;
          return { ...answer, data: { ...rest, userId } };
        }
        await refused();
        return answer;
      },
    );

    // Any other method on the login path would reach the backend's login through the proxy, and
    // its answer (with the token) would reach the browser.
    app.route({
      method: ['GET', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      url: CALLS.login,
      schema: {},
      handler: async (_request, reply) => {
        reply.header('allow', 'POST');
        throw new GatewayError('METHOD_NOT_ALLOWED', 'the login takes POST only');
      },
    });

    app.post(GATEWAY_PATHS.logout, { schema: {} }, async (request, reply) => {
      const ended = await app.sessions.end(request, reply);
      if (ended) {
        await tellBackend(request, ended);
        request.log.info({ userId: ended.userId }, 'logged out');
      }
      return reply.code(204).send();
    });
  },
  { name: 'login', dependencies: ['session', 'upstream'] },
);
