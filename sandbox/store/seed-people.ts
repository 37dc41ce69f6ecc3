import type { Prng } from '../lib/prng.js';
import { DAY, HOUR, MINUTE, iso } from '../lib/time.js';
import { makeGroupName, makePerson } from './names.js';
import type { Device, GroupRecord, UserRecord } from './types.js';

/** How far back the product's history reaches. */
export const HISTORY_DAYS = 180;

function ip(prng: Prng): string {
  // Public-looking ranges only; 10/8, 127/8 and 192.168/16 would look wrong in a login log.
  return `${prng.pick([36, 58, 101, 112, 113, 117, 183, 185, 203, 212, 84, 91])}.${prng.int(0, 255)}.${prng.int(0, 255)}.${prng.int(1, 254)}`;
}

/** Public numbers start high, as the chat product's do; new users continue the sequence. */
export const FIRST_USER_ID = 100_001;
export const FIRST_GROUP_ID = 800_001;

export function userAvatar(id: number): string {
  return `avatars/${id}.png`;
}

export function groupAvatar(id: number): string {
  return `avatars/group-${id}.png`;
}

/** Registrations grow over time: density rises towards today, as a product that is catching on. */
function registerTime(prng: Prng, now: number): number {
  const start = now - HISTORY_DAYS * DAY;
  const x = Math.pow(prng.next(), 1 / 1.6);
  return Math.min(now - MINUTE, Math.floor(start + x * (now - start)));
}

const BAN_REASONS: readonly string[] = [
  '广告刷屏',
  'Spam links in groups',
  'Estafa a otros usuarios',
  '迷惑行為の繰り返し',
];
const BANNED_BY: readonly string[] = ['admin', 'operator', 'support_tanaka'];

/**
 * A seeded ban: why, when (just after the user's last login) and by whom, read off the user's id
 * rather than drawn, so every other seeded value stays as it was.
 */
function seededBan(
  id: number,
  lastLoginTime: number,
  now: number,
): Pick<UserRecord, 'banReason' | 'banTime' | 'bannedBy'> {
  return {
    banReason: BAN_REASONS[id % BAN_REASONS.length]!,
    banTime: iso(Math.min(now, lastLoginTime + HOUR)),
    bannedBy: BANNED_BY[id % BANNED_BY.length]!,
  };
}

export function seedUsers(prng: Prng, count: number, now: number): UserRecord[] {
  const drafts = [];
  for (let i = 0; i < count; i++) drafts.push({ person: makePerson(prng), registered: registerTime(prng, now) });
  // Ids follow registration order, like an auto-increment key.
  drafts.sort((a, b) => a.registered - b.registered);

  return drafts.map(({ person, registered }, index) => {
    const id = FIRST_USER_ID + index;
    const recentness = prng.next();
    const lastLoginTime = Math.min(
      now,
      registered + Math.floor((now - registered) * (1 - recentness * recentness * recentness)),
    );
    const device: Device = prng.weighted([
      ['android', 45],
      ['ios', 35],
      ['web', 12],
      ['pc', 8],
    ]);
    const banned = prng.chance(0.03);
    return {
      id,
      avatar: userAvatar(id),
      account: prng.chance(0.6) ? person.phone : person.handle,
      nickname: person.nickname,
      phone: person.phone,
      status: banned ? 'banned' : 'normal',
      channel: prng.weighted<UserRecord['channel']>([
        ['official', 20],
        ['appStore', device === 'ios' ? 60 : 0],
        ['googlePlay', device === 'android' ? 30 : 0],
        ['huawei', device === 'android' && person.region === 'CN' ? 25 : 0],
        ['xiaomi', device === 'android' && person.region === 'CN' ? 20 : 0],
        ['web', device === 'web' || device === 'pc' ? 50 : 2],
        ['invite', 15],
      ]),
      privileged: prng.chance(0.02),
      balance: 0,
      registerTime: iso(registered),
      lastLoginTime: iso(lastLoginTime),
      lastLoginIp: ip(prng),
      realName: person.realName,
      gender: prng.weighted([
        ['male', 46],
        ['female', 46],
        ['unknown', 8],
      ]),
      region: person.region,
      locale: person.locale,
      registerIp: ip(prng),
      device,
      online: !banned && now - lastLoginTime < 2 * HOUR && prng.chance(0.7),
      inviteCode: prng.digits(6),
      ...(banned ? seededBan(id, lastLoginTime, now) : {}),
    } satisfies UserRecord;
  });
}

const NOTICES: readonly string[] = [
  '',
  '',
  '请文明发言，禁止广告。',
  'No spam, be kind.',
  'Sin publicidad, por favor.',
  '宣伝は禁止です。',
  '每周日晚8点群活动',
];

export function seedGroups(prng: Prng, count: number, users: readonly UserRecord[], now: number): GroupRecord[] {
  const drafts: { group: Omit<GroupRecord, 'createTime'>; createTime: number }[] = [];
  for (let i = 0; i < count; i++) {
    const owner = prng.pick(users);
    const ownerSince = Date.parse(owner.registerTime);
    const createTime = ownerSince + Math.floor(prng.next() * (now - ownerSince));
    const maxMembers = prng.pick([200, 500, 500, 1000, 2000]);
    drafts.push({
      createTime,
      group: {
        id: 0,
        avatar: '',
        name: makeGroupName(prng, i),
        ownerId: owner.id,
        ownerAccount: owner.account,
        ownerNickname: owner.nickname,
        memberCount: Math.min(maxMembers, Math.max(3, Math.round(Math.exp(prng.next() * 6)))),
        maxMembers,
        muted: prng.chance(0.06),
        status: prng.chance(0.03) ? 'dissolved' : 'normal',
        notice: prng.pick(NOTICES),
      },
    });
  }
  drafts.sort((a, b) => a.createTime - b.createTime);
  return drafts.map(({ group, createTime }, index) => {
    const id = FIRST_GROUP_ID + index;
    return { ...group, id, avatar: groupAvatar(id), createTime: iso(createTime) };
  });
}
