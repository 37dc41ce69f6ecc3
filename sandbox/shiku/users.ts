import type { SandboxStore } from '../store/sandbox-store.js';
import { iso } from '../lib/time.js';
import type { ShikuHandler } from './handler.js';
import { phoneParts } from './records.js';
import { ROLE, roleOf } from './sessions.js';
import { ServiceError, TEXT, failure, success } from './wire.js';

/**
 * AC saveUserMsg (`/console/updateUser`, line 1050): `userId` 0 registers a user
 * (UserManagerImpl.registerIMUser), any other edits one (UserRepositoryImpl.updateUser), from
 * UserExample's fields. The password comes in plain text and Shiku stores its md5; the sandbox
 * keeps no chat-user passwords, so it is dropped.
 */

type Map = (path: string, handler: ShikuHandler, methods?: readonly ('GET' | 'POST')[]) => void;

export function registerUsers(map: Map, store: SandboxStore): void {
  const byTelephone = (telephone: string) => store.users.find((u) => phoneParts(u.phone).telephone === telephone);

  map('/console/updateUser', ({ params, admin, now }) => {
    const userId = params.int('userId', 0);
    if (admin === null || ![ROLE.superAdmin, ROLE.admin].includes(roleOf(admin) as 5 | 6))
      return failure(now, TEXT.noPermission);
    const areaCode = params.str('areaCode', '86');
    const phone = params.str('telephone');
    // The handler moves the typed number to `phone` and prefixes the area code for `telephone`.
    const telephone = phone === '' ? '' : `${areaCode}${phone}`;
    const nickname = params.str('nickname');
    const sex = params.optionalInt('sex');
    const name = params.values.get('name');
    const account = params.str('account');
    params.optionalInt('userType');

    if (userId === 0) {
      // registerIMUser: a telephone already registered is refused; uncaught, it reaches the advice.
      if (telephone !== '' && byTelephone(telephone)) throw new ServiceError('手机号已被注册');
      const created = store.users.insert({
        avatar: '',
        account: account || '',
        nickname,
        phone: telephone === '' ? '' : `+${telephone}`,
        status: 'normal',
        channel: 'official',
        privileged: false,
        balance: 0,
        registerTime: iso(Math.floor(now / 1000) * 1000),
        lastLoginTime: iso(Math.floor(now / 1000) * 1000),
        lastLoginIp: '',
        realName: name ?? '',
        // User.sex: 1 male, 0 female (UserExample's comment says the opposite; the stored field is User's).
        gender: sex === null ? 'unknown' : sex === 1 ? 'male' : 'female',
        region: areaCode === '86' ? 'CN' : '',
        locale: 'zh',
        registerIp: '',
        device: 'web',
        online: false,
        inviteCode: params.str('inviteCode'),
      });
      // Shiku's account defaults to the user id when none is given.
      if (created.account === '') created.account = String(created.id);
      store.logOperation(
        {
          adminAccount: admin.account,
          action: 'create',
          module: 'users',
          detail: `updateUser #${created.id}`,
          ip: '127.0.0.1',
        },
        now,
      );
      return success(now, created.id);
    }

    const user = store.users.get(userId);
    // getUser(userId) of an unknown id is null, and the update reads it: a NullPointerException.
    if (!user) throw new Error('java.lang.NullPointerException');
    if (account !== '') {
      // An account may be set once; Shiku counts the changes, the sandbox only knows it was given one.
      if (user.account !== '' && user.account !== String(user.id)) throw new ServiceError('账号只能修改一次 ');
      if (account.length > 18) throw new ServiceError('通讯号最长十八位');
      if (store.users.find((u) => u.account === account && u.id !== user.id)) throw new ServiceError('账号已存在 ');
      // An account change is saved alone: updateUser returns right after it.
      user.account = account;
    } else {
      if (nickname !== '') user.nickname = nickname;
      if (telephone !== '') user.phone = `+${telephone}`;
      if (sex !== null) user.gender = sex === 1 ? 'male' : 'female';
      if (name !== undefined) user.realName = name;
    }
    store.logOperation(
      {
        adminAccount: admin.account,
        action: 'update',
        module: 'users',
        detail: `updateUser #${user.id}`,
        ip: '127.0.0.1',
      },
      now,
    );
    return success(now, user.id);
  });
}
