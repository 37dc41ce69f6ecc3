import { APP_PLATFORMS } from '../../server/contract/index.js';
import type { Prng } from '../lib/prng.js';
import { DAY, HOUR, MINUTE, iso } from '../lib/time.js';
import type {
  AppVersionRecord,
  GroupMember,
  GroupRedEnvelopeRecord,
  PersonalRedEnvelopeRecord,
  RechargeChannelRecord,
} from './records.js';
import type { BillRecord, GroupRecord, UserRecord } from './types.js';

export function seedRechargeChannels(): RechargeChannelRecord[] {
  const rows: Omit<RechargeChannelRecord, 'id'>[] = [
    {
      name: '支付宝',
      method: 'alipay',
      minAmount: 1_000,
      maxAmount: 5_000_000,
      feePercent: 0.6,
      gatewayUrl: 'https://openapi.alipay.com/gateway.do',
      enabled: true,
      sort: 10,
    },
    {
      name: '微信支付',
      method: 'wechat',
      minAmount: 1_000,
      maxAmount: 5_000_000,
      feePercent: 0.6,
      gatewayUrl: 'https://api.mch.weixin.qq.com/v3/pay',
      enabled: true,
      sort: 20,
    },
    {
      name: 'Bank card (UnionPay)',
      method: 'bankCard',
      minAmount: 10_000,
      maxAmount: 20_000_000,
      feePercent: 0.3,
      gatewayUrl: 'https://gateway.unionpay.example.com/pay',
      enabled: true,
      sort: 30,
    },
    {
      name: 'USDT (TRC20)',
      method: 'usdt',
      minAmount: 10_000,
      maxAmount: 100_000_000,
      feePercent: 1,
      gatewayUrl: 'https://pay.crypto.example.com/api',
      enabled: true,
      sort: 40,
    },
    {
      name: 'Apple Pay',
      method: 'applePay',
      minAmount: 600,
      maxAmount: 1_000_000,
      feePercent: 3,
      gatewayUrl: '',
      enabled: false,
      sort: 50,
    },
  ];
  return rows.map((row, i) => ({ id: i + 1, ...row }));
}

/** Members of every group: the owner, a few admins, the rest drawn from the users who existed by then. */
export function seedMembers(
  prng: Prng,
  groups: readonly GroupRecord[],
  users: readonly UserRecord[],
  now: number,
): Map<number, GroupMember[]> {
  const members = new Map<number, GroupMember[]>();
  for (const group of groups) {
    const created = Date.parse(group.createTime);
    const list: GroupMember[] = [{ userId: group.ownerId, role: 'owner', joinTime: group.createTime, muted: false }];
    const taken = new Set([group.ownerId]);
    // Users are in registration order, so the ones who could have joined are a prefix of the list.
    let eligible = users.length;
    while (eligible > 0 && users[eligible - 1]!.registerTime > group.createTime) eligible--;
    const pool = Math.max(eligible, Math.min(users.length, group.memberCount * 2));
    for (let tries = 0; list.length < group.memberCount && tries < group.memberCount * 4; tries++) {
      const user = users[prng.int(0, pool - 1)]!;
      if (taken.has(user.id)) continue;
      taken.add(user.id);
      const since = Math.max(created, Date.parse(user.registerTime));
      list.push({
        userId: user.id,
        role: list.length <= 3 && prng.chance(0.5) ? 'admin' : 'member',
        joinTime: iso(Math.min(now, since + Math.floor(prng.next() * Math.max(MINUTE, now - since)))),
        muted: prng.chance(0.02),
      });
    }
    group.memberCount = list.length;
    members.set(group.id, list);
  }
  return members;
}

const GREETINGS = [
  '恭喜发财，大吉大利',
  '生日快乐 🎂',
  'Happy birthday!',
  'Thanks for dinner',
  '¡Felicidades!',
  'おめでとう！',
  '新年快乐',
  'For the coffee ☕',
  '',
];

/**
 * Red envelope records behind the ledger's redPackSend bills, so the finance pages and the
 * wallets agree: the amount of each envelope is the amount that left the sender's wallet.
 */
export function seedRedEnvelopes(
  prng: Prng,
  bills: readonly BillRecord[],
  users: readonly UserRecord[],
  groups: readonly GroupRecord[],
  now: number,
): { personal: PersonalRedEnvelopeRecord[]; group: GroupRedEnvelopeRecord[] } {
  const byName = new Map<string, GroupRecord>();
  for (const group of groups) if (!byName.has(group.name)) byName.set(group.name, group);
  const personal: PersonalRedEnvelopeRecord[] = [];
  const inGroups: GroupRedEnvelopeRecord[] = [];
  for (const bill of bills) {
    if (bill.type !== 'redPackSend') continue;
    const time = Date.parse(bill.createTime);
    const recent = now - time < DAY;
    const amount = -bill.amount;
    const groupName = bill.remark.startsWith('Red envelope to group ')
      ? bill.remark.slice('Red envelope to group '.length)
      : null;
    const group = groupName === null ? undefined : byName.get(groupName);
    if (group) {
      const count = Math.max(1, Math.min(amount, prng.pick([3, 5, 8, 10, 20, 50])));
      const state = recent && prng.chance(0.5) ? 'ongoing' : prng.chance(0.08) ? 'refunded' : 'finished';
      inGroups.push({
        id: inGroups.length + 1,
        senderId: bill.userId,
        senderAccount: bill.userAccount,
        groupId: group.id,
        groupName: group.name,
        amount,
        count,
        receivedCount: state === 'finished' ? count : prng.int(0, count - 1),
        state,
        createTime: bill.createTime,
      });
    } else {
      const receiver = prng.pick(users);
      const state = recent && prng.chance(0.5) ? 'pending' : prng.chance(0.06) ? 'refunded' : 'received';
      personal.push({
        id: personal.length + 1,
        senderId: bill.userId,
        senderAccount: bill.userAccount,
        receiverAccount: receiver.account,
        amount,
        greeting: prng.pick(GREETINGS),
        state,
        createTime: bill.createTime,
        receiveTime: state === 'received' ? iso(Math.min(now, time + prng.int(1, 180) * MINUTE)) : null,
      });
    }
  }
  return { personal, group: inGroups };
}

const NOTES = [
  '修复了若干已知问题，提升稳定性。',
  'Voice messages up to 5 minutes; faster group loading.',
  'Nuevo modo oscuro y mejoras de batería.',
  'グループ通話の品質を改善しました。',
  'Security fixes. Updating is strongly recommended.',
];

function downloadUrl(platform: AppVersionRecord['platform'], version: string): string {
  if (platform === 'ios') return 'https://apps.apple.com/app/id1234567890';
  const file =
    platform === 'android'
      ? `chat-${version}.apk`
      : platform === 'windows'
        ? `ChatSetup-${version}.exe`
        : `Chat-${version}.dmg`;
  return `https://download.chat.example.com/${platform}/${file}`;
}

/** Roughly what each installer weighs; every release grows a little. */
const PACKAGE_BYTES: Record<Exclude<AppVersionRecord['platform'], 'ios'>, number> = {
  android: 58_000_000,
  windows: 96_000_000,
  mac: 112_000_000,
};

export function seedAppVersions(prng: Prng, now: number): AppVersionRecord[] {
  const drafts: Omit<AppVersionRecord, 'id'>[] = [];
  for (const platform of APP_PLATFORMS) {
    let build = platform === 'ios' ? 380 : platform === 'android' ? 3_600 : 120;
    const releases = platform === 'android' || platform === 'ios' ? 8 : 5;
    for (let i = 0; i < releases; i++) {
      const minor = 1 + i;
      const version = `3.${minor}.${prng.int(0, 3)}`;
      build += prng.int(3, 40);
      drafts.push({
        platform,
        version,
        buildNumber: build,
        downloadUrl: downloadUrl(platform, version),
        mirrorUrl:
          platform === 'ios' || prng.chance(0.3) ? '' : `https://cdn-asia.chat.example.com/${platform}/${version}`,
        packageSize:
          platform === 'ios' ? null : PACKAGE_BYTES[platform] + i * 1_350_000 + ((build * 7_919) % 1_000_000),
        forceUpdate: i === 4 && platform === 'android',
        releaseNotes: prng.pick(NOTES),
        publishTime: iso(now - (releases - i) * 20 * DAY - prng.int(0, 48) * HOUR),
      });
    }
  }
  drafts.sort((a, b) => (a.publishTime < b.publishTime ? -1 : 1));
  return drafts.map((draft, i) => ({ id: i + 1, ...draft }));
}
