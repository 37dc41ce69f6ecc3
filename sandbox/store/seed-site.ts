import type { EMOJI_CATEGORIES, LANGUAGES } from '../../server/contract/index.js';
import { PRIVILEGES } from '../../server/contract/index.js';
import type { Prng } from '../lib/prng.js';
import { DAY, HOUR, iso } from '../lib/time.js';
import type {
  AnnouncementRecord,
  DefaultAvatarRecord,
  DefaultEmojiRecord,
  DefaultFriendRecord,
  DefaultGroupRecord,
  DiscoverRecord,
  InviteCodeRecord,
  PrivilegedUserRecord,
  SecurityQuestionRecord,
  SensitiveWordRecord,
} from './records.js';
import type { GroupRecord, UserRecord } from './types.js';
import { sensitiveWordPool } from './words.js';

/** Site-configuration tables: what a product that has run for half a year has set up. */

type Draft<T> = Omit<T, 'id'>;
type Seeded<T> = (T & { id: number })[];

function numbered<T>(drafts: readonly Draft<T>[]): Seeded<T> {
  return drafts.map((draft, index) => ({ id: index + 1, ...draft }) as T & { id: number });
}

/** Times over the history, oldest first, so ids rise with time. */
function spread(prng: Prng, count: number, now: number, days: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push(now - Math.floor(prng.next() * days * DAY));
  return times.sort((a, b) => a - b);
}

const WELCOMES = [
  '欢迎加入！有问题随时找我 😊',
  'Welcome aboard! Ask me anything.',
  '¡Bienvenido! Escríbeme si necesitas ayuda.',
  'ようこそ！何でも聞いてください。',
  '',
];

export function seedDefaultFriends(prng: Prng, users: readonly UserRecord[], now: number): Seeded<DefaultFriendRecord> {
  const picked = new Set<UserRecord>();
  while (picked.size < Math.min(5, users.length)) picked.add(prng.pick(users));
  const times = spread(prng, picked.size, now, 150);
  return numbered<DefaultFriendRecord>(
    [...picked].map((user, i) => ({
      userId: user.id,
      userAccount: user.account,
      nickname: user.nickname,
      welcomeMessage: WELCOMES[i % WELCOMES.length]!,
      sort: (i + 1) * 10,
      createTime: iso(times[i]!),
    })),
  );
}

export function seedDefaultGroups(prng: Prng, groups: readonly GroupRecord[], now: number): Seeded<DefaultGroupRecord> {
  const open = groups.filter((g) => g.status === 'normal' && g.memberCount > 50);
  const picked = new Set<GroupRecord>();
  while (picked.size < Math.min(4, open.length)) picked.add(prng.pick(open));
  const times = spread(prng, picked.size, now, 150);
  return numbered<DefaultGroupRecord>(
    [...picked].map((group, i) => ({
      groupId: group.id,
      groupName: group.name,
      sort: (i + 1) * 10,
      createTime: iso(times[i]!),
    })),
  );
}

export const DEFAULT_AVATAR_NAMES = [
  'Cat',
  'Dog',
  'Panda',
  'Fox',
  'Owl',
  'Rabbit',
  'Koala',
  'Penguin',
  'Tiger',
  'Whale',
  'Bear',
  'Frog',
] as const;

export function seedDefaultAvatars(prng: Prng, now: number): Seeded<DefaultAvatarRecord> {
  const times = spread(prng, DEFAULT_AVATAR_NAMES.length, now, 170);
  return numbered<DefaultAvatarRecord>(
    DEFAULT_AVATAR_NAMES.map((name, i) => ({
      image: `defaults/avatars/${String(i + 1).padStart(2, '0')}-${name.toLowerCase()}.svg`,
      name,
      sort: (i + 1) * 10,
      createTime: iso(times[i]!),
    })),
  );
}

/** Emoji of the default sticker set: file name, the character drawn for it, category. */
export const EMOJI: readonly (readonly [name: string, char: string, category: (typeof EMOJI_CATEGORIES)[number]])[] = [
  ['smile', '😊', 'classic'],
  ['laugh', '😂', 'classic'],
  ['wink', '😉', 'classic'],
  ['love', '😍', 'classic'],
  ['cool', '😎', 'classic'],
  ['cry', '😭', 'classic'],
  ['angry', '😠', 'classic'],
  ['think', '🤔', 'classic'],
  ['sleep', '😴', 'classic'],
  ['shock', '😱', 'classic'],
  ['cat', '🐱', 'animals'],
  ['dog', '🐶', 'animals'],
  ['panda', '🐼', 'animals'],
  ['pig', '🐷', 'animals'],
  ['monkey', '🙈', 'animals'],
  ['chick', '🐥', 'animals'],
  ['coffee', '☕', 'food'],
  ['noodles', '🍜', 'food'],
  ['sushi', '🍣', 'food'],
  ['cake', '🍰', 'food'],
  ['beer', '🍺', 'food'],
  ['watermelon', '🍉', 'food'],
  ['thumbs-up', '👍', 'gestures'],
  ['clap', '👏', 'gestures'],
  ['ok', '👌', 'gestures'],
  ['pray', '🙏', 'gestures'],
  ['wave', '👋', 'gestures'],
  ['muscle', '💪', 'gestures'],
  ['red-envelope', '🧧', 'festival'],
  ['lantern', '🏮', 'festival'],
  ['fireworks', '🎆', 'festival'],
  ['gift', '🎁', 'festival'],
  ['party', '🎉', 'festival'],
  ['tree', '🎄', 'festival'],
];

export function emojiPath(name: string): string {
  return `emoji/${name}.svg`;
}

export function seedDefaultEmoji(prng: Prng, now: number): Seeded<DefaultEmojiRecord> {
  const times = spread(prng, EMOJI.length, now, 170);
  return numbered<DefaultEmojiRecord>(
    EMOJI.map(([name, , category], i) => ({
      image: emojiPath(name),
      name,
      category,
      sort: (i + 1) * 10,
      createTime: iso(times[i]!),
    })),
  );
}

const QUESTIONS: Readonly<Record<(typeof LANGUAGES)[number], readonly string[]>> = {
  zh: ['您母亲的姓名是？', '您的出生地是？', '您小学的名字是？', '您第一只宠物的名字是？', '您最喜欢的电影是？'],
  en: [
    "What is your mother's maiden name?",
    'In which city were you born?',
    'What was the name of your first pet?',
    'What was your first car?',
    'What is your favourite book?',
  ],
  es: [
    '¿Cómo se llama tu madre?',
    '¿En qué ciudad naciste?',
    '¿Cómo se llamaba tu primera mascota?',
    '¿Cuál es tu comida favorita?',
  ],
  ja: ['母親の旧姓は？', '生まれた町は？', '初めて飼ったペットの名前は？', '好きな映画は？'],
};

export function seedSecurityQuestions(prng: Prng): Seeded<SecurityQuestionRecord> {
  const drafts: Draft<SecurityQuestionRecord>[] = [];
  for (const [language, questions] of Object.entries(QUESTIONS) as [(typeof LANGUAGES)[number], readonly string[]][]) {
    questions.forEach((question, i) =>
      drafts.push({ question, language, enabled: prng.chance(0.85), sort: (i + 1) * 10 }),
    );
  }
  return numbered(drafts);
}

const DISCOVER: readonly [title: string, url: string][] = [
  ['Moments', 'app://moments'],
  ['Mini Games', 'https://games.chat.example.com'],
  ['News', 'https://news.chat.example.com/today'],
  ['Wallet', 'app://wallet'],
  ['生活缴费', 'https://pay.chat.example.com/bills'],
  ['Shopping', 'https://shop.chat.example.com'],
  ['天気予報', 'https://weather.chat.example.com/jp'],
  ['Help Center', 'https://help.chat.example.com'],
];

export function discoverIcon(title: string, index: number): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `discover/${slug || `entry-${index + 1}`}.svg`;
}

export function seedDiscover(prng: Prng): Seeded<DiscoverRecord> {
  return numbered<DiscoverRecord>(
    DISCOVER.map(([title, url], i) => ({
      icon: discoverIcon(title, i),
      title,
      url,
      enabled: i < 6 || prng.chance(0.5),
      sort: (i + 1) * 10,
    })),
  );
}

const ANNOUNCEMENTS: readonly [title: string, content: string][] = [
  ['系统维护通知', '为提升服务质量，我们将于本周日凌晨 2:00-4:00 进行系统维护，期间消息可能延迟送达。'],
  [
    'New: voice messages up to 5 minutes',
    'You can now record voice messages of up to five minutes. Update to the latest version to try it.',
  ],
  ['春节红包活动', '春节期间每日签到可领取双倍奖励，群红包上限提升至 200 个。祝大家新春快乐！'],
  ['Mantenimiento programado', 'El servicio estará en mantenimiento el domingo de 02:00 a 04:00 (UTC+8).'],
  ['アップデートのお知らせ', '新しいバージョンでは、グループ通話の品質が向上しました。'],
  [
    'Beware of scams',
    'Staff will never ask for your password or verification code. Report suspicious accounts from their profile page.',
  ],
  ['提现到账时间调整', '即日起提现审核时间为工作日 9:00-21:00，非工作时间提交的申请将顺延处理。'],
  ['Group size limit raised', 'Groups can now hold up to 2,000 members.'],
  ['Nueva función: mensajes fijados', 'Ahora puedes fijar hasta tres mensajes en cada grupo.'],
  ['隐私政策更新', '我们更新了隐私政策，主要涉及设备信息的收集范围，请在设置中查看。'],
  ['Sticker store is open', 'Hundreds of new sticker packs, many of them free.'],
  ['年末年始の営業について', '12月31日から1月3日まで、カスタマーサポートの対応が遅れる場合があります。'],
];

export function seedAnnouncements(prng: Prng, now: number): Seeded<AnnouncementRecord> {
  const times = spread(prng, ANNOUNCEMENTS.length * 2, now, 175);
  const drafts: Draft<AnnouncementRecord>[] = times.map((time, i) => {
    const [title, content] = ANNOUNCEMENTS[i % ANNOUNCEMENTS.length]!;
    const published = now - time > 2 * DAY || prng.chance(0.4);
    return {
      title: i < ANNOUNCEMENTS.length ? title : `${title} (${Math.floor(i / ANNOUNCEMENTS.length) + 1})`,
      content,
      published,
      pinned: published && prng.chance(0.1),
      publishTime: published ? iso(time + Math.floor(prng.next() * 6 * HOUR)) : null,
      createTime: iso(time),
    };
  });
  return numbered(drafts);
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function inviteCode(prng: Prng): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += CODE_ALPHABET[prng.int(0, CODE_ALPHABET.length - 1)];
  return code;
}

export function seedInviteCodes(
  prng: Prng,
  users: readonly UserRecord[],
  now: number,
  count = 240,
): Seeded<InviteCodeRecord> {
  const invited = users.filter((u) => u.channel === 'invite');
  const times = spread(prng, count, now, 170);
  return numbered<InviteCodeRecord>(
    times.map((time) => {
      const maxUses = prng.pick([1, 1, 1, 5, 10, 50]);
      const roll = prng.next();
      const usedCount = roll < 0.45 && invited.length > 0 ? prng.int(1, maxUses) : 0;
      const expires = prng.chance(0.6) ? time + prng.pick([30, 90, 180]) * DAY : null;
      return {
        code: inviteCode(prng),
        status: usedCount > 0 ? 'used' : roll > 0.9 ? 'disabled' : 'unused',
        usedCount,
        maxUses,
        usedBy: usedCount > 0 ? prng.pick(invited).account : '',
        expireTime: expires === null ? null : iso(expires),
        createTime: iso(time),
      };
    }),
  );
}

export function seedSensitiveWords(prng: Prng, now: number): Seeded<SensitiveWordRecord> {
  const pool = sensitiveWordPool();
  const times = spread(prng, pool.length, now, 175);
  return numbered<SensitiveWordRecord>(pool.map((entry, i) => ({ ...entry, createTime: iso(times[i]!) })));
}

const REMARKS = [
  'VIP 年费会员',
  'Partner account',
  'Cuenta de soporte',
  '公式アカウント',
  'Influencer',
  '内部测试账号',
  '',
];

export function seedPrivilegedUsers(
  prng: Prng,
  users: readonly UserRecord[],
  now: number,
): Seeded<PrivilegedUserRecord> {
  const privileged = users.filter((u) => u.privileged);
  return numbered<PrivilegedUserRecord>(
    privileged.map((user) => {
      const privileges = PRIVILEGES.filter(() => prng.chance(0.5));
      const since = Date.parse(user.registerTime);
      return {
        userId: user.id,
        userAccount: user.account,
        nickname: user.nickname,
        privileges: privileges.length > 0 ? privileges : ['vipBadge'],
        remark: prng.pick(REMARKS),
        createTime: iso(Math.min(now, since + Math.floor(prng.next() * (now - since)))),
      };
    }),
  );
}
