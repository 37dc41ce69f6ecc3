import { argsError } from './envelope.js';
import type { OpenImBody } from './request.js';
import type { OpenImRoute } from './call.js';
import type { OpenImState } from './state.js';

/**
 * The dashboard's two OpenIM figures, from the store's users and login records:
 * `/statistic/new_user_count` (answered by OpenIM Server's `/statistics/user/register`,
 * `internal/rpc/user/statistics.go` `UserRegisterCount`) and `/statistic/login_user_count`
 * (`internal/rpc/chat/statistic.go` `UserLoginCount`). Both count per UTC day, keyed
 * `YYYY-MM-DD` (Mongo's `$dateToString` `%Y-%m-%d`), over `[start, end)` in ms.
 */

type Row = Record<string, unknown>;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * A Go map as encoding/json writes it: keys sorted; an empty one comes back from the gRPC hop
 * as a nil map, which is `null`.
 */
function sortedMap(counts: Map<string, number>): Record<string, number> | null {
  if (counts.size === 0) return null;
  return Object.fromEntries([...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** `{start, end}`: ms numbers, zero when absent (then nothing falls in the range); start after end → 1001. */
function range(body: OpenImBody): { start: number; end: number } {
  const start = body.int('start');
  const end = body.int('end');
  if (start > end) throw argsError('start > end');
  return { start, end };
}

/**
 * `total` is every user ever registered, not those of the range; `date_count` is the snake_case
 * key of `apistruct.NewUserCountResp`.
 */
function newUserCount(state: OpenImState, body: OpenImBody): Row {
  const { start, end } = range(body);
  const counts = new Map<string, number>();
  for (const user of state.store.users.all()) {
    const time = Date.parse(user.registerTime);
    if (time < start || time >= end) continue;
    const day = dayOf(time);
    counts.set(day, (counts.get(day) ?? 0) + 1);
  }
  return { total: state.store.users.size, date_count: sortedMap(counts) };
}

/**
 * Distinct users who logged in, per day (`model/chat/user_login_record.go`
 * `CountRangeEverydayTotal`). `loginCount` adds the days up, so a user seen on two days counts
 * twice, and `unloginCount` is all users minus that sum: it can go negative, as in OpenIM.
 * OpenIM records only successful logins; the store's refused attempts are left out.
 */
function loginUserCount(state: OpenImState, body: OpenImBody): Row {
  const { start, end } = range(body);
  const seen = new Map<string, Set<number>>();
  for (const record of state.store.loginRecords.all()) {
    if (record.result !== 'success') continue;
    const time = Date.parse(record.time);
    if (time < start || time >= end) continue;
    const day = dayOf(time);
    const users = seen.get(day) ?? new Set<number>();
    users.add(record.userId);
    seen.set(day, users);
  }
  const counts = new Map([...seen.entries()].map(([day, users]) => [day, users.size]));
  const loginCount = [...counts.values()].reduce((sum, n) => sum + n, 0);
  return { loginCount, unloginCount: state.store.users.size - loginCount, count: sortedMap(counts) };
}

export function statisticRoutes(): OpenImRoute[] {
  return [
    { path: '/statistic/new_user_count', guard: 'admin', handle: ({ state, body }) => newUserCount(state, body) },
    { path: '/statistic/login_user_count', guard: 'admin', handle: ({ state, body }) => loginUserCount(state, body) },
  ];
}
