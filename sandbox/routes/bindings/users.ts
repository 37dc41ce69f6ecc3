import { randomBytes } from 'node:crypto';
import type { GroupDetail, UserDetail } from '../../../server/contract/index.js';
import { GROUPS, USERS } from '../../../server/contract/index.js';
import { CODES, SandboxError, badRequest } from '../../errors.js';
import { Prng } from '../../lib/prng.js';
import { DAY, iso } from '../../lib/time.js';
import type { SandboxStore } from '../../store/sandbox-store.js';
import type { GroupRecord, UserRecord } from '../../store/types.js';
import { type ListBinding, listBinding } from '../resources.js';

/** Chat users and groups: profile edits, bans, passwords, privilege, mute and dissolve. */

const MOMENTS = [
  '今天天气真好 ☀️',
  'Weekend hike done! 🥾',
  'Nueva receta: paella de mariscos 🥘',
  '東京タワーに行ってきました',
  '加班到深夜，终于上线了',
  'Coffee first ☕',
  'Feliz cumpleaños a mi hermana 🎂',
  '新しいカメラを買いました📷',
  '周末带娃去动物园',
  'Reading "The Three-Body Problem"',
];

const PASSWORD_ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function newPassword(): string {
  const bytes = randomBytes(10);
  let out = '';
  for (const byte of bytes) out += PASSWORD_ALPHABET[byte % PASSWORD_ALPHABET.length];
  return out;
}

/** A user's moments are not stored; they are drawn from the user's id so every visit shows the same ones. */
function momentsOf(store: SandboxStore, user: UserRecord, now: number): UserDetail['moments'] {
  const prng = new Prng(store.seed ^ user.id);
  const since = Date.parse(user.registerTime);
  const count = prng.int(0, 6);
  const moments: UserDetail['moments'] = [];
  for (let i = 0; i < count; i++) {
    moments.push({
      id: user.id * 100 + i + 1,
      content: prng.pick(MOMENTS),
      likes: prng.int(0, 120),
      comments: prng.int(0, 30),
      createTime: iso(since + Math.floor(prng.next() * Math.max(DAY, now - since))),
    });
  }
  return moments.sort((a, b) => (a.createTime < b.createTime ? 1 : -1));
}

export function userDetail(store: SandboxStore, user: UserRecord, now: number): UserDetail {
  let totalRecharge = 0;
  let totalWithdraw = 0;
  for (const bill of store.bills.all()) {
    if (bill.userId !== user.id) continue;
    if (bill.type === 'recharge') totalRecharge += bill.amount;
  }
  let frozen = 0;
  for (const w of store.withdrawals.all()) {
    if (w.userId !== user.id) continue;
    if (w.state === 'pending') frozen += w.amount;
    else if (w.state === 'approved') totalWithdraw += w.amount;
  }
  const groups: UserDetail['groups'] = [];
  for (const [groupId, members] of store.members) {
    const member = members.find((m) => m.userId === user.id);
    const group = member && store.groups.get(groupId);
    if (member && group) groups.push({ id: group.id, name: group.name, role: member.role, joinTime: member.joinTime });
  }
  return {
    user: { ...user },
    wallet: { balance: user.balance, frozen, totalRecharge, totalWithdraw },
    moments: momentsOf(store, user, now),
    groups,
    recentLogins: store
      .loginsOf(user.id)
      .slice(0, 10)
      .map((r) => ({ time: r.time, ip: r.ip, device: r.device, region: r.region })),
    ...(user.status === 'banned'
      ? { ban: { reason: user.banReason ?? '', time: user.banTime ?? '', by: user.bannedBy ?? '' } }
      : {}),
  };
}

function setPrivileged(store: SandboxStore, user: UserRecord, on: boolean, now: number): void {
  user.privileged = on;
  const existing = store.privilegedUsers.find((p) => p.userId === user.id);
  if (on && !existing) {
    store.privilegedUsers.insert({
      userId: user.id,
      userAccount: user.account,
      nickname: user.nickname,
      privileges: ['vipBadge'],
      remark: '',
      createTime: iso(now),
    });
  } else if (!on && existing) store.privilegedUsers.remove([existing.id]);
}

export { setPrivileged as setUserPrivileged };

export function userBindings(store: SandboxStore): Record<string, ListBinding<never>> {
  const userOf = (id: number) => {
    const user = store.users.get(id);
    if (!user) throw new SandboxError(CODES.notFound, `User ${id} not found`);
    return user;
  };
  const ban = (ids: number[], reason: string, by: string, now: number) => {
    let updated = 0;
    for (const id of ids) {
      const user = userOf(id);
      if (user.status === 'banned') continue;
      Object.assign(user, { status: 'banned', online: false, banReason: reason, banTime: iso(now), bannedBy: by });
      store.onlineSessions.remove([user.id]);
      updated++;
    }
    return { updated };
  };

  const users: ListBinding<UserRecord> = {
    collection: store.users,
    detail: (user, ctx) => userDetail(store, user, ctx.now),
    prepare(values) {
      if (typeof values.phone === 'string' && values.phone !== '' && !/^\+?[0-9 -]{5,20}$/.test(values.phone))
        throw badRequest('手机号格式错误');
    },
    actions: {
      ban: ({ ids, inputs, ctx }) => ban(ids ?? [], String(inputs.reason), ctx.admin.account, ctx.now),
      unban({ ids }) {
        for (const id of ids ?? [])
          Object.assign(userOf(id), {
            status: 'normal',
            banReason: undefined,
            banTime: undefined,
            bannedBy: undefined,
          });
        return { updated: ids?.length ?? 0 };
      },
      resetPassword({ ids }) {
        userOf(ids![0]!);
        const password = newPassword();
        store.onlineSessions.remove(ids!);
        userOf(ids![0]!).online = false;
        return { password };
      },
      setPrivileged({ ids, ctx }) {
        for (const id of ids ?? []) setPrivileged(store, userOf(id), true, ctx.now);
        return { updated: ids?.length ?? 0 };
      },
      unsetPrivileged({ ids, ctx }) {
        for (const id of ids ?? []) setPrivileged(store, userOf(id), false, ctx.now);
        return { updated: ids?.length ?? 0 };
      },
    },
  };

  const groupOf = (id: number) => {
    const group = store.groups.get(id);
    if (!group) throw new SandboxError(CODES.notFound, `Group ${id} not found`);
    return group;
  };
  const groups: ListBinding<GroupRecord> = {
    collection: store.groups,
    detail(group): GroupDetail {
      const members = (store.members.get(group.id) ?? []).flatMap((m) => {
        const user = store.users.get(m.userId);
        return user
          ? [
              {
                userId: user.id,
                account: user.account,
                nickname: user.nickname,
                role: m.role,
                joinTime: m.joinTime,
                muted: m.muted || group.muted,
              },
            ]
          : [];
      });
      return { group: { ...group }, members };
    },
    prepare(_values, _ctx, existing) {
      if (existing?.status === 'dissolved') throw badRequest('A dissolved group cannot be edited');
    },
    actions: {
      muteAll({ ids }) {
        for (const id of ids ?? []) groupOf(id).muted = true;
        return { updated: ids?.length ?? 0 };
      },
      unmuteAll({ ids }) {
        for (const id of ids ?? []) groupOf(id).muted = false;
        return { updated: ids?.length ?? 0 };
      },
      dissolve({ ids }) {
        for (const id of ids ?? []) {
          const group = groupOf(id);
          group.status = 'dissolved';
          group.memberCount = 0;
          store.members.set(group.id, []);
          store.defaultGroups.removeWhere((d) => d.groupId === group.id);
        }
        return { updated: ids?.length ?? 0 };
      },
    },
  };

  return { [USERS.id]: listBinding(users), [GROUPS.id]: listBinding(groups) };
}
