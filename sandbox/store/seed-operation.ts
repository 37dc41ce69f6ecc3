import type { SEGMENTS } from '../../server/contract/index.js';
import { LIMITED_ACTIONS } from '../../server/contract/index.js';
import type { Prng } from '../lib/prng.js';
import { DAY, HOUR, MINUTE, iso } from '../lib/time.js';
import type {
  DistributionAddressRecord,
  FrequencyLimitRecord,
  IpBlacklistRecord,
  LoginRecord,
  MassMessageRecord,
  OnlineSessionRecord,
  OperationLogRecord,
  SuggestionRecord,
} from './records.js';
import type { UserRecord } from './types.js';

/** Operations tables: logins, live sessions, broadcasts, feedback, address lists and the admin audit trail. */

type Seeded<T> = T[];

export function randomIp(prng: Prng): string {
  return `${prng.pick([36, 58, 101, 112, 113, 117, 183, 185, 203, 212, 84, 91])}.${prng.int(0, 255)}.${prng.int(0, 255)}.${prng.int(1, 254)}`;
}

/** Enough history for the login page and every user's recent logins, bounded for a 100,000-user bench. */
export function seedLoginRecords(prng: Prng, users: readonly UserRecord[], now: number): Seeded<LoginRecord> {
  const count = Math.min(users.length * 4, 60_000);
  const drafts: Omit<LoginRecord, 'id'>[] = [];
  for (const user of users.length <= count ? users : []) {
    // Each user's last login is on record.
    drafts.push({
      userId: user.id,
      account: user.account,
      ip: user.lastLoginIp,
      region: user.region,
      device: user.device,
      result: 'success',
      time: user.lastLoginTime,
    });
  }
  while (drafts.length < count) {
    const user = prng.pick(users);
    const since = Date.parse(user.registerTime);
    const recent = 1 - Math.pow(prng.next(), 3);
    const time = Math.floor(since + recent * (now - since));
    const result =
      user.status === 'banned' && prng.chance(0.3)
        ? 'banned'
        : prng.weighted<LoginRecord['result']>([
            ['success', 90],
            ['wrongPassword', 8],
            ['blockedIp', 1],
          ]);
    drafts.push({
      userId: user.id,
      account: user.account,
      ip: prng.chance(0.7) ? user.lastLoginIp : randomIp(prng),
      region: user.region,
      device: prng.chance(0.8) ? user.device : prng.pick(['android', 'ios', 'web', 'pc'] as const),
      result,
      time: iso(time),
    });
  }
  drafts.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  return drafts.map((draft, index) => ({ id: index + 1, ...draft }));
}

export function seedOnlineSessions(users: readonly UserRecord[]): Seeded<OnlineSessionRecord> {
  return users
    .filter((u) => u.online)
    .map((u) => ({
      id: u.id,
      account: u.account,
      nickname: u.nickname,
      device: u.device,
      ip: u.lastLoginIp,
      region: u.region,
      loginTime: u.lastLoginTime,
    }));
}

/** How many users a broadcast to the segment reaches. */
export function segmentCount(users: readonly UserRecord[], segment: (typeof SEGMENTS)[number], now: number): number {
  const weekAgo = iso(now - 7 * DAY);
  const monthAgo = iso(now - 30 * DAY);
  let n = 0;
  for (const u of users) {
    if (u.status !== 'normal') continue;
    if (
      segment === 'all' ||
      (segment === 'android' && u.device === 'android') ||
      (segment === 'ios' && u.device === 'ios') ||
      (segment === 'active7d' && u.lastLoginTime >= weekAgo) ||
      (segment === 'newUsers30d' && u.registerTime >= monthAgo) ||
      (segment === 'privileged' && u.privileged) ||
      // Connected now: kept in step with the online sessions by every logout, kick and ban.
      (segment === 'online' && u.online)
    ) {
      n++;
    }
  }
  return n;
}

const BROADCASTS: readonly [title: string, content: string, segment: (typeof SEGMENTS)[number]][] = [
  ['新版本上线', '3.8 版本已发布：语音消息更长，群聊更流畅。前往应用商店更新。', 'all'],
  ['Weekend bonus', 'Sign in this weekend for double rewards!', 'active7d'],
  ['欢迎新朋友', '感谢注册！完善资料即可领取新人红包。', 'newUsers30d'],
  ['Actualiza tu app', 'La nueva versión mejora la batería en Android.', 'android'],
  ['iOS アップデート', 'iOS 版の不具合を修正しました。最新版に更新してください。', 'ios'],
  ['VIP 专属活动', '尊贵的会员，本月专属福利已发放到您的钱包。', 'privileged'],
  ['Security reminder', 'We will never ask for your verification code. Stay safe.', 'all'],
  ['春节快乐', '新春快乐！群红包活动火热进行中 🧧', 'all'],
];

export function seedMassMessages(prng: Prng, users: readonly UserRecord[], now: number): Seeded<MassMessageRecord> {
  const count = 36;
  const drafts: Omit<MassMessageRecord, 'id'>[] = [];
  for (let i = 0; i < count; i++) {
    const [title, content, segment] = BROADCASTS[i % BROADCASTS.length]!;
    const time = now - Math.floor(((count - i) / count) * 170 * DAY) + prng.int(0, 12) * HOUR;
    const targetCount = Math.round(segmentCount(users, segment, now) * (0.6 + 0.4 * (i / count)));
    const failed = prng.chance(0.05);
    drafts.push({
      title,
      content,
      segment,
      state: failed ? 'failed' : 'sent',
      targetCount,
      deliveredCount: failed
        ? Math.floor(targetCount * prng.next() * 0.3)
        : targetCount - Math.floor(targetCount * (0.005 + prng.next() * 0.025)),
      createTime: iso(Math.min(now - HOUR, time)),
      sentBy: prng.pick(['admin', 'ops_garcia']),
    });
  }
  drafts.sort((a, b) => (a.createTime < b.createTime ? -1 : 1));
  return drafts.map((draft, index) => ({ id: index + 1, ...draft }));
}

const FEEDBACK: readonly [type: SuggestionRecord['type'], content: string][] = [
  ['bug', '发送图片时经常卡住，进度条不动。'],
  ['suggestion', '希望可以把聊天记录导出成文本。'],
  ['complaint', '有人在群里发广告，举报了也没人处理。'],
  ['bug', 'The app crashes when I open a voice message on Android 14.'],
  ['suggestion', 'Please add a dark mode schedule.'],
  ['complaint', 'I was charged twice for one recharge.'],
  ['other', '¿Cómo cambio mi número de teléfono?'],
  ['bug', 'Las notificaciones no llegan cuando la app está cerrada.'],
  ['suggestion', 'スタンプをもっと増やしてほしいです。'],
  ['complaint', '提现三天了还没到账，请尽快处理。'],
  ['bug', 'グループ通話で音声が途切れます。'],
  ['other', 'How do I delete my account?'],
  ['suggestion', '朋友圈能不能支持发视频超过一分钟？'],
  ['complaint', 'Someone is impersonating me, account in my name.'],
];

const REPLIES = [
  '已反馈给技术团队，感谢您的耐心。',
  'Thanks, this is fixed in the next release.',
  'Gracias, lo hemos revisado.',
  'ご報告ありがとうございます。',
  '款项已退回您的钱包，请查收。',
];

export function seedSuggestions(
  prng: Prng,
  users: readonly UserRecord[],
  now: number,
  count = 180,
): Seeded<SuggestionRecord> {
  const drafts: Omit<SuggestionRecord, 'id'>[] = [];
  for (let i = 0; i < count; i++) {
    const user = prng.pick(users);
    const [type, content] = prng.pick(FEEDBACK);
    const since = Date.parse(user.registerTime);
    const time = Math.floor(since + (1 - Math.pow(prng.next(), 2)) * (now - since));
    const handled = now - time > 3 * DAY ? prng.chance(0.85) : prng.chance(0.25);
    const replied = handled && prng.chance(0.7);
    drafts.push({
      userId: user.id,
      userAccount: user.account,
      type,
      content,
      state: handled ? 'handled' : 'pending',
      reply: replied ? prng.pick(REPLIES) : '',
      handledBy: handled ? prng.pick(['admin', 'support_tanaka']) : null,
      createTime: iso(time),
    });
  }
  drafts.sort((a, b) => (a.createTime < b.createTime ? -1 : 1));
  return drafts.map((draft, index) => ({ id: index + 1, ...draft }));
}

const ADDRESSES: readonly [name: string, url: string, platform: DistributionAddressRecord['platform']][] = [
  ['Google Play', 'https://play.google.com/store/apps/details?id=com.example.chat', 'android'],
  ['Official APK', 'https://download.chat.example.com/android/latest.apk', 'android'],
  ['华为应用市场', 'https://appgallery.huawei.com/app/C100000000', 'android'],
  ['App Store', 'https://apps.apple.com/app/id1234567890', 'ios'],
  ['TestFlight', 'https://testflight.apple.com/join/AbCdEf12', 'ios'],
  ['Web client', 'https://web.chat.example.com', 'web'],
  ['Mirror (Asia)', 'https://cdn-asia.chat.example.com/download', 'web'],
];

export function seedDistributionAddresses(): Seeded<DistributionAddressRecord> {
  return ADDRESSES.map(([name, url, platform], i) => ({
    id: i + 1,
    name,
    url,
    platform,
    enabled: i !== 4,
    sort: (i + 1) * 10,
  }));
}

const BLOCK_REASONS = [
  'Credential stuffing',
  '批量注册',
  'Spam bot',
  '恶意刷接口',
  'Scraping',
  'Fraud reports',
  'Ataque de fuerza bruta',
];

export function seedIpBlacklist(prng: Prng, now: number): Seeded<IpBlacklistRecord> {
  const drafts: Omit<IpBlacklistRecord, 'id'>[] = [];
  for (let i = 0; i < 42; i++) {
    const time = now - Math.floor(prng.next() * 170 * DAY);
    const shape = prng.next();
    const ip =
      shape < 0.6
        ? randomIp(prng)
        : shape < 0.85
          ? `${prng.int(45, 223)}.${prng.int(0, 255)}.${prng.int(0, 255)}.0/24`
          : `2001:db8:${prng.int(0, 0xffff).toString(16)}::/48`;
    const expires = prng.chance(0.5) ? time + prng.pick([7, 30, 90, 365]) * DAY : null;
    drafts.push({
      ip,
      reason: prng.pick(BLOCK_REASONS),
      expireTime: expires === null ? null : iso(expires),
      createdBy: prng.pick(['admin', 'ops_garcia']),
      createTime: iso(time),
    });
  }
  drafts.sort((a, b) => (a.createTime < b.createTime ? -1 : 1));
  return drafts.map((draft, index) => ({ id: index + 1, ...draft }));
}

export function seedFrequencyLimits(): Seeded<FrequencyLimitRecord> {
  const rows: Omit<FrequencyLimitRecord, 'id'>[] = [
    { action: 'sendMessage', scope: 'user', maxCount: 60, windowSeconds: 60, enabled: true },
    { action: 'addFriend', scope: 'user', maxCount: 30, windowSeconds: 86400, enabled: true },
    { action: 'createGroup', scope: 'user', maxCount: 10, windowSeconds: 86400, enabled: true },
    { action: 'login', scope: 'ip', maxCount: 20, windowSeconds: 300, enabled: true },
    { action: 'register', scope: 'ip', maxCount: 5, windowSeconds: 3600, enabled: true },
    { action: 'register', scope: 'device', maxCount: 3, windowSeconds: 86400, enabled: true },
    { action: 'sendRedPacket', scope: 'user', maxCount: 100, windowSeconds: 86400, enabled: true },
    { action: 'sendMessage', scope: 'ip', maxCount: 600, windowSeconds: 60, enabled: false },
  ];
  if (rows.some((r) => !LIMITED_ACTIONS.includes(r.action))) throw new Error('unknown limited action');
  return rows.map((row, i) => ({ id: i + 1, ...row }));
}

const HISTORY: readonly [
  action: OperationLogRecord['action'],
  module: string,
  detail: (p: Prng, u: UserRecord) => string,
][] = [
  ['login', 'auth', () => 'Signed in'],
  ['login', 'auth', () => 'Signed in'],
  ['ban', 'users', (p, u) => `ban #${u.id} ${u.account}: ${p.pick(['spam', '发广告', 'fraud', 'acoso'])}`],
  ['unban', 'users', (_p, u) => `unban #${u.id} ${u.account}`],
  ['approve', 'withdrawalReview', (p) => `approve #${p.int(1, 900)}`],
  ['reject', 'withdrawalReview', (p) => `reject #${p.int(1, 900)}: Payee name does not match`],
  ['create', 'sensitiveWords', (p) => `create #${p.int(1, 300)}`],
  ['update', 'siteFunctions', () => 'config saved'],
  ['config', 'signInConfig', () => 'config saved'],
  ['create', 'announcements', (p) => `create #${p.int(1, 24)}`],
  ['delete', 'ipBlacklist', (p) => `delete #${p.int(1, 40)}`],
  ['export', 'billingRecords', () => 'CSV export of the filtered list'],
  ['update', 'groups', (p) => `muteAll #${800_001 + p.int(0, 80)}`],
];

export function seedOperationLog(
  prng: Prng,
  users: readonly UserRecord[],
  now: number,
  count = 1600,
): Seeded<OperationLogRecord> {
  const admins = ['admin', 'admin', 'finance_li', 'support_tanaka', 'ops_garcia', 'operator'];
  const ips = ['203.0.113.24', '198.51.100.7', '192.0.2.55', '203.0.113.80'];
  const drafts: Omit<OperationLogRecord, 'id'>[] = [];
  for (let i = 0; i < count; i++) {
    const [action, module, detail] = prng.pick(HISTORY);
    drafts.push({
      adminAccount: prng.pick(admins),
      action,
      module,
      detail: detail(prng, prng.pick(users)),
      ip: prng.pick(ips),
      createTime: iso(now - MINUTE - Math.floor(prng.next() * 178 * DAY)),
    });
  }
  drafts.sort((a, b) => (a.createTime < b.createTime ? -1 : 1));
  return drafts.map((draft, index) => ({ id: index + 1, ...draft }));
}
