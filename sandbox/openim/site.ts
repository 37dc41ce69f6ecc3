import { randomInt } from 'node:crypto';
import { argsError } from './envelope.js';
import { keywordMatcher, listOrNull, pageOf, type OpenImBody } from './request.js';
import type { OpenImRoute } from './call.js';
import type { OpenImState } from './state.js';

/**
 * Site-wide settings and lists of OpenIM Chat's admin API: client config, the registration switch,
 * invitation codes, forbidden IPs and default friends (`pkg/protocol/admin/admin.proto`,
 * `internal/rpc/admin/*.go`). The rows are the store's; OpenIM's shapes are made on the way out.
 */

type Row = Record<string, unknown>;

/** The client config is the site-functions settings object, every value written as text (`map<string,string>`). */
function siteFunctions(state: OpenImState): Record<string, unknown> {
  return (state.store.settings.siteFunctions ??= {});
}

/**
 * The store's registration switch is OpenIM's `AllowRegister`, a field of the chat RPC server set
 * by `/user/allow_register/set` (`internal/rpc/chat/register.go`), not a client-config key: the
 * client config neither shows it nor changes it. A `registerEnabled` key written there is a key
 * like any other, kept apart.
 */
const NOT_CLIENT_CONFIG = new Set(['registerEnabled']);

/** Text back into the stored setting's own type, so the default dialect still reads a boolean as a boolean. */
function typed(previous: unknown, text: string): unknown {
  if (typeof previous === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  if (typeof previous === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  return text;
}

function getClientConfig(state: OpenImState): Row {
  const stored = Object.entries(siteFunctions(state)).filter(([key]) => !NOT_CLIENT_CONFIG.has(key));
  const config = Object.fromEntries([
    ...stored.map(([key, value]) => [key, String(value)]),
    ...state.clientConfigApart,
  ]);
  // A Go map is written with its keys sorted.
  return { config: Object.fromEntries(Object.entries(config).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
}

function setClientConfig(state: OpenImState, body: OpenImBody): undefined {
  const config = body.stringMap('config');
  if (!config) throw argsError('config is empty');
  const settings = siteFunctions(state);
  for (const [key, value] of Object.entries(config)) {
    if (NOT_CLIENT_CONFIG.has(key)) state.clientConfigApart.set(key, value);
    else settings[key] = typed(settings[key], value);
  }
  return undefined;
}

function delClientConfig(state: OpenImState, body: OpenImBody): undefined {
  const settings = siteFunctions(state);
  for (const key of body.strList('keys') ?? []) {
    if (NOT_CLIENT_CONFIG.has(key)) state.clientConfigApart.delete(key);
    else delete settings[key];
  }
  return undefined;
}

/** `/user/allow_register/get|set`: the site functions' registration switch. */
function getAllowRegister(state: OpenImState): Row {
  return { allowRegister: siteFunctions(state).registerEnabled !== false };
}

function setAllowRegister(state: OpenImState, body: OpenImBody): undefined {
  siteFunctions(state).registerEnabled = body.bool('allowRegister');
  return undefined;
}

/** `UserPublicInfo` of the user who used a code (`MapUserPublicInfo`), or null. */
export function publicInfo(state: OpenImState, userID: string): Row | null {
  const user = state.userByID(userID);
  if (!user) return null;
  const gender = { female: 0, male: 1, unknown: 2 }[user.gender];
  return { userID, account: user.account, email: '', nickname: user.nickname, faceURL: user.avatar, gender, level: 0 };
}

/** The store names who used a code by account; OpenIM by user id. */
function usedUserID(state: OpenImState, account: string): string {
  if (account === '') return '';
  const user = state.store.userByAccount(account);
  return user ? String(user.id) : '';
}

/**
 * `/invitation_code/search` (`model/admin/invitation_register.go` `Search`): status 0 all, 1 used,
 * 2 unused; keyword over the code and the user id. A code the store has disabled reads as unused:
 * OpenIM has no disabled state.
 */
function searchInvitationCodes(state: OpenImState, body: OpenImBody): Row {
  const status = body.int('status');
  if (![0, 1, 2].includes(status)) throw argsError('state invalid');
  const pagination = body.pagination();
  const match = keywordMatcher(body.str('keyword'));
  const userIDs = body.strList('userIDs') ?? [];
  const codes = body.strList('codes') ?? [];
  const rows = state.store.inviteCodes.all().flatMap((code) => {
    const used = usedUserID(state, code.usedBy);
    if (status === 1 && used === '') return [];
    if (status === 2 && used !== '') return [];
    if (userIDs.length > 0 && !userIDs.includes(used)) return [];
    if (codes.length > 0 && !codes.includes(code.code)) return [];
    if (!match(code.code) && !match(used)) return [];
    return [{ code, used }];
  });
  const page = pageOf(rows, pagination);
  return {
    total: page.total,
    list: listOrNull(
      page.list.map(({ code, used }) => ({
        invitationCode: code.code,
        createTime: Date.parse(code.createTime),
        usedUserID: used,
        usedUser: used ? publicInfo(state, used) : null,
      })),
    ),
  };
}

function insertCodes(state: OpenImState, codes: readonly string[], now: number): void {
  for (const code of codes) {
    // One use, no expiry: what an OpenIM code is, in the store's terms.
    state.store.inviteCodes.insert({
      code,
      status: 'unused',
      usedCount: 0,
      maxUses: 1,
      usedBy: '',
      expireTime: null,
      createTime: new Date(now).toISOString(),
    });
  }
}

const existingCodes = (state: OpenImState, codes: readonly string[]) =>
  codes.filter((c) => state.store.inviteCodes.find((row) => row.code === c));

/** `/invitation_code/add`: the codes given; duplicates or codes already stored → 1001. */
function addInvitationCodes(state: OpenImState, body: OpenImBody, now: number): undefined {
  const codes = body.strList('codes');
  if (codes === null) throw argsError('codes is invalid');
  if (codes.length === 0) throw argsError('codes is empty');
  if (new Set(codes).size !== codes.length) throw argsError('codes is duplicate');
  const existing = existingCodes(state, codes);
  if (existing.length > 0) throw argsError(`code existed, ids=[${existing.join(' ')}]`);
  insertCodes(state, codes, now);
  return undefined;
}

/** `/invitation_code/gen` (`GenInvitationCode`): `num` random codes of `len` from `chars`; they are not answered. */
function genInvitationCodes(state: OpenImState, body: OpenImBody, now: number): undefined {
  const len = body.int('len');
  const num = body.int('num');
  const chars = body.str('chars');
  if (len < 1) throw argsError('len is invalid');
  if (num < 1) throw argsError('num is invalid');
  if (chars === '') throw argsError('chars is in invalid');
  const codes: string[] = [];
  for (let i = 0; i < num; i++) {
    let code = '';
    for (let j = 0; j < len; j++) code += chars[randomInt(0, chars.length)];
    codes.push(code);
  }
  if (new Set(codes).size !== codes.length) throw argsError('gen duplicate codes');
  const existing = existingCodes(state, codes);
  if (existing.length > 0) throw argsError(existing.join(', '));
  insertCodes(state, codes, now);
  return undefined;
}

function delInvitationCodes(state: OpenImState, body: OpenImBody): undefined {
  const codes = body.strList('codes');
  if (codes === null) throw argsError('codes is empty');
  const doomed = new Set(codes);
  state.store.inviteCodes.removeWhere((row) => doomed.has(row.code));
  return undefined;
}

/** A seeded blacklist entry refuses registration and login alike; later ones carry their own flags. */
function limitsOf(state: OpenImState, ip: string) {
  return state.ipLimits.get(ip) ?? { limitRegister: true, limitLogin: true };
}

/**
 * `/forbidden/ip/search` (`model/admin/ip_forbidden.go` `Search`). Status 1–6 filter the boolean
 * flags with the integers 0/1, which Mongo never matches against booleans: only status 0 finds rows.
 */
function searchForbiddenIPs(state: OpenImState, body: OpenImBody): Row {
  const pagination = body.pagination();
  const status = body.int('status');
  const match = keywordMatcher(body.str('keyword'));
  const rows = status >= 1 && status <= 6 ? [] : state.store.ipBlacklist.all().filter((row) => match(row.ip));
  const page = pageOf(rows, pagination);
  return {
    total: page.total,
    forbiddens: listOrNull(
      page.list.map((row) => ({ ip: row.ip, ...limitsOf(state, row.ip), createTime: Date.parse(row.createTime) })),
    ),
  };
}

/** `/forbidden/ip/add`: an IP already listed gets the new flags (the IP is the record's key). */
function addForbiddenIPs(state: OpenImState, body: OpenImBody, userID: string, now: number): undefined {
  const forbiddens = body.list('forbiddens');
  if (forbiddens === null) throw argsError('forbiddens is empty');
  const admin = state.adminByUserID(userID);
  for (const item of forbiddens) {
    const ip = item.str('ip');
    const flags = { limitRegister: item.bool('limitRegister'), limitLogin: item.bool('limitLogin') };
    if (!state.store.ipBlacklist.find((row) => row.ip === ip)) {
      // OpenIM records no reason or expiry; the store's operator column gets the admin's account.
      state.store.ipBlacklist.insert({
        ip,
        reason: '',
        expireTime: null,
        createdBy: admin?.account ?? userID,
        createTime: new Date(now).toISOString(),
      });
    }
    state.ipLimits.set(ip, flags);
  }
  return undefined;
}

function delForbiddenIPs(state: OpenImState, body: OpenImBody): undefined {
  const ips = body.strList('ips');
  if (ips === null) throw argsError('ips is empty');
  const doomed = new Set(ips);
  state.store.ipBlacklist.removeWhere((row) => doomed.has(row.ip));
  for (const ip of ips) state.ipLimits.delete(ip);
  return undefined;
}

/** `DefaultFriendAttribute`: the default friend with the user's public record nested. */
function defaultFriendRow(state: OpenImState, userId: number, createTime: string): Row {
  const userID = String(userId);
  return { userID, createTime: Date.parse(createTime), user: publicInfo(state, userID) };
}

/** `/default/user/search` (`model/admin/register_add_friend.go` `Search`): the keyword is a regex over the user id only. */
function searchDefaultFriends(state: OpenImState, body: OpenImBody): Row {
  const pagination = body.pagination();
  const match = keywordMatcher(body.str('keyword'));
  const rows = state.store.defaultFriends.all().filter((row) => match(String(row.userId)));
  const page = pageOf(rows, pagination);
  return {
    total: page.total,
    users: listOrNull(page.list.map((row) => defaultFriendRow(state, row.userId, row.createTime))),
  };
}

function findDefaultFriends(state: OpenImState): Row {
  return { userIDs: listOrNull(state.store.defaultFriends.all().map((row) => String(row.userId))) };
}

/** `/default/user/add`: every id must be a user and not yet a default friend. */
function addDefaultFriends(state: OpenImState, body: OpenImBody, now: number): undefined {
  const ids = body.strList('userIDs');
  if (ids === null) throw argsError('userIDs is empty');
  if (new Set(ids).size !== ids.length) throw argsError('userIDs has duplicate');
  const users = ids.map((id) => {
    const user = state.userByID(id);
    if (!user) throw argsError(`user not found ${id}`);
    if (state.store.defaultFriends.find((row) => row.userId === user.id))
      throw argsError(`user ${id} already default friend`);
    return user;
  });
  const last = state.store.defaultFriends.all().reduce((max, row) => Math.max(max, row.sort), 0);
  users.forEach((user, i) =>
    state.store.defaultFriends.insert({
      userId: user.id,
      userAccount: user.account,
      nickname: user.nickname,
      // OpenIM has no welcome message or order; the store's columns get neutral values.
      welcomeMessage: '',
      sort: last + (i + 1) * 10,
      createTime: new Date(now).toISOString(),
    }),
  );
  return undefined;
}

function delDefaultFriends(state: OpenImState, body: OpenImBody): undefined {
  const ids = body.strList('userIDs');
  if (ids === null) throw argsError('userIDs is empty');
  const doomed = new Set(ids);
  state.store.defaultFriends.removeWhere((row) => doomed.has(String(row.userId)));
  return undefined;
}

export function siteRoutes(): OpenImRoute[] {
  return [
    // The chat API's /client_config/get needs no token; the admin API's twin needs an admin one
    // (openImRoutes sets its guard).
    { path: '/client_config/get', guard: 'none', handle: ({ state }) => getClientConfig(state) },
    { path: '/client_config/set', guard: 'admin', handle: ({ state, body }) => setClientConfig(state, body) },
    { path: '/client_config/del', guard: 'admin', handle: ({ state, body }) => delClientConfig(state, body) },
    { path: '/user/allow_register/get', guard: 'admin', handle: ({ state }) => getAllowRegister(state) },
    { path: '/user/allow_register/set', guard: 'admin', handle: ({ state, body }) => setAllowRegister(state, body) },
    {
      path: '/invitation_code/search',
      guard: 'admin',
      handle: ({ state, body }) => searchInvitationCodes(state, body),
    },
    {
      path: '/invitation_code/add',
      guard: 'admin',
      handle: ({ state, body, now }) => addInvitationCodes(state, body, now),
    },
    {
      path: '/invitation_code/gen',
      guard: 'admin',
      handle: ({ state, body, now }) => genInvitationCodes(state, body, now),
    },
    { path: '/invitation_code/del', guard: 'admin', handle: ({ state, body }) => delInvitationCodes(state, body) },
    { path: '/forbidden/ip/search', guard: 'admin', handle: ({ state, body }) => searchForbiddenIPs(state, body) },
    {
      path: '/forbidden/ip/add',
      guard: 'admin',
      handle: ({ state, body, userID, now }) => addForbiddenIPs(state, body, userID, now),
    },
    { path: '/forbidden/ip/del', guard: 'admin', handle: ({ state, body }) => delForbiddenIPs(state, body) },
    { path: '/default/user/search', guard: 'admin', handle: ({ state, body }) => searchDefaultFriends(state, body) },
    { path: '/default/user/find', guard: 'admin', handle: ({ state }) => findDefaultFriends(state) },
    {
      path: '/default/user/add',
      guard: 'admin',
      handle: ({ state, body, now }) => addDefaultFriends(state, body, now),
    },
    { path: '/default/user/del', guard: 'admin', handle: ({ state, body }) => delDefaultFriends(state, body) },
  ];
}
