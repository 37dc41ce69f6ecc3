import type { Locale } from '../store/names.js';
import type { UserRecord } from '../store/types.js';
import { OPENIM_CODES, OpenImError, argsError } from './envelope.js';
import type { OpenImBody } from './request.js';
import { UnansweredError, type OpenImRoute } from './call.js';
import type { OpenImState } from './state.js';
import { AREA_CODES, extrasOf } from './users.js';

/**
 * Users an admin registers: `/account/add_user` `{user: RegisterUserInfo}` and `/user/import/json`
 * `{users: [RegisterUserInfo]}` (`internal/api/admin/admin.go` `AddUserAccount`,
 * `ImportUserByJson`, `registerChatUser`; `internal/rpc/chat/login.go` `RegisterUser`;
 * `internal/rpc/chat/utils.go` `checkRegisterInfo`; `pkg/protocol/chat/chat.go`
 * `RegisterUserReq.Check`). Each becomes a row of the store's users.
 */

const EMAIL_CHECK = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/;
const ALPHANUMERIC = /^[A-Za-z0-9]+$/;
const DIGITS = /^\d+$/;
/** `constant.go`: how a user registered. */
const REGISTER_TYPE = { account: 0, email: 1, phone: 2 } as const;
const GENDER_OF: Readonly<Record<number, UserRecord['gender']>> = { 0: 'female', 1: 'male', 2: 'unknown' };

interface RegisterInfo {
  userID: string;
  nickname: string;
  faceURL: string;
  birth: number;
  gender: number;
  areaCode: string;
  phoneNumber: string;
  email: string;
  account: string;
  password: string;
}

function readInfo(user: OpenImBody): RegisterInfo {
  return {
    userID: user.str('userID'),
    nickname: user.str('nickname'),
    faceURL: user.str('faceURL'),
    birth: user.int('birth'),
    gender: user.int('gender'),
    areaCode: user.str('areaCode'),
    phoneNumber: user.str('phoneNumber'),
    email: user.str('email'),
    account: user.str('account'),
    password: user.str('password'),
  };
}

/** `RegisterUserReq.Check`, which the RPC's interceptor runs first: a nickname, then a phone or a valid e-mail. */
function checkRequest(info: RegisterInfo): void {
  if (info.nickname === '') throw argsError('Nickname is nil');
  if (info.email === '') {
    if (info.areaCode === '') throw argsError('AreaCode is empty');
    if (info.phoneNumber === '') throw argsError('PhoneNumber is empty');
    if (!DIGITS.test(info.phoneNumber)) throw argsError('phoneNumber is invalid');
  } else if (!EMAIL_CHECK.test(info.email)) throw argsError('Email is invalid');
}

/** `checkRegisterInfo` as an admin sees it: formats, then phone, account and e-mail already taken. */
function checkRegisterInfo(state: OpenImState, info: RegisterInfo): void {
  info.account = info.account.trim();
  if (info.phoneNumber !== '') {
    if (!info.areaCode.startsWith('+')) info.areaCode = `+${info.areaCode}`;
    if (!DIGITS.test(info.areaCode.slice(1))) throw argsError('area code must be number');
    if (!DIGITS.test(info.phoneNumber)) throw argsError('phone number must be number');
    if (state.store.users.find((u) => u.phone === info.areaCode + info.phoneNumber))
      throw new OpenImError(OPENIM_CODES.phoneAlreadyRegister, '');
  }
  if (info.account !== '') {
    if (!ALPHANUMERIC.test(info.account)) throw argsError('account must be alphanumeric');
    if (state.store.userByAccount(info.account)) throw new OpenImError(OPENIM_CODES.accountAlreadyRegister, '');
  }
  if (info.email !== '') {
    if (!EMAIL_CHECK.test(info.email)) throw argsError('invalid email');
    // OpenIM looks the e-mail up among the accounts (TakeAttributeByAccount), not the e-mails.
    if (state.store.userByAccount(info.email)) throw new OpenImError(OPENIM_CODES.emailAlreadyRegister, '');
  }
}

const localeOf = (areaCode: string): Locale =>
  (Object.entries(AREA_CODES).find(([, code]) => code === areaCode)?.[0] as Locale | undefined) ?? 'en';

/**
 * `RegisterUser` for an admin caller: checks, then the user. A chosen `userID` already taken is
 * refused; a free one cannot be kept, as the store numbers its users itself.
 */
function register(state: OpenImState, info: RegisterInfo, ip: string, now: number): UserRecord {
  checkRequest(info);
  checkRegisterInfo(state, info);
  if (info.userID !== '' && state.userByID(info.userID)) throw argsError('appoint user id already register');
  const phone = info.phoneNumber === '' ? '' : info.areaCode + info.phoneNumber;
  const time = new Date(now).toISOString();
  const user = state.store.users.insert({
    avatar: info.faceURL,
    // The store needs an account to find a user by; without one the phone (or e-mail) stands in, and OpenIM's empty one is kept aside.
    account: info.account || phone || info.email,
    nickname: info.nickname,
    phone,
    status: 'normal',
    channel: 'official',
    privileged: false,
    balance: 0,
    registerTime: time,
    // Never logged in; the store's lists want a time, so the registration's.
    lastLoginTime: time,
    lastLoginIp: '',
    realName: '',
    gender: GENDER_OF[info.gender] ?? 'unknown',
    region: '',
    locale: localeOf(info.areaCode),
    registerIp: ip,
    // constant.AdminPlatformID: the admin console, a web client.
    device: 'web',
    online: false,
    inviteCode: '',
  });
  const more = extrasOf(state, user);
  if (info.account === '') more.account = '';
  if (info.areaCode !== '' && phone !== '') more.areaCode = info.areaCode;
  if (info.email !== '') more.email = info.email;
  if (info.birth !== 0) more.birth = info.birth;
  // The last kind given wins, in OpenIM's order: phone, account, e-mail.
  more.registerType =
    info.email !== '' ? REGISTER_TYPE.email : info.account !== '' ? REGISTER_TYPE.account : REGISTER_TYPE.phone;
  state.userPasswords.set(String(user.id), info.password);
  return user;
}

/**
 * `/account/add_user`. The API's ParseRequest never runs `AddUserAccountReq.Check` (it validates
 * a pointer to the pointer), and a failed registration returns without writing an answer: gin
 * then sends HTTP 200 with an empty body. Only a body that does not bind is answered (1001).
 */
function addUser(state: OpenImState, body: OpenImBody, ip: string, now: number): undefined {
  const user = body.obj('user');
  const info = user ? readInfo(user) : null;
  try {
    // A nil user panics in the RPC's Check (it reads the nickname first); the panic is an error too.
    if (!info) throw new OpenImError(OPENIM_CODES.internal, 'panic: nil user', true);
    register(state, info, ip, now);
  } catch (error) {
    throw new UnansweredError(error);
  }
  return undefined;
}

/** `/user/import/json`: one by one; the first failure is answered and the users before it stay registered. */
function importUsers(state: OpenImState, body: OpenImBody, ip: string, now: number): undefined {
  const infos = (body.list('users') ?? []).map(readInfo);
  if (infos.length === 0) throw argsError('users is empty');
  for (const info of infos) register(state, info, ip, now);
  return undefined;
}

export function registerRoutes(): OpenImRoute[] {
  return [
    { path: '/account/add_user', guard: 'admin', handle: ({ state, body, ip, now }) => addUser(state, body, ip, now) },
    {
      path: '/user/import/json',
      guard: 'admin',
      handle: ({ state, body, ip, now }) => importUsers(state, body, ip, now),
    },
  ];
}
