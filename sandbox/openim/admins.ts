import { randomInt } from 'node:crypto';
import { ALL_PERMISSIONS, PERMISSIONS } from '../../server/contract/index.js';
import { createAdmin, type AdminAccount } from '../store/accounts.js';
import { OPENIM_CODES, OpenImError, argsError, noPermission, notFound } from './envelope.js';
import { listOrNull, type OpenImBody } from './request.js';
import { ADMIN_USER_TYPE } from './tokens.js';
import { IM_ADMIN_USER_ID, NORMAL_ADMIN_LEVEL, SUPER_ADMIN_LEVEL, type OpenImState } from './state.js';

/**
 * Administrators as OpenIM Chat's admin API serves them (`internal/api/admin/admin.go`,
 * `internal/rpc/admin/admin.go`, `internal/rpc/admin/update.go`): md5 passwords compared verbatim,
 * numeric levels (100 super admin, 80 normal admin), super-admin-only account management.
 */

type Row = Record<string, unknown>;

/** A normal admin may do everything the console offers except manage administrators. */
const NORMAL_ADMIN_PERMISSIONS = ALL_PERMISSIONS.filter((p) => p !== PERMISSIONS.adminUser);

/** `genUserID`: ten digits, the first not zero. */
function genUserID(): string {
  let id = String(randomInt(1, 10));
  for (let i = 1; i < 10; i++) id += String(randomInt(0, 10));
  return id;
}

/** `/account/login` (`AdminLogin`; rpc `Login`; answer `apistruct.AdminLoginResp`). */
export function login(state: OpenImState, body: OpenImBody, now: number): Row {
  const account = body.str('account');
  const password = body.str('password');
  const version = body.str('version');
  if (account === '') throw argsError('account is empty');
  if (password === '') throw argsError('password is empty');
  // A plain error, not a CodeError: OpenIM answers it as 500 with the text in errMsg.
  if (version === '')
    throw new OpenImError(OPENIM_CODES.internal, 'openim-admin-front version too old, please use new version', true);
  const admin = state.adminByAccount(account);
  if (!admin) throw new OpenImError(OPENIM_CODES.accountNotFound, '');
  const profile = state.profile(admin);
  if (profile.password !== password) throw new OpenImError(OPENIM_CODES.password, '');
  const im = state.imAdminToken(now);
  const adminToken = state.tokens.create(profile.userID, ADMIN_USER_TYPE, now);
  return {
    adminAccount: admin.account,
    adminToken,
    nickname: admin.nickname,
    faceURL: profile.faceURL,
    level: profile.level,
    adminUserID: profile.userID,
    imUserID: IM_ADMIN_USER_ID,
    imToken: im,
  };
}

/** The admin behind a token, as `GetAdminUserID` finds it; a deleted one is no longer found (1004). */
export function adminOf(state: OpenImState, userID: string): AdminAccount {
  const admin = state.adminByUserID(userID);
  if (!admin) throw notFound('mongo: no documents in result');
  return admin;
}

/** `CheckSuperAdmin`: level 100 or 1002. */
function checkSuper(state: OpenImState, userID: string): void {
  if (state.profile(adminOf(state, userID)).level !== SUPER_ADMIN_LEVEL) throw noPermission();
}

/** `/account/info` (`GetAdminInfo`): the stored md5 password included, createTime in ms. */
export function adminInfo(state: OpenImState, userID: string): Row {
  const admin = adminOf(state, userID);
  const profile = state.profile(admin);
  return {
    account: admin.account,
    password: profile.password,
    faceURL: profile.faceURL,
    nickname: admin.nickname,
    userID: profile.userID,
    level: profile.level,
    createTime: Date.parse(admin.createTime),
  };
}

/** `/account/search` (`SearchAdminAccount`): level-80 admins only, newest first, createTime in seconds. */
export function searchAdmins(state: OpenImState, body: OpenImBody, userID: string): Row {
  const nested = body.obj('pagination');
  // The Check() dereferences pagination unguarded: a missing one is a nil-pointer panic in the RPC.
  if (!nested)
    throw new OpenImError(
      OPENIM_CODES.internal,
      'runtime error: invalid memory address or nil pointer dereference',
      true,
    );
  const showNumber = nested.int('showNumber');
  const pageNumber = nested.int('pageNumber');
  if (showNumber === 0) throw argsError('showNumber is empty');
  if (pageNumber === 0) throw argsError('pageNumber is empty');
  checkSuper(state, userID);
  const rows = state.store.accounts
    .all()
    .filter((a) => state.profile(a).level === NORMAL_ADMIN_LEVEL)
    .sort((a, b) => (a.createTime < b.createTime ? 1 : a.createTime > b.createTime ? -1 : b.id - a.id));
  const skip = Math.max(0, (pageNumber - 1) * showNumber);
  const page = showNumber < 0 ? [] : rows.slice(skip, skip + showNumber);
  return {
    total: rows.length,
    adminAccounts: listOrNull(
      page.map((a) => {
        const profile = state.profile(a);
        return {
          account: a.account,
          password: '',
          faceURL: profile.faceURL,
          nickname: a.nickname,
          userID: profile.userID,
          level: profile.level,
          createTime: Math.floor(Date.parse(a.createTime) / 1000),
        };
      }),
    ),
  };
}

/** `/account/add_admin` (`AddAdminAccount`): super admin only, level 80, duplicate account → 1003. */
export function addAdmin(state: OpenImState, body: OpenImBody, userID: string, now: number): undefined {
  const account = body.str('account');
  const password = body.str('password');
  if (account === '') throw argsError('account is empty');
  if (password === '') throw argsError('password is empty');
  checkSuper(state, userID);
  if (state.adminByAccount(account)) throw new OpenImError(OPENIM_CODES.duplicateKey, 'the account is registered');
  // The store hashes what it is given; the md5 text is this dialect's plain password.
  const created = createAdmin(
    state.store.accounts,
    {
      account,
      nickname: body.str('nickname'),
      password,
      permissions: [...NORMAL_ADMIN_PERMISSIONS],
      status: 'enabled',
    },
    now,
  );
  state.setProfile(created, { userID: genUserID(), password, level: NORMAL_ADMIN_LEVEL, faceURL: body.str('faceURL') });
  return undefined;
}

/** `/account/del_admin` (`DelAdminAccount`): super admin only; a level-100 admin cannot be deleted. */
export function delAdmins(state: OpenImState, body: OpenImBody, userID: string): undefined {
  const ids = body.strList('userIDs') ?? [];
  if (ids.length === 0) throw argsError('userIDs is empty');
  checkSuper(state, userID);
  if (new Set(ids).size !== ids.length) throw argsError('user ids is duplicate');
  const doomed = ids.map((id) => {
    const admin = adminOf(state, id);
    if (state.profile(admin).level === SUPER_ADMIN_LEVEL) throw noPermission(`${id} is superAdminID`);
    return admin;
  });
  // OpenIM leaves the deleted admins' tokens in Redis; the admin record is what later calls miss.
  state.store.accounts.remove(doomed.map((a) => a.id));
  return undefined;
}

/** `/account/update` (`AdminUpdateInfo`, `ToDBAdminUpdate`): the caller's own record, level included. */
export function updateSelf(state: OpenImState, body: OpenImBody, userID: string): Row {
  const account = body.optStr('account');
  const password = body.optStr('password');
  const faceURL = body.optStr('faceURL');
  const nickname = body.optStr('nickname');
  const level = body.optInt('level');
  if (account === '') throw argsError('account is empty');
  if (password === '') throw argsError('password is empty');
  if (nickname === '') throw argsError('nickname is empty');
  if ([account, password, faceURL, nickname, level].every((v) => v === undefined)) throw argsError('no update info');
  const admin = adminOf(state, userID);
  const profile = state.profile(admin);
  if (account !== undefined) admin.account = account;
  if (nickname !== undefined) admin.nickname = nickname;
  if (password !== undefined) profile.password = password;
  if (faceURL !== undefined) profile.faceURL = faceURL;
  if (level !== undefined) {
    profile.level = level;
    // The console's permission list follows the level, as the binding derives it.
    admin.permissions = level === SUPER_ADMIN_LEVEL ? [...ALL_PERMISSIONS] : [...NORMAL_ADMIN_PERMISSIONS];
  }
  return { userID: profile.userID, nickname: admin.nickname, faceURL: profile.faceURL };
}

/**
 * `/account/change_password` (`ChangeAdminPassword`): names any admin by `userID` (no self or
 * level check in the source) and needs that admin's current password; a wrong one is a 500.
 */
export function changeAdminPassword(state: OpenImState, body: OpenImBody): undefined {
  const target = body.str('userID');
  const current = body.str('currentPassword');
  const next = body.str('newPassword');
  if (target === '') throw argsError('userID is empty');
  if (current === '') throw argsError('currentPassword is empty');
  if (next === '') throw argsError('newPassword is empty');
  if (current === next) throw argsError('currentPassword is equal to newPassword');
  const profile = state.profile(adminOf(state, target));
  if (profile.password !== current) throw new OpenImError(OPENIM_CODES.internal, 'password error');
  profile.password = next;
  return undefined;
}
