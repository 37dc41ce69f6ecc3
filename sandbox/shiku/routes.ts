import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxStore } from '../store/sandbox-store.js';
import { verifyTotp } from '../lib/totp.js';
import { registerConsole } from './console.js';
import { type RouteTable, mapping, setShikuAdmin, unknownPath } from './handler.js';
import { ShikuClientConfig, ShikuConfig } from './config.js';
import { registerAdmins } from './admins.js';
import { registerApiLog } from './api-log.js';
import { registerMoney } from './money.js';
import { ShikuRooms, registerRooms } from './rooms.js';
import { registerReports } from './reports.js';
import { registerStatistics } from './statistics.js';
import { registerUsers } from './users.js';
import { LOGIN_ROLES, ShikuPasswords, ShikuSessions, roleOf } from './sessions.js';
import { RESULT, TEXT, type Row, failure, md5hex, parameters, success } from './wire.js';

/**
 * SANDBOX_DIALECT=shiku: the sandbox's data served the way Shiku IM's console API serves it
 * (docs/dialects/shiku-im.md; rules and sources in README.md beside this file). It reads and writes
 * the same store as the contract's routes, which answer from outside as Shiku answers a path it
 * does not know.
 */

/** im.appConfig.apiKey as shipped (application.properties). */
export const SHIKU_API_KEY = 'mihuanim';
/** AuthServiceUtils.authRequestTime: ±180 s (exclusive). */
const TIME_WINDOW_S = 180;

/** The filter's own refusals: its template has no currentTime (AuthorizationFilter.renderByErrorKey/renderByError). */
function refuse(reply: FastifyReply, resultCode: number, resultMsg: string): FastifyReply {
  return reply
    .code(200)
    .header('content-type', 'application/json; charset=UTF-8')
    .header('access-control-allow-origin', '*')
    .send({ resultCode, resultMsg });
}

function formBody(text: string): Row {
  const out: Row = {};
  for (const [key, value] of new URLSearchParams(text)) if (!(key in out)) out[key] = value;
  return out;
}

export function registerShikuDialect(app: FastifyInstance, store: SandboxStore, clock: () => number): void {
  const sessions = new ShikuSessions(clock);
  const passwords = new ShikuPasswords(store, clock());
  const config = new ShikuConfig(store);
  const routes: RouteTable = new Map();

  // The console posts application/x-www-form-urlencoded; Shiku never reads a JSON body.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, formBody(String(body))),
  );

  const isConsole = (path: string) => ['/console', '/mp', '/open', '/pages'].some((prefix) => path.startsWith(prefix));

  // Outside the console: the paths Shiku leaves open, else the app API's token check. The sandbox
  // has no chat-app sessions, so any token there is unknown. Decided before the contract's guard.
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (isConsole(path)) return;
    if (path === '/favicon.ico') return reply.code(200).send('');
    const open =
      path.startsWith('/config') ||
      path.startsWith('/getCurrentTime') ||
      path === '/getImgCode' ||
      path.startsWith('/job');
    if (open) return routes.has(path) ? undefined : unknownPath(reply, path, clock());
    const token = (request.query as Row | undefined)?.access_token;
    if (typeof token !== 'string' || token === '') return refuse(reply, RESULT.missingToken, TEXT.missingToken);
    return refuse(reply, RESULT.badToken, TEXT.badToken);
  });

  // AuthorizationFilter.checkAdminRequest, once the form is parsed (it reads getParameter).
  app.addHook('preHandler', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (!isConsole(path) || path.startsWith('/console/login') || path.startsWith('/pages')) return;
    const params = parameters(request);
    const token = params.get('access_token') ?? '';
    if (token === '') return refuse(reply, RESULT.missingToken, TEXT.missingToken);
    const accountId = sessions.accountOf(token);
    const account = accountId === null ? undefined : store.accounts.get(accountId);
    if (!account) return refuse(reply, RESULT.badToken, TEXT.badToken);
    if (config.values.isAuthApi !== 0) {
      // NumberUtils.toLong(time, 0): anything not a number is 0, which is never within the window.
      const rawTime = params.get('time') ?? '';
      const time = /^[-+]?\d+$/.test(rawTime) ? Number(rawTime) : 0;
      const skew = Math.floor(clock() / 1000) - time;
      const secret = params.get('secret') ?? '';
      const expected = md5hex(`${SHIKU_API_KEY}${time}${account.userId}${token}`);
      if (!(skew < TIME_WINDOW_S && skew > -TIME_WINDOW_S) || secret === '' || secret !== expected) {
        return refuse(reply, RESULT.failure, TEXT.badSignature);
      }
    }
    setShikuAdmin(request, account);
  });

  const map = (path: string, handler: Parameters<typeof mapping>[4], methods?: readonly ('GET' | 'POST')[]) =>
    mapping(app, routes, clock, path, handler, methods);

  map('/getCurrentTime', ({ now }) => success(now, now));
  const readConfig: Parameters<typeof mapping>[4] = ({ now }) => success(now, config.read());
  map('/config', readConfig);
  map('/console/config', readConfig);
  map(
    '/console/config/set',
    ({ params, admin, now }) => {
      if (roleOf(admin!) !== 6) return failure(now, TEXT.noPermission);
      config.write(params);
      store.logOperation(
        {
          adminAccount: admin!.account,
          action: 'config',
          module: 'siteFunctions',
          detail: 'config/set',
          ip: '127.0.0.1',
        },
        now,
      );
      return success(now);
    },
    ['POST'],
  );

  // GET opens the login page; POST is AdminController.login: the checks in its order (user, role,
  // status, Google code, password).
  map('/console/login', ({ request, reply, now, params: bound }) => {
    if (request.method === 'GET') {
      reply.code(302).header('location', '/pages/console/login.html').send();
      return null;
    }
    const params = bound.values;
    const rawCode = params.get('googlecode');
    // @RequestParam int googlecode (AC line 641): absent → 1010101; empty or not a number → Spring's
    // conversion fails before the method runs, and ExceptionHandlerAdvice answers 1020101.
    if (rawCode === undefined) return { resultCode: RESULT.badParameter, resultMsg: TEXT.badParameter, detailMsg: '' };
    if (!/^[-+]?\d+$/.test(rawCode.trim())) {
      return {
        resultCode: RESULT.internal,
        resultMsg: TEXT.internal,
        detailMsg: `Failed to convert value of type 'java.lang.String' to required type 'int'; For input string: "${rawCode}"`,
      };
    }
    const account = params.get('account') ?? '';
    const areaCode = params.get('areaCode') || '86';
    // The admin is found by telephone = areaCode + account; ours are stored as "86" + their account.
    const admin = areaCode === '86' ? store.accounts.find((a) => a.account === account) : undefined;
    if (!admin) return failure(now, '账号不存在');
    const role = roleOf(admin);
    if (!LOGIN_ROLES.has(role)) return failure(now, TEXT.noPermission);
    if (admin.status !== 'enabled') return failure(now, '您的账号已被禁用');
    // AC lines 664-685: a bound secret needs its code; an unbound account is refused, but for
    // account "1000" (and the README's built-in accounts, which stand in for it here: see README).
    if (admin.googleBound && admin.googleSecret) {
      // GoogleAuthenticator.authorize(secret, int): the int loses leading zeros, so compare as numbers.
      const code = Number(rawCode.trim());
      if (code < 0 || !verifyTotp(admin.googleSecret, String(code).padStart(6, '0'), now))
        return failure(now, '谷歌验证失败');
    } else if (!admin.builtIn) {
      return failure(now, TEXT.bindGoogle);
    }
    if (!passwords.matches(admin, params.get('password') ?? '')) return failure(now, '帐号或密码错误！');
    const token = sessions.open(admin);
    admin.lastLoginTime = new Date(now).toISOString();
    admin.lastLoginIp = request.ip;
    store.logOperation(
      { adminAccount: admin.account, action: 'login', module: 'auth', detail: 'Signed in (shiku)', ip: request.ip },
      now,
    );
    return success(now, {
      access_Token: token,
      adminId: `86${admin.account}`,
      account: admin.userId,
      apiKey: SHIKU_API_KEY,
      role: String(role),
      nickname: admin.nickname,
      registerInviteCode: config.read().registerInviteCode,
    });
  });

  map('/console/logout', ({ admin, reply }) => {
    sessions.close(admin!.id);
    reply.code(302).header('location', '/console/login').send();
    return null;
  });

  // AC getClientConfig / setClientConfig: reading has no role check, setting is super admin only and
  // answers any exception as a failure with its message.
  const clientConfig = new ShikuClientConfig(store);
  map('/console/clientConfig', ({ now }) => success(now, clientConfig.read()));
  map('/console/clientConfig/set', ({ params, admin, now }) => {
    if (roleOf(admin!) !== 6) return failure(now, TEXT.noPermission);
    clientConfig.write(params);
    store.logOperation(
      {
        adminAccount: admin!.account,
        action: 'config',
        module: 'siteFunctions',
        detail: 'clientConfig/set',
        ip: '127.0.0.1',
      },
      now,
    );
    return success(now);
  });

  const rooms = new ShikuRooms();
  registerConsole(map, store, { passwords, sessions, config, rooms });
  registerStatistics(map, store);
  registerAdmins(map, store, { sessions, passwords });
  registerRooms(map, store, rooms, config);
  registerMoney(map, store);
  registerUsers(map, store);
  registerReports(map, store, clock());
  registerApiLog(app, map, routes, { store, config, sessions, clock });

  // Paths no controller maps, after the filter has passed them (unknown /console paths need a valid call).
  const unknown = async (request: FastifyRequest, reply: FastifyReply) =>
    unknownPath(reply, request.url.split('?')[0]!, clock());
  for (const prefix of ['/console/*', '/mp/*', '/open/*', '/pages/*']) app.all(prefix, unknown);
}
