import { randomBytes } from 'node:crypto';
import { encode } from 'uqr';
import type { AdminAccount } from '../store/accounts.js';
import { base32Secret, createAdmin } from '../store/accounts.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import { iso } from '../lib/time.js';
import { squarePng } from '../lib/png.js';
import type { ShikuHandler } from './handler.js';
import { phoneParts, shikuRole } from './records.js';
import { ROLE, type ShikuPasswords, type ShikuSessions, grantRole, roleOf } from './sessions.js';
import { InternalError, TEXT, failure, pageOf, pageResult, success } from './wire.js';

/**
 * Console administrators (AC lines 605, 2868–2986; RoleManagerImpl). In Shiku an administrator is
 * a chat user with a `userRoles` row; in the sandbox it is one of the store's admin accounts, found
 * by its telephone `86` + account, so granting a role to a chat user opens an account for it.
 */

type Map = (path: string, handler: ShikuHandler, methods?: readonly ('GET' | 'POST')[]) => void;

/** RoleManagerImpl.addAdmin's words for a role the account already has. */
const ROLE_NAMES: Readonly<Record<number, string>> = {
  5: '管理员',
  6: '系统管理员',
  1: '游客',
  4: '客服',
  2: '公众号',
  3: '机器人',
};

/** A black-on-white PNG of the matrix, `size` pixels square (QRUtil.writeToStream draws 500 × 500). */
function qrPng(text: string, size: number): Buffer {
  const matrix = encode(text, { ecc: 'L', border: 0 }).data;
  const cells = matrix.length;
  const scale = Math.max(1, Math.floor(size / cells));
  const offset = Math.floor((size - cells * scale) / 2);
  const raw = Buffer.alloc((size + 1) * size, 255);
  for (let y = 0; y < size; y++) {
    raw[y * (size + 1)] = 0;
    const row = Math.floor((y - offset) / scale);
    for (let x = 0; x < size; x++) {
      const col = Math.floor((x - offset) / scale);
      if (row >= 0 && row < cells && col >= 0 && col < cells && matrix[row]![col]) raw[y * (size + 1) + 1 + x] = 0;
    }
  }
  return squarePng(size, raw);
}

export function registerAdmins(
  map: Map,
  store: SandboxStore,
  deps: { sessions: ShikuSessions; passwords: ShikuPasswords },
): void {
  const byTelephone = (telephone: string) => store.accounts.find((a) => `86${a.account}` === telephone);
  const byUserId = (userId: string) => store.accounts.find((a) => a.userId === userId);
  const editor = (admin: AdminAccount | null) =>
    admin !== null && [ROLE.superAdmin, ROLE.admin].includes(roleOf(admin) as 5 | 6);
  const log = (admin: AdminAccount | null, action: 'create' | 'update' | 'delete', detail: string, now: number) =>
    store.logOperation({ adminAccount: admin?.account ?? '', action, module: 'admins', detail, ip: '127.0.0.1' }, now);

  // AC adminList: the caller named by `adminId` (its telephone) must be an admin or super admin and
  // may not list its own role; type 0 lists roles 5 and 6 but the `userId` given; keyWorld matches
  // the phone; newest first.
  map('/console/adminList', ({ params, now }) => {
    const adminId = params.requiredStr('adminId');
    const page = params.int('page', 1);
    const limit = params.int('limit', 10);
    const keyWorld = params.str('keyWorld').toLowerCase();
    const type = params.int('type', 0);
    const userId = params.int('userId', 0);
    const caller = byTelephone(adminId);
    // getUser(adminId).getUserId() on an unknown telephone: a NullPointerException, caught, whose
    // message is null, so the failure carries no text.
    if (!caller) return { resultCode: 0, currentTime: now };
    const callerRole = roleOf(caller);
    if ((callerRole !== ROLE.admin && callerRole !== ROLE.superAdmin) || callerRole === type)
      return failure(now, TEXT.noPermission);
    const rows = store.accounts
      .all()
      .map((account) => ({ account, role: roleOf(account) }))
      .filter(({ account, role }) => {
        if (type === 0 ? !(role === 5 || role === 6) || account.userId === String(userId) : role !== type) return false;
        return !keyWorld || account.account.toLowerCase().includes(keyWorld);
      })
      .sort((a, b) =>
        a.account.createTime < b.account.createTime ? 1 : a.account.createTime > b.account.createTime ? -1 : 0,
      );
    return pageResult(
      now,
      pageOf(rows, page, limit).map(({ account, role }) => shikuRole(account, role)),
      rows.length,
    );
  });

  // AC addAdmin → RoleManagerImpl.addAdmin: the user with telephone areaCode + telePhone gets a role.
  // Admin or super admin only; `role` is a required byte.
  map('/console/addAdmin', ({ params, admin, now }) => {
    const areaCode = params.int('areaCode', 86);
    const telePhone = params.requiredStr('telePhone');
    const role = params.int('role');
    params.int('type', 0);
    if (role < -128 || role > 127)
      throw new InternalError(`Value out of range. Value:"${params.str('role')}" Radix:10`);
    if (!editor(admin)) return failure(now, TEXT.noPermission);
    const telephone = `${areaCode}${telePhone}`;
    const existing = byTelephone(telephone);
    const user = existing ? undefined : store.users.find((u) => phoneParts(u.phone).telephone === telephone);
    if (!existing && !user) return failure(now, '用户不存在');
    const holder = existing ?? byUserId(String(user!.id));
    if (holder) return failure(now, `该账号已经是${ROLE_NAMES[roleOf(holder)] ?? '有其他身份'}`);
    // The chat user's own password is not stored in the sandbox: the account opens with a random
    // one, and /console/updateUserPassword sets one it can log in with.
    const account = createAdmin(
      store.accounts,
      {
        account: telePhone,
        nickname: user!.nickname,
        password: randomBytes(16).toString('hex'),
        permissions: [],
        status: 'enabled',
      },
      now,
    );
    account.userId = String(user!.id);
    grantRole(account, role);
    log(admin, 'create', `addAdmin ${telephone}: role ${role}`, now);
    return success(now);
  });

  // AC modifyAdmin: `adminId` is the caller's userId (the console sends its own account); with a
  // `password` it must equal that user's md5. The caller must be an admin or super admin; then
  // RoleManagerImpl.modifyRole updates the row matching both `userId` and `role` (so the role itself
  // never changes): status 1 / -1, and answers the row.
  map('/console/modifyAdmin', ({ params, admin, now }) => {
    const adminId = params.int('adminId');
    const password = params.str('password');
    const userId = params.optionalInt('userId');
    const role = params.int('role', 0);
    const status = params.int('status', 0);
    if (!editor(admin)) return failure(now, TEXT.noPermission);
    const caller = byUserId(String(adminId));
    if (password !== '' && !caller) throw new InternalError('java.lang.NullPointerException');
    if (password !== '' && !deps.passwords.matches(caller!, password)) return failure(now, '密码有误');
    const callerRole = caller ? roleOf(caller) : null;
    // `oAdmin != null && role == 6 || role == 5`: no caller row is a NullPointerException, caught,
    // with no message.
    if (callerRole === null) return { resultCode: 0, currentTime: now };
    if (callerRole !== 6 && callerRole !== 5) return failure(now, TEXT.noPermission);
    const target = userId === null ? undefined : byUserId(String(userId));
    if (!target || roleOf(target) !== role) return success(now);
    if (status === -1 || status === 1) {
      target.status = status === -1 ? 'disabled' : 'enabled';
      log(admin, 'update', `modifyAdmin #${target.id}: status ${status}`, now);
    }
    return success(now, shikuRole(target, role));
  });

  // AC delAdmin → RoleManagerImpl.delAdminById: `adminId` (a userId) and `type` required; updateFriend
  // then deletes every role row of the user, whatever `type` named. Built-in accounts stay (see README).
  map('/console/delAdmin', ({ params, admin, now }) => {
    const adminId = params.requiredStr('adminId');
    params.int('type');
    if (!editor(admin)) return failure(now, TEXT.noPermission);
    if (!/^[-+]?\d+$/.test(adminId)) return failure(now, `For input string: "${adminId}"`);
    const target = byUserId(String(Number(adminId)));
    if (target?.builtIn) return failure(now, '内置账号不可删除');
    if (target) {
      store.accounts.remove([target.id]);
      deps.sessions.close(target.id);
      log(admin, 'delete', `delAdmin #${target.id}`, now);
    }
    return success(now);
  });

  // AC genSecret: GET only, no role check; `nickName` is the telephone without 86. A secret already
  // set is reused, else a new one is stored at once (no confirming code), and the answer is a PNG of
  // otpauth://totp/<nickName>?secret=<secret>. An unknown telephone is a NullPointerException.
  map(
    '/console/google/qrcreate',
    ({ params, reply, now }) => {
      const nickName = params.values.get('nickName') ?? 'null';
      const account = byTelephone(`86${nickName}`);
      if (!account) throw new InternalError('java.lang.NullPointerException');
      if (!account.googleSecret) {
        Object.assign(account, {
          googleSecret: base32Secret(randomBytes(10)),
          googleBound: true,
          googlePendingSecret: null,
          boundTime: iso(now),
        });
      }
      reply
        .code(200)
        .header('content-type', 'image/png')
        .send(qrPng(`otpauth://totp/${nickName}?secret=${account.googleSecret}`, 500));
      return null;
    },
    ['GET'],
  );
}
