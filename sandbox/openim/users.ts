import type { UserRecord } from '../store/types.js';
import { OPENIM_CODES, OpenImError, argsError } from './envelope.js';
import { keywordMatcher, listOrNull, pageOf, type OpenImBody } from './request.js';
import type { OpenImState } from './state.js';

/**
 * Chat users as OpenIM Chat's `UserFullInfo` (`pkg/protocol/common/common.proto`,
 * `internal/rpc/chat/utils.go` `DbToPbUserFullInfo`) and the user calls: search and find on the
 * chat API, update, block, unblock and password reset.
 */

type Row = Record<string, unknown>;

/** `constant.go` Gender*: 0 female, 1 male, 2 unknown. */
const GENDERS = { female: 0, male: 1, unknown: 2 } as const;
const GENDER_OF: Readonly<Record<number, UserRecord['gender']>> = { 0: 'female', 1: 'male', 2: 'unknown' };

/** The store keeps one phone text, `+<dial><number>`; the user's locale tells where the dial code ends. */
export const AREA_CODES: Readonly<Record<string, string>> = {
  zh: '+86',
  ja: '+81',
  es: '+34',
  en: '+1',
  fr: '+33',
  de: '+49',
};

/** OpenIM's separate `areaCode` and `phoneNumber` of the store's phone text. */
function splitPhone(user: UserRecord, more: UserExtras): { phoneNumber: string; areaCode: string } {
  const code = more.areaCode ?? AREA_CODES[user.locale];
  if (code && user.phone.startsWith(code)) return { phoneNumber: user.phone.slice(code.length), areaCode: code };
  return { phoneNumber: user.phone, areaCode: '' };
}

/** Fields OpenIM keeps per user that the store has none for; set by `/user/update`. */
export interface UserExtras {
  /** Set for users registered here without an account, whose store account is their phone or e-mail. */
  account?: string;
  areaCode?: string;
  email?: string;
  level?: number;
  birth?: number;
  allowAddFriend?: number;
  allowBeep?: number;
  allowVibration?: number;
  globalRecvMsgOpt?: number;
  /** How a user registered here did it (`constant.go`: 0 account, 1 email, 2 phone). */
  registerType?: number;
}

const extras = new WeakMap<OpenImState, Map<number, UserExtras>>();

export function extrasOf(state: OpenImState, user: UserRecord): UserExtras {
  let map = extras.get(state);
  if (!map) extras.set(state, (map = new Map()));
  let row = map.get(user.id);
  if (!row) map.set(user.id, (row = {}));
  return row;
}

export function userFullInfo(state: OpenImState, user: UserRecord): Row {
  const more = extrasOf(state, user);
  return {
    userID: String(user.id),
    // OpenIM never answers the password.
    password: '',
    account: more.account ?? user.account,
    ...splitPhone(user, more),
    // The store has no e-mail addresses: empty, as for users registered by phone or account.
    email: more.email ?? '',
    nickname: user.nickname,
    faceURL: user.avatar,
    gender: GENDERS[user.gender],
    // A registration sets no level and, without a birthday, a zero birth time (rpc/chat/login.go).
    level: more.level ?? 0,
    birth: more.birth ?? 0,
    // constant.go Default*: new users allow friends, beeps and vibration.
    allowAddFriend: more.allowAddFriend ?? 1,
    allowBeep: more.allowBeep ?? 1,
    allowVibration: more.allowVibration ?? 1,
    globalRecvMsgOpt: more.globalRecvMsgOpt ?? 0,
    // constant.go: 0 account, 1 email, 2 phone; a user whose account is their phone registered by phone.
    registerType: more.registerType ?? (user.account === user.phone ? 2 : 0),
  };
}

/** `/user/search/full` (`rpc/chat/user.go` `SearchUserFullInfo`, `model/chat/attribute.go` `SearchNormalUser`). */
export function searchUsers(state: OpenImState, body: OpenImBody): Row {
  const pagination = body.pagination();
  const normal = body.int('normal');
  if (normal < 0 || normal > 1) throw argsError('normal flied is invalid');
  const gender = body.int('genders');
  const match = keywordMatcher(body.str('keyword'));
  const rows = state.store.users.all().filter((user) => {
    // Gender 0 means "any of 0, 1, 2": female alone cannot be asked for (the source's quirk).
    if (gender !== 0 && GENDERS[user.gender] !== gender) return false;
    if (normal === 1 && user.status === 'banned') return false;
    const more = extrasOf(state, user);
    return [String(user.id), user.account, user.nickname, splitPhone(user, more).phoneNumber, more.email ?? ''].some(
      match,
    );
  });
  const page = pageOf(rows, pagination);
  return { total: page.total, users: listOrNull(page.list.map((user) => userFullInfo(state, user))) };
}

/** `/user/find/full`: unknown ids are left out, not refused (`Attribute.Find`). */
export function findUsers(state: OpenImState, body: OpenImBody): Row {
  const ids = body.strList('userIDs');
  if (!ids || ids.length === 0) throw argsError('userIDs is empty');
  const users = ids.flatMap((id) => {
    const user = state.userByID(id);
    return user ? [userFullInfo(state, user)] : [];
  });
  return { users: listOrNull(users) };
}

const ALPHANUMERIC = /^[A-Za-z0-9]+$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `/user/update` by an admin (`rpc/chat/user.go` `UpdateUserInfo`, `checkUpdateInfo`). */
export function updateUser(state: OpenImState, body: OpenImBody): undefined {
  const areaCode = body.optStr('areaCode');
  const phone = body.optStr('phoneNumber');
  if (areaCode !== undefined || phone !== undefined) {
    if (areaCode === undefined || phone === undefined || ((areaCode === '' || phone === '') && areaCode !== phone)) {
      throw argsError('areaCode and phoneNumber must be set together');
    }
  }
  const userID = body.str('userID');
  if (userID === '') throw argsError('user id is empty');
  const user = state.userByID(userID);
  if (!user) throw argsError('user not found');
  const more = extrasOf(state, user);
  const patch: Partial<UserRecord> = {};
  let code: string | undefined;
  if (phone !== undefined && areaCode !== undefined) {
    const current = splitPhone(user, more);
    if (phone === '') patch.phone = '';
    else if (phone !== current.phoneNumber || areaCode !== current.areaCode) {
      code = areaCode.startsWith('+') ? areaCode : `+${areaCode}`;
      if (!/^\+\d+$/.test(code)) throw argsError('area code must be number');
      if (!/^\d+$/.test(phone)) throw argsError('phone number must be number');
      if (state.store.users.find((u) => u.id !== user.id && u.phone === code + phone))
        throw new OpenImError(OPENIM_CODES.phoneAlreadyRegister, '');
      patch.phone = code + phone;
    }
  }
  const account = body.optStr('account');
  if (account !== undefined && account !== '' && account !== user.account) {
    if (!ALPHANUMERIC.test(account)) throw argsError('account must be alphanumeric');
    if (state.store.userByAccount(account)) throw new OpenImError(OPENIM_CODES.accountAlreadyRegister, '');
    patch.account = account;
    delete more.account;
  }
  const email = body.optStr('email');
  if (email !== undefined && email !== '' && !EMAIL.test(email)) throw argsError('invalid email');
  const nickname = body.optStr('nickname');
  if (nickname !== undefined) patch.nickname = nickname;
  const faceURL = body.optStr('faceURL');
  if (faceURL !== undefined) patch.avatar = faceURL;
  const gender = body.optInt('gender');
  // Only 0, 1 and 2 exist in the store's terms; anything else reads back as unknown.
  if (gender !== undefined) patch.gender = GENDER_OF[gender] ?? 'unknown';
  Object.assign(user, patch);
  if (code !== undefined) more.areaCode = code;
  if (email !== undefined) more.email = email;
  for (const key of ['level', 'allowAddFriend', 'allowBeep', 'allowVibration', 'globalRecvMsgOpt'] as const) {
    const value = body.optInt(key);
    if (value !== undefined) more[key] = value;
  }
  const birth = body.raw('birth');
  if (birth !== undefined && birth !== null) {
    if (typeof birth !== 'number' || !Number.isInteger(birth))
      throw argsError('json: cannot unmarshal into Go struct field .birth of type int64');
    more.birth = birth;
  }
  return undefined;
}

/** The row of a blocked user as `/block/search` answers it (`admin.proto` `BlockUserInfo`). */
function blockRow(state: OpenImState, userID: string): Row {
  const user = state.userByID(userID);
  const mark = state.blocks.get(userID);
  const full = user ? userFullInfo(state, user) : null;
  return {
    userID,
    account: full?.account ?? '',
    phoneNumber: full?.phoneNumber ?? '',
    areaCode: full?.areaCode ?? '',
    email: full?.email ?? '',
    nickname: full?.nickname ?? '',
    faceURL: full?.faceURL ?? '',
    gender: full?.gender ?? 0,
    reason: mark?.reason ?? user?.banReason ?? '',
    // Bans seeded in the store have no operator on record.
    opUserID: mark?.opUserID ?? '',
    createTime: mark?.createTime ?? (user?.banTime ? Date.parse(user.banTime) : 0),
  };
}

/**
 * `/block/search` (`rpc/admin/user.go` `SearchBlockUser`, `model/admin/forbidden_account.go`
 * `Search`): the keyword is matched against the user id, the reason and the operator's id.
 */
export function searchBlocked(state: OpenImState, body: OpenImBody): Row {
  const pagination = body.pagination();
  const match = keywordMatcher(body.str('keyword'));
  const ids = [
    ...state.store.users
      .all()
      .filter((u) => u.status === 'banned')
      .map((u) => String(u.id)),
  ];
  for (const id of state.blocks.keys()) if (!state.userByID(id)) ids.push(id);
  const rows = ids
    .map((id) => blockRow(state, id))
    .filter((row) => [row.userID, row.reason, row.opUserID].some((v) => match(String(v))));
  const page = pageOf(rows, pagination);
  return { total: page.total, users: listOrNull(page.list) };
}

/** `/block/add`: one user; already blocked → 1001; the user is forced offline. */
export function blockUser(state: OpenImState, body: OpenImBody, opUserID: string, now: number): undefined {
  const userID = body.str('userID');
  if (userID === '') throw argsError('userID is empty');
  if (state.isBlocked(userID)) throw argsError('user already blocked');
  const reason = body.str('reason');
  state.blocks.set(userID, { reason, opUserID, createTime: now });
  const user = state.userByID(userID);
  if (user) {
    Object.assign(user, { status: 'banned', online: false, banReason: reason, banTime: new Date(now).toISOString() });
    state.store.onlineSessions.remove([user.id]);
  }
  return undefined;
}

/** `/block/del`: every id must be blocked, else 1001 naming the others. */
export function unblockUsers(state: OpenImState, body: OpenImBody): undefined {
  const ids = body.strList('userIDs');
  if (!ids) throw argsError('userIDs is empty');
  if (ids.length === 0) throw argsError('empty user id');
  if (new Set(ids).size !== ids.length) throw argsError('duplicate user id');
  const missing = ids.filter((id) => !state.isBlocked(id));
  if (missing.length > 0) throw argsError(`user not blocked ${missing.join(', ')}`);
  for (const id of ids) {
    state.blocks.delete(id);
    const user = state.userByID(id);
    if (user) Object.assign(user, { status: 'normal', banReason: undefined, banTime: undefined });
  }
  return undefined;
}

/**
 * `/user/password/reset` (`rpc/chat/password.go` `ChangePassword` as an admin): the admin chooses
 * the new password (md5 hex); the current one is not asked; the user's tokens are dropped and the
 * user forced offline.
 */
export function resetPassword(state: OpenImState, body: OpenImBody): undefined {
  const newPassword = body.str('newPassword');
  if (newPassword === '') throw argsError('new password must be set');
  if (newPassword === body.str('currentPassword')) throw argsError('new password == current password');
  const userID = body.str('userID');
  if (userID === '') throw argsError('user id must be set');
  const user = state.userByID(userID);
  if (!user) throw new OpenImError(OPENIM_CODES.recordNotFound, 'mongo: no documents in result');
  state.userPasswords.set(userID, newPassword);
  state.tokens.invalidate(userID);
  user.online = false;
  state.store.onlineSessions.remove([user.id]);
  return undefined;
}
