import type { FastifyInstance } from 'fastify';
import type { ShikuConfig } from './config.js';
import type { RouteTable, ShikuHandler } from './handler.js';
import type { ShikuSessions } from './sessions.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import { iso } from '../lib/time.js';
import { type Row, objectId, pageOf, pageResult, parameters } from './wire.js';

/**
 * Shiku's request log, the console's 接口日志 page (sysApiLog.html): SysApiLogAspect wraps every
 * controller method (`execution(* com.shiku.mianshi.controller.*.*(..))`) and, when Config
 * `isSaveRequestLogs` is 1, saves a SysApiLog {apiId: class_method, userId: ReqUtil's, time (s),
 * fullUri: the path and every parameter's first value, userAgent, clientIp, totalTime}; a call
 * that threw is answered by handleErrors and not saved. AC `ApiLogList` (line 2210) pages it
 * (AdminManagerImpl.apiLogList: `apiId` contains keyWorld, newest first, 1-based). `delApiLog`
 * (ids, or all older than 7 days) is not served: the console's operation log deletes nothing.
 *
 * Deviations: the sandbox runs with request logs on (Shiku's default is off), so the page has
 * rows; apiId names the mapping's last path segment for the Java method.
 */

type Map = (path: string, handler: ShikuHandler, methods?: readonly ('GET' | 'POST')[]) => void;

interface ApiLog {
  id: number;
  apiId: string;
  userId: number;
  time: number;
  fullUri: string;
  userAgent?: string;
  clientIp: string;
  totalTime: number;
}

function shikuApiLog(log: ApiLog): Row {
  const { id, ...rest } = log;
  return { id: objectId('apiLog', id, iso(log.time * 1000)), ...rest };
}

export function registerApiLog(
  app: FastifyInstance,
  map: Map,
  routes: RouteTable,
  deps: { store: SandboxStore; config: ShikuConfig; sessions: ShikuSessions; clock: () => number },
): void {
  const { store, config, sessions, clock } = deps;
  const logs: ApiLog[] = [];
  let nextId = 1;
  config.values.isSaveRequestLogs = 1;

  app.addHook('onResponse', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (!routes.has(path) || Number(config.values.isSaveRequestLogs) !== 1) return;
    // handleErrors answers an exception (1020101 and 1010101 here) without saving the log.
    if (reply.statusCode >= 500) return;
    const params = parameters(request);
    let fullUri = path;
    if (params.size > 0) fullUri += `?${[...params].map(([k, v]) => `${k}=${v}&`).join('')}`;
    const token = params.get('access_token');
    const accountId = token ? sessions.accountOf(token) : null;
    const account = accountId === null ? undefined : store.accounts.get(accountId);
    const now = clock();
    logs.push({
      id: nextId++,
      apiId: `com.shiku.mianshi.controller.AdminController_${path.split('/').pop()}`,
      userId: account ? Number(account.userId) || 0 : 0,
      time: Math.floor(now / 1000),
      fullUri,
      userAgent: request.headers['user-agent'],
      clientIp: request.ip,
      totalTime: Math.max(0, Math.round(reply.elapsedTime)),
    });
  });

  map('/console/ApiLogList', ({ params, now }) => {
    const keyWorld = params.str('keyWorld').toLowerCase();
    const page = params.int('page', 0);
    const limit = params.int('limit', 15);
    const rows = logs
      .filter((l) => keyWorld === '' || l.apiId.toLowerCase().includes(keyWorld))
      .sort((a, b) => b.time - a.time || b.id - a.id);
    return pageResult(now, pageOf(rows, page, limit).map(shikuApiLog), rows.length);
  });
}
