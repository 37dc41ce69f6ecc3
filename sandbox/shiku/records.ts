import type { AdminAccount } from '../store/accounts.js';
import type {
  GroupRedEnvelopeRecord,
  InviteCodeRecord,
  PersonalRedEnvelopeRecord,
  SensitiveWordRecord,
} from '../store/records.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import type { GroupRecord, UserRecord, WithdrawalRecord } from '../store/types.js';
import { type Row, objectId, seconds, yuan } from './wire.js';

/**
 * The sandbox's records in Shiku IM's shapes (docs/dialects/shiku-im.md §5): User, Room,
 * ConsumeRecord, KeyWord, InviteCode, RedPacket and Role. Fields our data lacks are filled the way
 * a freshly registered Shiku account has them, as each comment says.
 */

/** Our phones are "+<dial><number>"; Shiku splits them into areaCode and phone, telephone = both. */
const DIALS = ['86', '81', '34', '33', '49', '1'];

export function phoneParts(phone: string): { areaCode: string; phone: string; telephone: string } {
  const digits = phone.replace(/\D/g, '');
  const dial = DIALS.find((d) => digits.startsWith(d)) ?? '86';
  return { areaCode: dial, phone: digits.slice(dial.length), telephone: digits };
}

/**
 * User.java as /console/userList writes it. Real Shiku also serialises `password` (md5) and the
 * Google secret here; the sandbox never does (a deliberate deviation).
 */
export function shikuUser(user: UserRecord): Row {
  const parts = phoneParts(user.phone);
  const login = seconds(user.lastLoginTime);
  return {
    userId: user.id,
    nickname: user.nickname,
    telephone: parts.telephone,
    phone: parts.phone,
    areaCode: parts.areaCode,
    account: user.account,
    name: user.realName,
    // User.sex: 1 male, 0 female; unknown people read as Shiku's default (1).
    sex: user.gender === 'female' ? 0 : 1,
    createTime: seconds(user.registerTime),
    modifyTime: login,
    status: user.status === 'banned' ? -1 : 1,
    balance: yuan(user.balance),
    onlinestate: user.online ? 1 : 0,
    // Shiku marks real-name verified users; the sandbox has a real name for everyone.
    isAuth: user.realName ? 1 : 0,
    regInviteCode: user.inviteCode || undefined,
    // 1: an ordinary user (2 public account, 3 robot are never seeded here).
    userType: 1,
    // User.UserLoginLog.init: the latest login only, in seconds, with what the client reported
    // (model, serial, place); no IP. offlineTime is 0 until the user goes offline.
    loginLog:
      login === undefined
        ? undefined
        : { isFirstLogin: 0, loginTime: login, serial: user.device, offlineTime: user.online ? 0 : login },
  };
}

/** What the dialect keeps of a room beyond the store: the console's lock and the mute's end. */
export interface RoomExtras {
  locked?: boolean;
  /** Room.talkTime in seconds: everyone but the owner and admins is muted until then. */
  talkTime?: number;
  flags?: Row;
}

export function shikuRoom(group: GroupRecord, extras: RoomExtras = {}): Row {
  return {
    id: objectId('room', group.id, group.createTime),
    // The XMPP room's jid: Shiku draws a UUID; ours is derived from the id so it stays stable.
    jid: `${group.id.toString(16).padStart(8, '0')}sandbox${String(group.id).padStart(17, '0')}`,
    name: group.name,
    desc: group.notice,
    notice: group.notice ? { text: group.notice } : undefined,
    userId: group.ownerId,
    nickname: group.ownerNickname,
    userSize: group.memberCount,
    maxUserSize: group.maxMembers,
    createTime: seconds(group.createTime),
    // Room.s: 1 normal, -1 locked by an administrator (Room.java "被禁用"); a dissolved room is gone
    // from Shiku (deleteRoom removes it), so roomList leaves it out rather than calling it locked.
    s: extras.locked ? -1 : 1,
    // Room.talkTime: the end of an all-members mute (seconds); a mute set by the contract's screens
    // has no end, so it reads as far ahead.
    talkTime: extras.talkTime ?? (group.muted ? 4_102_444_800 : 0),
    ...extras.flags,
  };
}

const AUDIT = { pending: 1, approved: 0, rejected: 2 } as const;
/**
 * ConsumeRecord.payType of a withdrawal: a bank card's is SYSTEMPAY 4 with its bankCardId
 * (ConsumeRecordManagerImpl.applyDrawings, line 409); Alipay's and WeChat's are BALANCEAY 3
 * (TransfersRecordManagerImpl.transfersToAliPay / transfersToWXUser). ALIPAY 1 is a recharge channel.
 * Shiku has no USDT: the sandbox's read as the transfers' 3.
 */
const PAY_TYPE = { alipay: 3, bankCard: 4, usdt: 3 } as const;

/** ConsumeRecord.java as /console/systemRecharge?type=2 writes a withdrawal (type 2, PUT_RAISE_CASH). */
export function shikuWithdrawal(w: WithdrawalRecord, balanceAfter: number | undefined): Row {
  const desc =
    w.state === 'pending'
      ? '提现待审核'
      : w.state === 'approved'
        ? '提现成功'
        : w.reason
          ? `审核拒绝:${w.reason}`
          : '提现审核拒绝';
  return {
    id: objectId('consume', w.id, w.createTime),
    tradeNo: w.orderNo,
    userId: w.userId,
    userName: w.nickname,
    // The amount taken from the wallet; what reaches the payee is that less the service charge.
    money: yuan(w.amount),
    serviceCharge: yuan(w.fee),
    operationAmount: yuan(w.amount),
    currentBalance: balanceAfter === undefined ? undefined : yuan(balanceAfter),
    desc,
    payType: PAY_TYPE[w.method],
    // OrderStatus: the application is recorded (1 END) at once; the audit is separate.
    status: 1,
    type: 2,
    time: seconds(w.createTime),
    auditStatus: AUDIT[w.state],
    bankCardId: w.method === 'bankCard' ? objectId('bankCard', w.id, w.createTime) : undefined,
  };
}

/** KeyWord.java. */
export function shikuKeyword(word: SensitiveWordRecord): Row {
  return { id: objectId('keyword', word.id, word.createTime), word: word.word, createTime: seconds(word.createTime) };
}

/** InviteCode.java: createTime in ms (its comment says so), `cout` (sic) the times used. */
export function shikuInviteCode(
  code: InviteCodeRecord,
  extra: { defaultfriend?: string; desc?: string } | undefined,
): Row {
  const ms = Date.parse(code.createTime);
  return {
    id: objectId('inviteCode', code.id, code.createTime),
    inviteCode: code.code,
    defaultfriend: extra?.defaultfriend,
    desc: extra?.desc,
    createTime: Number.isNaN(ms) ? undefined : ms,
    cout: code.usedCount,
  };
}

/** Red packet status: 1 sent (open), 2 finished, -1 refunded. */
const PERSONAL_STATUS = { pending: 1, received: 2, refunded: -1 } as const;
const GROUP_STATUS = { ongoing: 1, finished: 2, refunded: -1 } as const;
/** RedPacket.outTime: a packet expires 24 h after it is sent. */
const DAY_S = 86_400;

export function shikuPersonalPacket(store: SandboxStore, p: PersonalRedEnvelopeRecord): Row {
  const sent = seconds(p.createTime) ?? 0;
  const sender = store.users.get(p.senderId);
  const receiver = store.userByAccount(p.receiverAccount);
  return {
    id: objectId('redPacket', p.id, p.createTime),
    userId: p.senderId,
    userName: sender?.nickname ?? p.senderAccount,
    toUserId: receiver?.id,
    greetings: p.greeting,
    sendTime: sent,
    // A one-to-one packet is a normal one (type 1) for one receiver.
    type: 1,
    count: 1,
    receiveCount: p.state === 'received' ? 1 : 0,
    money: yuan(p.amount),
    over: p.state === 'pending' ? yuan(p.amount) : 0,
    outTime: sent + DAY_S,
    status: PERSONAL_STATUS[p.state],
  };
}

export function shikuGroupPacket(store: SandboxStore, p: GroupRedEnvelopeRecord): Row {
  const sent = seconds(p.createTime) ?? 0;
  const sender = store.users.get(p.senderId);
  const group = store.groups.get(p.groupId);
  const left = p.state === 'ongoing' ? Math.round((p.amount * (p.count - p.receivedCount)) / Math.max(1, p.count)) : 0;
  return {
    id: objectId('groupRedPacket', p.id, p.createTime),
    userId: p.senderId,
    userName: sender?.nickname ?? p.senderAccount,
    roomJid: group ? shikuRoom(group).jid : undefined,
    greetings: '恭喜发财，大吉大利',
    sendTime: sent,
    // Group packets split at random: Shiku's lucky packet (type 2).
    type: 2,
    count: p.count,
    receiveCount: p.receivedCount,
    money: yuan(p.amount),
    over: yuan(left),
    outTime: sent + DAY_S,
    status: GROUP_STATUS[p.state],
  };
}

/** Role.java as /console/adminList writes it: status 1 enabled / -1 disabled. */
export function shikuRole(account: AdminAccount, role: number): Row {
  return {
    id: objectId('role', account.id, account.createTime),
    userId: Number(account.userId),
    // Role.phone is the telephone without its area code (InitializationData: "1000").
    phone: account.account,
    role,
    status: account.status === 'enabled' ? 1 : -1,
    // Role's times are primitive longs, never null. lastLoginTime stays 0: the login's
    // updateLastLoginTime sends `new Role(userId)`, whose role 0 matches no row in modifyRole
    // (RoleManagerImpl line 191), so it is never written.
    createTime: seconds(account.createTime) ?? 0,
    lastLoginTime: 0,
    nickName: account.nickname,
  };
}
