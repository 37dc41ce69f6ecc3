import type { SandboxStore } from '../store/sandbox-store.js';
import type { SuggestionRecord } from '../store/records.js';
import { iso } from '../lib/time.js';
import type { ShikuHandler } from './handler.js';
import { ROLE, roleOf } from './sessions.js';
import {
  InternalError,
  TEXT,
  type Row,
  failure,
  message,
  objectId,
  pageOf,
  pageResult,
  pageVo,
  parseObjectId,
  seconds,
  success,
} from './wire.js';

/**
 * Two console pages beyond the contract's first screens (docs/dialects/shiku-im.md §5):
 * - 举报管理 (complaint.html): AC `beReport` (line 2146) over UserManagerImpl.getReport (line 1382),
 *   AC `deleteReport` (line 2189). The sandbox's suggestions are its reports: each is a user's report
 *   of another user (`roomId` ""), its reason an id of KConstants.ReportReason's user reasons.
 * - 自定网站 (friendsterWebsite.html): AC `friendsterWebsiteList`, `addFriendsterWebsite`,
 *   `deleteFriendsterWebsite` (lines 3645-3700) over FriendsterWebsiteManagerImpl, on the
 *   sandbox's discover entries.
 */

type Map = (path: string, handler: ShikuHandler, methods?: readonly ('GET' | 'POST')[]) => void;

/** KConstants.ReportReason.reasonMap, the reasons a user report carries (100-150). */
export const USER_REPORT_REASONS: Readonly<Record<number, string>> = {
  100: '发布不适当内容对我造成骚扰',
  101: '发布色情内容对我造成骚扰',
  102: '发布违法违禁内容对我造成骚扰',
  103: '发布赌博内容对我造成骚扰',
  104: '发布政治造谣内容对我造成骚扰',
  105: '发布暴恐血腥内容对我造成骚扰',
  106: '发布其他违规内容对我造成骚扰',
  120: '存在欺诈骗钱行为',
  130: '此账号可能被盗用了',
  140: '存在侵权行为',
  150: '发布仿冒品信息',
};
const REASON_IDS = Object.keys(USER_REPORT_REASONS).map(Number);

/** The reason a stored suggestion reads as, and the user it reports (another user, stable per record). */
export function reportOf(store: SandboxStore, s: SuggestionRecord): { reason: number; toUserId: number } {
  const ids = store.users.all().map((u) => u.id);
  const at = Math.max(0, ids.indexOf(s.userId));
  const other = ids[(at + 1 + (s.id % 7)) % ids.length] ?? s.userId;
  return { reason: REASON_IDS[s.id % REASON_IDS.length]!, toUserId: other };
}

/** Report.java as getReport fills it for a user report: the @NotSaved names, reason text and status. */
export function shikuReport(store: SandboxStore, s: SuggestionRecord): Row {
  const { reason, toUserId } = reportOf(store, s);
  const reported = store.users.get(toUserId);
  return {
    id: objectId('report', s.id, s.createTime),
    userId: s.userId,
    toUserId,
    roomId: '',
    reason,
    time: seconds(s.createTime),
    status: 1,
    // getUser of a gone user is null: its status reads -1.
    toUserStatus: reported ? (reported.status === 'banned' ? -1 : 1) : -1,
    info: USER_REPORT_REASONS[reason],
    userName: store.users.get(s.userId)?.nickname,
    toUserName: reported?.nickname,
  };
}

export function registerReports(map: Map, store: SandboxStore, seededAt: number): void {
  const editor = (admin: Parameters<typeof roleOf>[0] | null) =>
    admin !== null && [ROLE.superAdmin, ROLE.admin].includes(roleOf(admin) as 5 | 6);

  // beReport: type 0 user reports (toUserId ≠ 0, roomId ""), 1 room reports, 2 web pages; sender
  // and receiver narrow them; newest first; 0-based pageIndex, pageSize 25 by default; answered
  // as success(null, PageVO(list, count, pageIndex, pageSize, count)). No role check.
  map('/console/beReport', ({ params, now }) => {
    const type = params.int('type', 0);
    const sender = params.int('sender', 0);
    const receiver = params.str('receiver');
    const pageIndex = params.int('pageIndex', 0);
    const pageSize = params.int('pageSize', 25);
    // Any other type leaves getReport's data null, which its ConcurrentMap refuses: the
    // NullPointerException reaches beReport's catch, failure(e.getMessage()) with no message.
    if (type < 0 || type > 2) return message(0, now);
    const rows =
      type !== 0
        ? [] // The sandbox seeds user reports only.
        : store.suggestions
            .all()
            .filter((s) => sender === 0 || s.userId === sender)
            .filter((s) => receiver === '' || reportOf(store, s).toUserId === Number(receiver))
            .sort((a, b) => (a.createTime < b.createTime ? 1 : a.createTime > b.createTime ? -1 : b.id - a.id));
    const skip = pageSize * pageIndex;
    // A negative offset fails inside getReport's try and leaves data null: the same bare failure.
    if (skip < 0) return message(0, now);
    const slice = pageSize === 0 ? rows.slice(skip) : rows.slice(skip, skip + Math.abs(pageSize));
    return message(
      1,
      now,
      null,
      pageVo(
        slice.map((s) => shikuReport(store, s)),
        rows.length,
        pageIndex,
        pageSize,
        rows.length,
      ),
    );
  });

  // deleteReport: `id` required; super admin or admin; removes by _id (an unknown one removes nothing).
  map('/console/deleteReport', ({ params, admin, now }) => {
    const text = params.requiredStr('id');
    if (!editor(admin)) return failure(now, TEXT.noPermission);
    // parse(""): null, a query matching nothing; anything else not 24 hex throws (uncaught: 1020101).
    const id = text === '' ? null : parseObjectId('report', text);
    if (id !== null && store.suggestions.get(id)) store.suggestions.remove([id]);
    return success(now);
  });

  // FriendsterWebsite.time is set by saveFriendsterWebsite (milliseconds); the seeded entries read
  // as saved before the sandbox started, a minute apart per step of their order (the first newest).
  const times = new globalThis.Map<number, number>();
  const timeOf = (id: number, sort: number | null | undefined) =>
    times.get(id) ?? seededAt - 3_600_000 - (sort ?? 0) * 60_000;
  const website = (d: ReturnType<typeof store.discover.all>[number]): Row => {
    const time = timeOf(d.id, d.sort);
    return { id: objectId('website', d.id, iso(time)), icon: d.icon, url: d.url, title: d.title, time };
  };

  // queryFriendsterWebsiteList: newest first, pageFindOption(page, limit, 1); page 0 by default,
  // so a call without one skips -limit and fails uncaught (1020101). No role check.
  map('/console/friendsterWebsiteList', ({ params, now }) => {
    const page = params.int('page', 0);
    const limit = params.int('limit', 10);
    const rows = [...store.discover.all()].sort((a, b) => timeOf(b.id, b.sort) - timeOf(a.id, a.sort));
    return pageResult(now, pageOf(rows, page, limit).map(website), rows.length);
  });

  // addFriendsterWebsite: icon, title and url all required (checked before the role), then super
  // admin or admin; a new id and time; success() without data.
  map('/console/addFriendsterWebsite', ({ params, admin, now }) => {
    const [icon, title, url] = ['icon', 'title', 'url'].map((k) => params.values.get(k) ?? '');
    if ([icon, title, url].some((v) => v!.trim() === '')) return failure(now, '请补全信息再提交');
    if (!editor(admin)) return failure(now, TEXT.noPermission);
    const created = store.discover.insert({ icon: icon!, title: title!, url: url!, enabled: true, sort: 0 });
    times.set(created.id, now);
    return success(now);
  });

  // deleteFriendsterWebsite: id defaults to ""; the role first, then new ObjectId(id), whose
  // exception is caught and answered as failure(e.getMessage()).
  map('/console/deleteFriendsterWebsite', ({ params, admin, now }) => {
    if (!editor(admin)) return failure(now, TEXT.noPermission);
    const text = params.str('id');
    let id: number | null;
    try {
      id = parseObjectId('website', text);
    } catch (error) {
      if (error instanceof InternalError) return failure(now, error.message);
      throw error;
    }
    if (id !== null && store.discover.get(id)) {
      store.discover.remove([id]);
      times.delete(id);
    }
    return success(now);
  });
}
