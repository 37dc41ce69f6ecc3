import { argsError, mongoError } from './envelope.js';
import { keywordMatcher, listOrNull, pageOf, type OpenImBody } from './request.js';
import type { OpenImRoute } from './call.js';
import { publicInfo } from './site.js';
import type { OpenImState } from './state.js';

/**
 * User–IP login limits (`/forbidden/user/*`: `internal/rpc/admin/user_ip_limit_login.go`,
 * `model/admin/limit_user_login_ip.go`): pairs of a user id and an IP. The store has no such
 * table (its IP blacklist is per IP), so the pairs live in the dialect's state.
 */

type Row = Record<string, unknown>;

interface UserIPLimit {
  userID: string;
  ip: string;
  createTime: number;
}

const limits = new WeakMap<OpenImState, UserIPLimit[]>();

function limitsOf(state: OpenImState): UserIPLimit[] {
  let list = limits.get(state);
  if (!list) limits.set(state, (list = []));
  return list;
}

/** `{limits: [{userID, ip}]}`: absent, or empty (nil after the gRPC hop) → 1001 "limits is empty". */
function pairs(body: OpenImBody): { userID: string; ip: string }[] {
  const items = body.list('limits');
  if (items === null || items.length === 0) throw argsError('limits is empty');
  return items.map((item) => ({ userID: item.str('userID'), ip: item.str('ip') }));
}

/**
 * `/forbidden/user/search`: the keyword is a regex over the user id or the IP (always applied, so
 * an empty one matches all); `user` is the user's public record, `null` for an unknown id.
 */
function searchLimits(state: OpenImState, body: OpenImBody): Row {
  const pagination = body.pagination();
  const match = keywordMatcher(body.str('keyword'));
  const page = pageOf(
    limitsOf(state).filter((row) => match(row.userID) || match(row.ip)),
    pagination,
  );
  return {
    total: page.total,
    limits: listOrNull(
      page.list.map((row) => ({
        userID: row.userID,
        ip: row.ip,
        createTime: row.createTime,
        user: publicInfo(state, row.userID),
      })),
    ),
  };
}

/**
 * `/forbidden/user/add`: nothing is checked (an empty user id or IP is stored); a pair already
 * there breaks the unique (user_id, ip) index. The insert is ordered, so the pairs before the
 * duplicate stay stored.
 */
function addLimits(state: OpenImState, body: OpenImBody, now: number): undefined {
  const list = limitsOf(state);
  for (const { userID, ip } of pairs(body)) {
    if (list.some((row) => row.userID === userID && row.ip === ip)) {
      throw mongoError(
        `E11000 duplicate key error collection: openim_enterprise.limit_user_login_ip index: user_id_1_ip_1 dup key: { user_id: "${userID}", ip: "${ip}" }`,
      );
    }
    list.push({ userID, ip, createTime: now });
  }
  return undefined;
}

/** `/forbidden/user/del`: each pair needs both parts (else 1001); pairs not stored are ignored. */
function delLimits(state: OpenImState, body: OpenImBody): undefined {
  const doomed = pairs(body);
  if (doomed.some((pair) => pair.userID === '' || pair.ip === '')) throw argsError('user_id or ip is empty');
  const list = limitsOf(state);
  const kept = list.filter((row) => !doomed.some((pair) => pair.userID === row.userID && pair.ip === row.ip));
  list.splice(0, list.length, ...kept);
  return undefined;
}

export function userLimitRoutes(): OpenImRoute[] {
  return [
    { path: '/forbidden/user/add', guard: 'admin', handle: ({ state, body, now }) => addLimits(state, body, now) },
    { path: '/forbidden/user/del', guard: 'admin', handle: ({ state, body }) => delLimits(state, body) },
    { path: '/forbidden/user/search', guard: 'admin', handle: ({ state, body }) => searchLimits(state, body) },
  ];
}
