import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  CALLS,
  COOKIE_TOKEN,
  COOKIE_USER_ID,
  GATEWAY_PATHS,
  SESSION_NAME,
  SUCCESS_CODE,
  type LoginAnswer,
  type SessionInfo,
} from '../contract/index.js';
import { GatewayError } from '../errors.js';
import type { Session } from '../types.js';

export interface SessionPluginOptions {
  sandbox: boolean;
}

/** A cookie value we would forward as a header: printable ASCII, bounded. */
const COOKIE_VALUE = /^[\x21-\x7e]{1,1024}$/;

function readSession(request: FastifyRequest): Session | null {
  const token = request.cookies[COOKIE_TOKEN];
  const userId = request.cookies[COOKIE_USER_ID];
  if (!token || !userId || !COOKIE_VALUE.test(token) || !COOKIE_VALUE.test(userId)) return null;
  return { token, userId };
}

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
 * The session is the two httpOnly cookies and nothing else: no server-side state, so any replica
 * serves any browser. The UI never sees the token.
 */
export default fp<SessionPluginOptions>(
  async (app, options) => {
    await app.register(cookie);
    app.decorateRequest('session', null);
    app.addHook('onRequest', async (request) => {
      request.session = readSession(request);
    });

    const cookieOptions = (request: FastifyRequest) => ({
      httpOnly: true,
      sameSite: 'strict' as const,
      path: '/',
      secure: app.config.cookieSecure === 'auto' ? request.protocol === 'https' : app.config.cookieSecure,
    });

    const clearSession = (request: FastifyRequest, reply: FastifyReply) => {
      const { httpOnly, sameSite, path, secure } = cookieOptions(request);
      reply.clearCookie(COOKIE_TOKEN, { httpOnly, sameSite, path, secure });
      reply.clearCookie(COOKIE_USER_ID, { httpOnly, sameSite, path, secure });
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
        const answer = await app.upstream.call<LoginAnswer>(CALLS.login, { method: 'POST', body });
        const data = answer.data;
        if (answer.code === SUCCESS_CODE && data && typeof data.token === 'string' && data.token !== '') {
          const userId = String(data.userId ?? '');
          if (!COOKIE_VALUE.test(data.token) || !COOKIE_VALUE.test(userId)) {
            throw new GatewayError('UPSTREAM_BAD_ANSWER', 'the login answer carries a token or user id that cannot be a cookie');
          }
          reply.setCookie(COOKIE_TOKEN, data.token, cookieOptions(request));
          reply.setCookie(COOKIE_USER_ID, userId, cookieOptions(request));
          const { token: _token, ...rest } = data;
          return { ...answer, data: { ...rest, userId } };
        }
        // A refused login sets no cookie; it also ends any session this browser had.
        if (request.session) clearSession(request, reply);
        return answer;
      },
    );

    app.post(GATEWAY_PATHS.logout, { schema: {} }, async (request, reply) => {
      clearSession(request, reply);
      return reply.code(204).send();
    });

    app.get(
      GATEWAY_PATHS.session,
      {
        schema: {
          response: {
            200: {
              type: 'object',
              required: ['loggedIn', 'userId', 'name', 'sandbox'],
              properties: {
                loggedIn: { type: 'boolean' },
                userId: { type: ['string', 'null'] },
                name: { type: 'string' },
                sandbox: { type: 'boolean' },
              },
            },
          },
        },
      },
      async (request, reply): Promise<SessionInfo> => {
        reply.header('cache-control', 'no-store');
        return {
          loggedIn: request.session !== null,
          userId: request.session?.userId ?? null,
          name: SESSION_NAME,
          sandbox: options.sandbox,
        };
      },
    );
  },
  { name: 'session', dependencies: ['security'] },
);
