import type { SandboxStore } from '../store/sandbox-store.js';
import { DAY, iso } from '../lib/time.js';
import { HISTORY_DAYS } from '../store/seed-people.js';
import { dailyStatistics } from '../store/statistics.js';
import type { ShikuConfig } from './config.js';
import { CONSOLE_RECHARGE_DESC } from './money.js';
import type { ShikuRooms } from './rooms.js';
import type { ShikuHandler } from './handler.js';
import {
  phoneParts,
  shikuGroupPacket,
  shikuInviteCode,
  shikuKeyword,
  shikuPersonalPacket,
  shikuUser,
  shikuWithdrawal,
} from './records.js';
import { ROLE, type ShikuPasswords, type ShikuSessions, roleOf } from './sessions.js';
import {
  InternalError,
  TEXT,
  type Row,
  dayRange,
  failure,
  objectId,
  pageOf,
  pageResult,
  pageVo,
  parseObjectId,
  seconds,
  success,
  successText,
  yuan,
} from './wire.js';

/** The AdminController calls the contract's resources map to (docs/dialects/shiku-im.md §5). */

type Map = (path: string, handler: ShikuHandler, methods?: readonly ('GET' | 'POST')[]) => void;

interface Deps {
  passwords: ShikuPasswords;
  sessions: ShikuSessions;
  config: ShikuConfig;
  rooms: ShikuRooms;
}

const byNewest = <T>(rows: T[], time: (row: T) => string) =>
  rows.sort((a, b) => (time(a) < time(b) ? 1 : time(a) > time(b) ? -1 : 0));
const within = (isoText: string, range: { from: number; to: number } | null) => {
  if (!range) return true;
  const s = seconds(isoText) ?? 0;
  return s > range.from && s <= range.to;
};

export function registerConsole(map: Map, store: SandboxStore, deps: Deps): void {
  const roleOfCall = (admin: Parameters<typeof roleOf>[0] | null) => (admin ? roleOf(admin) : ROLE.tourist);
  const editor = (admin: Parameters<typeof roleOf>[0] | null) =>
    [ROLE.superAdmin, ROLE.admin].includes(roleOfCall(admin) as 5 | 6);
  const log = (
    admin: { account: string } | null,
    action: 'ban' | 'unban' | 'approve' | 'reject' | 'create' | 'delete' | 'update',
    module: string,
    detail: string,
    now: number,
  ) => store.logOperation({ adminAccount: admin?.account ?? '', action, module, detail, ip: '127.0.0.1' }, now);

  // AC countNum: no role check. Messages and friendships are not stored: messages are the seeded
  // history's daily counts summed; friendships a plausible dozen per user.
  map('/console/countNum', ({ now }) => {
    const from = Math.floor(now / DAY) * DAY - HISTORY_DAYS * DAY;
    const msgNum = dailyStatistics(store, from, Math.floor(now / DAY) * DAY, now).list.reduce(
      (sum, row) => sum + Number(row.messages ?? 0),
      0,
    );
    return success(now, {
      userNum: store.users.size,
      roomNum: store.groups.size,
      msgNum,
      friendsNum: store.users.size * 12,
    });
  });

  // AC userList: keyWorld is nickname/telephone contains, or the id equal when ≤ 9 digits; newest first.
  map('/console/userList', ({ params, now }) => {
    const page = params.int('page', 0);
    const limit = params.int('limit', 10);
    const keyWorld = params.str('keyWorld').toLowerCase();
    const online = params.str('onlinestate');
    const userType = params.optionalInt('userType');
    const range = dayRange(params);
    const asId = /^\d{1,9}$/.test(keyWorld) ? Number(keyWorld) : null;
    const rows = byNewest(
      store.users.all().filter((u) => {
        if (
          keyWorld &&
          !(
            u.nickname.toLowerCase().includes(keyWorld) ||
            phoneParts(u.phone).telephone.includes(keyWorld) ||
            u.id === asId
          )
        )
          return false;
        if (online !== '' && (u.online ? 1 : 0) !== params.int('onlinestate')) return false;
        if (userType !== null && userType !== 1) return false;
        return within(u.registerTime, range);
      }),
      (u) => u.registerTime,
    );
    return pageResult(now, pageOf(rows, page, limit).map(shikuUser), rows.length);
  });

  map('/console/getUpdateUser', ({ params, now }) => {
    const user = store.users.get(params.int('userId', 0));
    return success(now, user ? shikuUser(user) : undefined);
  });

  // AC changeStatus: super admin or admin; -1 bans (and kicks the user's token), anything else restores.
  map('/console/changeStatus', ({ params, admin, now }) => {
    if (!editor(admin)) return failure(now, TEXT.noPermission);
    const userId = params.int('userId');
    const status = params.int('status');
    const user = store.users.get(userId);
    // UserManagerImpl.changeStatus updates by query: an unknown user changes nothing and still succeeds.
    if (user) {
      if (status === -1) {
        Object.assign(user, { status: 'banned', online: false, banReason: '', banTime: iso(now) });
        store.onlineSessions.remove([user.id]);
      } else Object.assign(user, { status: 'normal', banReason: undefined, banTime: undefined });
      log(admin, status === -1 ? 'ban' : 'unban', 'users', `changeStatus #${userId}: status=${status}`, now);
    }
    return success(now);
  });

  // AC restPwd: the password becomes md5("123456"), never answered. Chat users' passwords are not
  // stored in the sandbox, so only their sessions end.
  map('/console/restPwd', ({ params, admin, now }) => {
    if (!editor(admin)) return failure(now, TEXT.noPermission);
    const user = store.users.get(params.int('userId', 0));
    if (user) {
      store.onlineSessions.remove([user.id]);
      user.online = false;
      log(admin, 'update', 'users', `restPwd #${user.id}`, now);
    }
    return success(now);
  });

  // AC deleteUser: disabled in the source, for everyone.
  map('/console/deleteUser', ({ now }) => failure(now, '权限不足,请联系技术删除'));

  // AC roomList: name contains (ignoring case), userSize > leastNumbers, newest first; no dates
  // (AC line 754 takes none). A dissolved room is gone: deleteRoom removes it (line 319).
  map('/console/roomList', ({ params, now }) => {
    const page = params.int('page', 0);
    const limit = params.int('limit', 15);
    const keyWorld = params.str('keyWorld').toLowerCase();
    const least = params.int('leastNumbers', 0);
    const rows = byNewest(
      store.groups
        .all()
        .filter(
          (g) =>
            g.status !== 'dissolved' &&
            (!keyWorld || g.name.toLowerCase().includes(keyWorld)) &&
            (least <= 0 || g.memberCount > least),
        ),
      (g) => g.createTime,
    );
    return pageResult(
      now,
      pageOf(rows, page, limit).map((g) => deps.rooms.view(g, now)),
      rows.length,
    );
  });

  map('/console/getRoomMember', ({ params, now }) => {
    const id = parseObjectId('room', params.str('roomId'));
    const group = id === null ? undefined : store.groups.get(id);
    if (!group || group.status === 'dissolved') return success(now);
    const members = (store.members.get(group.id) ?? []).flatMap((m) => {
      const user = store.users.get(m.userId);
      // Member.role: 1 owner, 2 admin, 3 member.
      return user
        ? [
            {
              userId: user.id,
              nickname: user.nickname,
              role: m.role === 'owner' ? 1 : m.role === 'admin' ? 2 : 3,
              createTime: seconds(m.joinTime),
              talkTime: m.muted ? 4_102_444_800 : 0,
            },
          ]
        : [];
    });
    return success(now, { ...deps.rooms.view(group, now), members });
  });

  // AC keywordfilter: `word` matches exactly; 0-based pageIndex; PageVO whose allPageCount is the total (sic).
  map('/console/keywordfilter', ({ params, now }) => {
    const word = params.str('word');
    const pageIndex = params.int('pageIndex', 0);
    const pageSize = params.int('pageSize', 10);
    const rows = byNewest(
      store.sensitiveWords.all().filter((w) => word === '' || w.word === word),
      (w) => w.createTime,
    );
    const skip = pageIndex * pageSize;
    if (skip < 0) throw new InternalError(`skip value must be non-negative, but received: ${skip}`);
    const slice = pageSize === 0 ? rows.slice(skip) : rows.slice(skip, skip + Math.abs(pageSize));
    return success(now, pageVo(slice.map(shikuKeyword), rows.length, pageIndex, pageSize, rows.length));
  });

  // AC addkeyword: a role other than admin/super admin gets an empty body; with an id the update has
  // no id filter, so every word is rewritten (kept: it is what the source does); then a 302.
  map(
    '/console/addkeyword',
    ({ params, admin, reply, now }) => {
      const word = params.requiredStr('word');
      if (!editor(admin)) {
        reply.code(200).send('');
        return null;
      }
      const id = params.str('id');
      if (id === '') {
        // The sandbox's words carry a category Shiku has not: a new one files under "other".
        const created = store.sensitiveWords.insert({
          word,
          category: 'other',
          createTime: iso(Math.floor(now / 1000) * 1000),
        });
        log(admin, 'create', 'sensitiveWords', `addkeyword #${created.id}: ${word}`, now);
      } else {
        for (const row of store.sensitiveWords.all())
          Object.assign(row, { word, createTime: iso(Math.floor(now / 1000) * 1000) });
        log(admin, 'update', 'sensitiveWords', `addkeyword (every word): ${word}`, now);
      }
      reply.code(302).header('location', '/console/keywordfilter').send();
      return null;
    },
    ['POST'],
  );

  map(
    '/console/deletekeyword',
    ({ params, admin, now }) => {
      const text = params.requiredStr('id');
      if (!editor(admin)) return failure(now, TEXT.noPermission);
      const id = parseObjectId('keyword', text);
      // dsForRW.delete(null) throws: an unknown id is an internal exception.
      if (id === null || !store.sensitiveWords.get(id)) throw new InternalError('Cannot delete a null entity');
      store.sensitiveWords.remove([id]);
      log(admin, 'delete', 'sensitiveWords', `deletekeyword #${id}`, now);
      return success(now);
    },
    ['POST'],
  );

  // AdminManagerImpl.inviteCodeList: code contains keyworld (or defaultfriend, sic); stored order.
  const codeExtras = new Map<number, { defaultfriend: string; desc: string }>();
  map('/console/inviteCodeList', ({ params, now }) => {
    const page = params.int('page', 0);
    const limit = params.int('limit', 10);
    const needles = [params.str('keyworld'), params.str('defaultfriend')]
      .filter((n) => n !== '')
      .map((n) => n.toLowerCase());
    const rows = store.inviteCodes
      .all()
      .filter((c) => needles.length === 0 || needles.some((n) => c.code.toLowerCase().includes(n)));
    return pageResult(
      now,
      pageOf(rows, page, limit).map((c) => shikuInviteCode(c, codeExtras.get(c.id))),
      rows.length,
    );
  });

  map('/console/create/inviteCode', ({ params, admin, now }) => {
    const code = params.requiredStr('inviteCode');
    const defaultfriend = params.requiredStr('defaultfriend');
    const desc = params.requiredStr('desc');
    // AdminManagerImpl.createInviteCode: only in Config's one-code-per-user mode (1), and a code once;
    // its ServiceExceptions come back as failures with their text.
    const mode = Number(deps.config.read().registerInviteCode);
    if (mode === 0) return failure(now, '系统当前没有开启邀请码');
    if (mode !== 1) return failure(now, '系统邀请码模式异常');
    if (store.inviteCodes.find((c) => c.code === code)) return failure(now, '邀请码已存在');
    // One code the admin typed, usable by many (Shiku's codes have no use limit of their own).
    const created = store.inviteCodes.insert({
      code,
      status: 'unused',
      usedCount: 0,
      maxUses: 0,
      usedBy: '',
      expireTime: null,
      createTime: iso(now),
    });
    codeExtras.set(created.id, { defaultfriend, desc });
    log(admin, 'create', 'inviteCodes', `create/inviteCode #${created.id}: ${code}`, now);
    return success(now);
  });

  // AC updateInviteCode: `id`, `inviteCode`, `defaultfriend`, `desc` all required; no role check.
  // Any exception is caught into a failure with its message; an id that names no code changes nothing.
  map('/console/update/updateInviteCode', ({ params, admin, now }) => {
    const text = params.requiredStr('id');
    const code = params.requiredStr('inviteCode');
    const defaultfriend = params.requiredStr('defaultfriend');
    const desc = params.requiredStr('desc');
    if (!/^[0-9a-fA-F]{24}$/.test(text))
      return failure(now, `invalid hexadecimal representation of an ObjectId: [${text}]`);
    const id = parseObjectId('inviteCode', text);
    const row = id === null ? undefined : store.inviteCodes.get(id);
    if (row) {
      row.code = code;
      codeExtras.set(row.id, { defaultfriend, desc });
      log(admin, 'update', 'inviteCodes', `updateInviteCode #${row.id}: ${code}`, now);
    }
    return success(now);
  });

  // AdminManagerImpl.delInviteCode: errors come back as failures (the handler catches them); data true.
  map('/console/delInviteCode', ({ params, admin, now }) => {
    const text = params.str('inviteCodeId');
    if (text === '') return failure(now, '请求参数错误或无效');
    if (!/^[0-9a-fA-F]{24}$/.test(text))
      return failure(now, `invalid hexadecimal representation of an ObjectId: [${text}]`);
    const id = parseObjectId('inviteCode', text);
    if (id !== null && store.inviteCodes.get(id)) {
      store.inviteCodes.remove([id]);
      log(admin, 'delete', 'inviteCodes', `delInviteCode #${id}`, now);
    }
    return success(now, true);
  });

  // RedPacketManagerImpl.getRedPacketList: userName equal, one list for one-to-one and group packets.
  map('/console/redPacketList', ({ params, now }) => {
    const page = params.int('page', 0);
    const limit = params.int('limit', 10);
    const userName = params.str('userName');
    const redPacketId = params.str('redPacketId');
    let rows = [
      ...store.personalRedEnvelopes.all().map((p) => shikuPersonalPacket(store, p)),
      ...store.groupRedEnvelopes.all().map((p) => shikuGroupPacket(store, p)),
    ];
    if (userName !== '') rows = rows.filter((r) => r.userName === userName);
    if (redPacketId !== '') {
      if (!/^[0-9a-fA-F]{24}$/.test(redPacketId))
        throw new InternalError(`invalid hexadecimal representation of an ObjectId: [${redPacketId}]`);
      rows = rows.filter((r) => r.id === redPacketId.toLowerCase());
    }
    rows.sort((a, b) => Number(b.sendTime) - Number(a.sendTime));
    return pageResult(now, pageOf(rows, page, limit), rows.length);
  });

  // ConsumeRecordManagerImpl.recharge: type=2 the withdrawals, else recharges, manual credits and
  // refunds; newest first; `total` sums the returned page only. Super admin or finance.
  map('/console/systemRecharge', ({ params, admin, now }) => {
    const role = roleOfCall(admin);
    if (role !== ROLE.superAdmin && role !== ROLE.finance) return failure(now, TEXT.noPermission);
    const userId = params.int('userId', 0);
    const type = params.int('type', 0);
    const page = params.int('page', 0);
    const limit = params.int('limit', 10);
    const tradeNo = params.str('tradeNo');
    const range = dayRange(params);
    if (type === 2) {
      const rows = byNewest(
        store.withdrawals
          .all()
          .filter(
            (w) =>
              (userId === 0 || w.userId === userId) &&
              (tradeNo === '' || w.orderNo === tradeNo) &&
              within(w.createTime, range),
          ),
        (w) => w.createTime,
      );
      const pageRows = pageOf(rows, page, limit);
      const balances = new Map<string, number>();
      const wanted = new Set(pageRows.map((w) => `Withdrawal ${w.orderNo}`));
      for (const bill of store.bills.all())
        if (bill.type === 'withdraw' && wanted.has(bill.remark)) balances.set(bill.remark, bill.balanceAfter);
      const out = pageRows.map((w) => shikuWithdrawal(w, balances.get(`Withdrawal ${w.orderNo}`)));
      return pageResult(now, out, rows.length, sum(out));
    }
    // ConsumeType: 1 user recharge, 3 system recharge (the console's credits), 17 system return (a refund).
    const consoleCredit = (b: { type: string; remark: string }) =>
      b.type === 'adjust' && b.remark === CONSOLE_RECHARGE_DESC;
    const rows = byNewest(
      store.bills
        .all()
        .filter(
          (b) =>
            (b.type === 'recharge' || b.type === 'refund' || consoleCredit(b)) &&
            (userId === 0 || b.userId === userId) &&
            (tradeNo === '' || b.orderNo === tradeNo) &&
            within(b.createTime, range),
        ),
      (b) => b.createTime,
    );
    const out = pageOf(rows, page, limit).map((b) => ({
      id: objectId('consume', b.id + 0x1000000, b.createTime),
      tradeNo: b.orderNo,
      userId: b.userId,
      userName: b.nickname,
      money: yuan(b.amount),
      operationAmount: yuan(b.amount),
      currentBalance: yuan(b.balanceAfter),
      desc: b.type === 'refund' ? '系统归还' : b.remark,
      // PayType 4 system pay: refunds and the console's credits.
      payType: b.type === 'refund' || consoleCredit(b) ? 4 : 1,
      status: 1,
      type: b.type === 'refund' ? 17 : consoleCredit(b) ? 3 : 1,
      time: seconds(b.createTime),
    }));
    return pageResult(now, out, rows.length, sum(out));
  });

  // AC rechargeAudit: no role check; 0 passes, 2 refuses and refunds, 1 puts it back to waiting; only a
  // refused one cannot be reviewed again. Success is a plain "操作成功" in resultMsg.
  map('/console/recharge/audit', ({ params, admin, now }) => {
    const text = params.requiredStr('rechargeId');
    const auditStatus = params.int('auditStatus');
    const desc = params.str('desc').trim();
    const id = parseObjectId('consume', text);
    const record = id === null ? undefined : store.withdrawals.get(id);
    if (!record) throw new InternalError('java.lang.NullPointerException');
    if (record.state === 'rejected') return failure(now, '审核已拒绝，无法再次审核');
    const reviewer = admin?.account ?? '';
    if (auditStatus === 0 && record.state === 'pending') store.ledger.approve([record.id], reviewer, now);
    else if (auditStatus === 2) {
      // A passed one can still be refused in Shiku: the refund follows all the same.
      if (record.state === 'pending') store.ledger.reject([record.id], reviewer, desc, now);
      else {
        Object.assign(record, { state: 'rejected', reason: desc, reviewer, reviewTime: iso(now) });
        const user = store.users.get(record.userId);
        if (user) store.ledger.post(user, 'refund', record.amount, now, `Refund of ${record.orderNo}`);
      }
    } else if (auditStatus === 1)
      Object.assign(record, { state: 'pending', reason: null, reviewer: null, reviewTime: null });
    if (auditStatus === 0 || auditStatus === 2)
      log(
        admin,
        auditStatus === 0 ? 'approve' : 'reject',
        'withdrawalReview',
        `recharge/audit #${record.id}: ${desc}`,
        now,
      );
    return successText(now, '操作成功');
  });

  // ConsumeRecordManagerImpl.newTradeMonitor: true when a withdrawal of the last 24 h is not yet
  // notified; up to 3 are marked notified by the call.
  const notified = new Set<number>();
  map('/console/trade/monitor', ({ now }) => {
    const fresh = store.withdrawals.all().filter((w) => !notified.has(w.id) && Date.parse(w.createTime) > now - DAY);
    for (const w of fresh.slice(0, 3)) notified.add(w.id);
    return success(now, fresh.length > 0);
  });

  // AC updateUserPassword: no role check; what the console sends (its md5 of the password) is
  // kept as it is, and a login's md5 is compared with it verbatim: plain text sent here locks the
  // account out, as it would on Shiku.
  map('/console/updateUserPassword', ({ params, admin, now }) => {
    const userId = params.str('userId');
    const password = params.str('password');
    const account = store.accounts.find((a) => a.userId === userId);
    if (account && password !== '') {
      deps.passwords.set(account, password);
      deps.sessions.close(account.id);
      log(admin, 'update', 'admins', `updateUserPassword #${account.id}`, now);
    }
    return success(now);
  });

  // AC userBill (2528) and ConsumeRecordManagerImpl.consumeRecordList (168): super admin or finance;
  // one user's finished records (status 1), newest first, as raw documents (`_id`, money unsigned,
  // the ConsumeType in `type`), `type` 0 for every type. The dates apply only when both are given,
  // and then only the end: the query appends `time` twice to one BasicDBObject, the second ($lt the
  // day after endDate) replacing the first ($gt startDate).
  map('/console/userBill', ({ params, admin, now }) => {
    const role = roleOfCall(admin);
    if (role !== ROLE.superAdmin && role !== ROLE.finance) return failure(now, TEXT.noPermission);
    const userId = params.int('userId');
    if (!store.users.get(userId)) return failure(now, '用户不存在!');
    // Plain `int page, int limit` without @RequestParam: absent, Spring cannot bind null to an int.
    if (!params.has('page') || !params.has('limit'))
      throw new InternalError('Optional int parameter is present but cannot be translated into a null value');
    const page = params.int('page');
    const limit = params.int('limit');
    const type = params.int('type', 0);
    const range = dayRange(params);
    const rows = byNewest(
      store.bills
        .all()
        .filter(
          (b) =>
            b.userId === userId &&
            (type === 0 || consumeType(b) === type) &&
            (range === null || (seconds(b.createTime) ?? 0) < range.to),
        ),
      (b) => b.createTime,
    );
    // page > 0 ? page - 1 : page, then skip(page * limit).
    const skip = (page > 0 ? page - 1 : page) * limit;
    const out = (limit === 0 ? rows.slice(skip) : rows.slice(skip, skip + limit)).map((b) => ({
      _id: objectId('consume', b.id + 0x1000000, b.createTime),
      tradeNo: b.orderNo,
      userId: b.userId,
      money: yuan(Math.abs(b.amount)),
      currentBalance: yuan(b.balanceAfter),
      desc: b.remark,
      status: 1,
      type: consumeType(b),
      time: seconds(b.createTime),
    }));
    return pageResult(now, out, rows.length);
  });
}

/**
 * KConstants.ConsumeType of a store bill: 1 user recharge, 2 withdrawal, 3 system recharge (the
 * console's credits and other adjustments), 4 red packet sent, 5 received, 7 transfer out and 8 in
 * by the amount's sign, 17 system return (a refund); a sign-in reward has no Shiku type and reads
 * as a system recharge.
 */
function consumeType(bill: { type: string; amount: number }): number {
  switch (bill.type) {
    case 'recharge':
      return 1;
    case 'withdraw':
      return 2;
    case 'redPackSend':
      return 4;
    case 'redPackReceive':
      return 5;
    case 'transfer':
      return bill.amount < 0 ? 7 : 8;
    case 'refund':
      return 17;
    default:
      return 3;
  }
}

/** PageResult.total: the page's money, added as BigDecimal so it stays a clean two-decimal Double. */
function sum(rows: Row[]): number {
  return Math.round(rows.reduce((total, row) => total + Math.round(Number(row.money ?? 0) * 100), 0)) / 100;
}
