import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxStore } from '../store/sandbox-store.js';
import { addAdmin, adminInfo, changeAdminPassword, delAdmins, login, searchAdmins, updateSelf } from './admins.js';
import { OPENIM_CODES, OpenImError, success, type OpenImAnswer } from './envelope.js';
import { OpenImBody } from './request.js';
import { applicationRoutes } from './applications.js';
import { appletRoutes } from './applets.js';
import { defaultGroupRoutes } from './default-groups.js';
import { registerRoutes } from './register.js';
import { siteRoutes } from './site.js';
import { statisticRoutes } from './statistics.js';
import { userLimitRoutes } from './user-limits.js';
import { imServerRoutes } from './im-server.js';
import { OpenImState } from './state.js';
import { UnansweredError, type OpenImRoute } from './call.js';
import { ADMIN_USER_TYPE } from './tokens.js';
import { blockUser, findUsers, resetPassword, searchBlocked, searchUsers, unblockUsers, updateUser } from './users.js';

/**
 * SANDBOX_DIALECT=openim: the sandbox's data served the way OpenIM Chat serves it
 * (docs/dialects/openim-chat.md). OpenIM splits its calls over an admin API (port 10009) and a chat
 * API (port 10008), two listeners of one process here, sharing one state: each answers only its
 * own routes, so a client that sends a call to the wrong one finds no such path, as it would. No
 * base path; every call is a POST with a JSON body; the contract's own paths, and everything
 * OpenIM does not offer, answer as gin answers an unknown path. The handlers work on the store
 * directly: OpenIM's rules (md5 passwords, several live tokens, levels, unescaped regex search)
 * have no counterpart in the contract's routes.
 */

/**
 * Which HTTP service: OpenIM Chat's admin API (`SetAdminRoute`) or chat API (`SetChatRoute`), or
 * OpenIM Server's API (`im`, port 10002: the groups, reached with the login's `imToken`).
 */
export type OpenImApi = 'admin' | 'chat' | 'im';

const NOT_FOUND_BODY = '404 page not found';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function send(reply: FastifyReply, answer: OpenImAnswer | string): FastifyReply {
  return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(answer));
}

/**
 * The chat API's routes the sandbox serves (`internal/api/chat/start.go` `SetChatRoute`): the
 * users' search, find and update under `mw.CheckToken` (any token), the client config without
 * one, and the application versions. Its own logins, registration and verification codes are the
 * chat app's, not an administrator's, and are not served.
 */
const CHAT_API_PATHS = new Set([
  '/user/search/full',
  '/user/find/full',
  '/user/update',
  '/client_config/get',
  '/application/latest_version',
  '/application/page_versions',
]);

/**
 * The routes of one API. The admin API serves `/client_config/get` too, behind `mw.CheckAdmin`;
 * the chat API serves it to anyone (the apps read it before login).
 */
export function openImRoutes(api: OpenImApi = 'admin'): OpenImRoute[] {
  if (api === 'im') return imServerRoutes();
  const all = allRoutes();
  if (api === 'chat') return all.filter((route) => CHAT_API_PATHS.has(route.path));
  return all
    .filter(
      (route) =>
        !CHAT_API_PATHS.has(route.path) ||
        route.path.startsWith('/application/') ||
        route.path === '/client_config/get',
    )
    .map((route) => (route.path === '/client_config/get' ? { ...route, guard: 'admin' as const } : route));
}

function allRoutes(): OpenImRoute[] {
  return [
    // Admin API: account (internal/api/admin/start.go SetAdminRoute).
    { path: '/account/login', guard: 'none', handle: ({ state, body, now }) => login(state, body, now) },
    { path: '/account/info', guard: 'admin', handle: ({ state, userID }) => adminInfo(state, userID) },
    { path: '/account/update', guard: 'admin', handle: ({ state, body, userID }) => updateSelf(state, body, userID) },
    { path: '/account/change_password', guard: 'admin', handle: ({ state, body }) => changeAdminPassword(state, body) },
    {
      path: '/account/add_admin',
      guard: 'admin',
      handle: ({ state, body, userID, now }) => addAdmin(state, body, userID, now),
    },
    { path: '/account/del_admin', guard: 'admin', handle: ({ state, body, userID }) => delAdmins(state, body, userID) },
    { path: '/account/search', guard: 'admin', handle: ({ state, body, userID }) => searchAdmins(state, body, userID) },
    // Admin API: users.
    {
      path: '/block/add',
      guard: 'admin',
      handle: ({ state, body, userID, now }) => blockUser(state, body, userID, now),
    },
    { path: '/block/del', guard: 'admin', handle: ({ state, body }) => unblockUsers(state, body) },
    { path: '/block/search', guard: 'admin', handle: ({ state, body }) => searchBlocked(state, body) },
    { path: '/user/password/reset', guard: 'admin', handle: ({ state, body }) => resetPassword(state, body) },
    // Chat API (internal/api/chat/start.go SetChatRoute): the /user group takes any valid token.
    { path: '/user/search/full', guard: 'token', handle: ({ state, body }) => searchUsers(state, body) },
    { path: '/user/find/full', guard: 'token', handle: ({ state, body }) => findUsers(state, body) },
    { path: '/user/update', guard: 'token', handle: ({ state, body }) => updateUser(state, body) },
    ...registerRoutes(),
    ...siteRoutes(),
    ...defaultGroupRoutes(),
    ...userLimitRoutes(),
    ...appletRoutes(),
    ...statisticRoutes(),
    ...applicationRoutes(),
  ];
}

/** The admin API on `app`; `registerOpenImChatApi` serves the chat API on another listener over the same state. */
export function registerOpenImDialect(app: FastifyInstance, store: SandboxStore): OpenImState {
  const state = new OpenImState(store);
  registerApi(app, state, 'admin');
  return state;
}

export function registerOpenImChatApi(app: FastifyInstance, state: OpenImState): void {
  registerApi(app, state, 'chat');
}

/** OpenIM Server's API (its group calls) on a listener of its own, over the same state. */
export function registerOpenImServerApi(app: FastifyInstance, state: OpenImState): void {
  registerApi(app, state, 'im');
}

function registerApi(app: FastifyInstance, state: OpenImState, api: OpenImApi): void {
  // OpenIM's binder reads the raw body whatever the Content-Type says.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  // tools mw/gin.go: CorsHandler, then GinParseOperationID, on every request, unknown paths included.
  app.addHook('onRequest', async (request, reply) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-allow-methods', '*');
    reply.header('access-control-allow-headers', '*');
    reply.header('access-control-allow-credentials', 'false');
    reply.header('access-control-max-age', '172800');
    if (request.method === 'OPTIONS') return send(reply, 'Options Request!');
    if (request.method === 'POST' && !header(request, 'operationID')) {
      return send(reply, new OpenImError(OPENIM_CODES.args, 'header must have operationID').answer());
    }
  });

  for (const route of openImRoutes(api)) {
    app.post(route.path, async (request, reply) => {
      let userID = '';
      try {
        if (route.guard === 'im') {
          // OpenIM Server's GinParseToken: "header must have token", then its auth RPC's ParseToken.
          const token = header(request, 'token');
          if (!token) throw new OpenImError(OPENIM_CODES.args, 'header must have token');
          userID = state.imTokens.parse(token).userID;
        } else if (route.guard !== 'none') {
          const owner = state.tokens.parse(header(request, 'token'));
          if (route.guard === 'admin' && owner.userType !== ADMIN_USER_TYPE)
            throw new OpenImError(OPENIM_CODES.args, 'token type error');
          userID = owner.userID;
        }
        const body = OpenImBody.parse(request.body);
        return send(reply, success(await route.handle({ state, body, userID, now: Date.now(), ip: request.ip })));
      } catch (error) {
        if (error instanceof OpenImError) return send(reply, error.answer());
        if (error instanceof UnansweredError) return reply.code(200).send();
        throw error;
      }
    });
  }

  app.setNotFoundHandler((_request, reply) => {
    reply.code(404).header('content-type', 'text/plain').send(NOT_FOUND_BODY);
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof OpenImError) return send(reply, error.answer());
    // A body Fastify could not take (too large, say) is the caller's: OpenIM's binder would refuse it as 1001.
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return send(reply, new OpenImError(OPENIM_CODES.args, error.message).answer());
    request.log.error({ err: error }, 'sandbox openim route failed');
    return send(reply, new OpenImError(OPENIM_CODES.internal, error.message, true).answer());
  });
}
