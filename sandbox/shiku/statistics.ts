import type { SandboxStore } from '../store/sandbox-store.js';
import { DAY, startOfDay } from '../lib/time.js';
import { dailyStatistics } from '../store/statistics.js';
import type { ShikuHandler } from './handler.js';
import { shikuUser } from './records.js';
import { InternalError, type Params, type Row, failure, pageVo, seconds, success } from './wire.js';

/**
 * The dashboard's statistics calls (AC lines 903, 1978–2146). Shiku answers each with a Mongo
 * mapReduce over one collection: `data` is a list of one-key objects `{"<bucket>": count}` in key
 * order, the bucket written in the server's time (China) as the map function writes it.
 */

type Map = (path: string, handler: ShikuHandler, methods?: readonly ('GET' | 'POST')[]) => void;

/** The server's zone: Shiku runs in China time, and its dates and buckets are read in it. */
const CHINA_MS = 8 * 3_600_000;
/** Friendships the sandbox does not store: each user made a dozen, on registering (as countNum says). */
const FRIENDS_PER_USER = 12;

const pad = (n: number) => String(n).padStart(2, '0');

/** China-time wall clock of an epoch second. */
function wall(second: number): Date {
  return new Date(second * 1000 + CHINA_MS);
}

/** The map function's key for timeUnit 1 month, 2 day, 3 hour (`"…  HH : 00"`), 4 minute (`"…  HH:mm"`). */
function bucket(second: number, unit: number): string {
  const d = wall(second);
  const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  if (unit === 1) return day.slice(0, 7);
  if (unit === 2) return day;
  if (unit === 3) return `${day}  ${pad(d.getUTCHours())} : 00`;
  return `${day}  ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/**
 * DateUtil.toDate: `yyyy-MM-dd HH:mm:ss`, `yyyy-MM-dd` or `yyyy-MM` ("/" read as "-"), China time;
 * anything else is a RuntimeException, which the handlers do not catch (1020101).
 */
function toSecond(text: string): number {
  const m = /^(\d{4})-(\d{1,2})(?:-(\d{1,2})(?: (\d{1,2}):(\d{1,2}):(\d{1,2}))?)?/.exec(text.replaceAll('/', '-'));
  if (!m) throw new InternalError('java.lang.RuntimeException: 未知的日期格式化字符串');
  const [, y, mo, d = '1', h = '0', mi = '0', s = '0'] = m;
  return (Date.UTC(+y!, +mo! - 1, +d, +h, +mi, +s) - CHINA_MS) / 1000;
}

interface Range {
  unit: number;
  from: number;
  to: number;
}

/**
 * `timeUnit` (short, default 2) and the range: an empty startDate is a year ago at midnight (a month
 * for hours, today for minutes), an empty endDate now; the end date's own day is not included.
 */
function rangeOf(params: Params, now: number): Range {
  const unit = params.int('timeUnit', 2);
  if (unit < -32768 || unit > 32767)
    throw new InternalError(`Value out of range. Value:"${params.str('timeUnit')}" Radix:10`);
  const today = startOfDay(now + CHINA_MS) - CHINA_MS;
  const wallNow = wall(Math.floor(now / 1000));
  const monthsBack = unit === 3 ? 1 : 12;
  const back = new Date(Date.UTC(wallNow.getUTCFullYear(), wallNow.getUTCMonth() - monthsBack, wallNow.getUTCDate()));
  const defaultFrom = unit === 4 ? today / 1000 : (back.getTime() - CHINA_MS) / 1000;
  const start = params.str('startDate').trim();
  const end = params.str('endDate').trim();
  return {
    unit,
    from: start === '' ? defaultFrom : toSecond(start),
    to: end === '' ? Math.floor(now / 1000) : toSecond(end),
  };
}

/**
 * The mapReduce: rows with a time in the range counted (or summed) per bucket, keys in order. A
 * timeUnit outside 1–4 leaves the map function's key undefined, the command fails, and the handler
 * answers `data: 0`.
 */
function reduce(samples: { second: number; value: number }[], range: Range, inclusiveStart = false): Row {
  const hits = samples.filter(
    (s) => (inclusiveStart ? s.second >= range.from : s.second > range.from) && s.second < range.to,
  );
  if (hits.length > 0 && (range.unit < 1 || range.unit > 4)) return { data: 0 };
  const sums = new Map<string, number>();
  for (const s of hits) {
    const key = bucket(s.second, range.unit);
    sums.set(key, (sums.get(key) ?? 0) + s.value);
  }
  return { data: [...sums.keys()].sort().map((key) => ({ [key]: sums.get(key) })) };
}

/**
 * The store's figures kept per day only (messages, active users), one sample each at the first
 * second of the day they are filed under, so month and day buckets add up and hour and minute
 * buckets, which need finer samples, find none outside a day's first minute.
 */
function dailySamples(
  store: SandboxStore,
  range: Range,
  now: number,
  field: 'messages' | 'activeUsers',
): { second: number; value: number }[] {
  const first = startOfDay(Math.max(range.from * 1000, now - 2 * 366 * DAY));
  const last = startOfDay(Math.min(range.to * 1000, now));
  if (last < first) return [];
  return dailyStatistics(store, first, last, now).list.map((row) => ({
    second: (Date.parse(`${row.date}T00:00:00Z`) - CHINA_MS) / 1000 + 1,
    value: Number(row[field] ?? 0),
  }));
}

export function registerStatistics(map: Map, store: SandboxStore): void {
  const answer = (now: number, out: Row) => success(now, out.data);

  // UserManagerImpl.getUserRegisterCount: users by createTime.
  map('/console/getUserRegisterCount', ({ params, now }) => {
    const range = rangeOf(params, now);
    return answer(
      now,
      reduce(
        store.users.all().map((u) => ({ second: seconds(u.registerTime) ?? 0, value: 1 })),
        range,
      ),
    );
  });

  // TigaseManagerImpl.getChatMsgCount: one-to-one messages by timeSend. The sandbox keeps the day's
  // message volume only, so every day's figure is counted here.
  map('/console/chatMsgCount', ({ params, now }) => {
    const range = rangeOf(params, now);
    if (range.unit === 3 || range.unit === 4) return success(now, []);
    return answer(now, reduce(dailySamples(store, range, now, 'messages'), range));
  });

  // TigaseManagerImpl.getGroupMsgCount: `roomId` (the room's jid) required; a room whose message
  // collection is empty is the ServiceException "暂无数据", and the sandbox stores no group messages.
  map('/console/groupMsgCount', ({ params, now }) => {
    params.requiredStr('roomId');
    rangeOf(params, now);
    return failure(now, '暂无数据');
  });

  // FriendsManagerImpl.getAddFriendsCount: friendships by createTime (the sandbox's dozen per user,
  // made when the user registered).
  map('/console/addFriendsCount', ({ params, now }) => {
    const range = rangeOf(params, now);
    return answer(
      now,
      reduce(
        store.users.all().map((u) => ({ second: seconds(u.registerTime) ?? 0, value: FRIENDS_PER_USER })),
        range,
      ),
    );
  });

  // RoomManagerImplForIM.addRoomsCount: rooms by createTime (dissolved ones included: the store keeps them).
  map('/console/addRoomsCount', ({ params, now }) => {
    const range = rangeOf(params, now);
    return answer(
      now,
      reduce(
        store.groups.all().map((g) => ({ second: seconds(g.createTime) ?? 0, value: 1 })),
        range,
      ),
    );
  });

  // UserManagerImpl.userOnlineStatusCount: UserStatusCount samples, the day samples (type 3) for
  // months and days, summed; the sandbox has a day's active users and no hour or minute samples.
  map('/console/getUserStatusCount', ({ params, now }) => {
    const range = rangeOf(params, now);
    if (range.unit === 3 || range.unit === 4) return success(now, []);
    return answer(now, reduce(dailySamples(store, range, now, 'activeUsers'), range, true));
  });

  // AC newRegisterUser: the newest users as a PageVO, 0-based pageIndex; no role check.
  map('/console/newRegisterUser', ({ params, now }) => {
    const pageIndex = params.int('pageIndex', 0);
    const pageSize = params.int('pageSize', 10);
    // PageVO divides the total by pageSize.
    if (pageSize === 0) throw new InternalError('java.lang.ArithmeticException: / by zero');
    const skip = pageIndex * pageSize;
    if (skip < 0) throw new InternalError(`skip value must be non-negative, but received: ${skip}`);
    const rows = [...store.users.all()].sort((a, b) =>
      a.registerTime < b.registerTime ? 1 : a.registerTime > b.registerTime ? -1 : 0,
    );
    const page = rows.slice(skip, skip + Math.abs(pageSize)).map(shikuUser);
    return success(now, pageVo(page, rows.length, pageIndex, pageSize));
  });
}
