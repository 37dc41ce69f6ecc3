import type { SENSITIVE_WORD_CATEGORIES } from '../../server/contract/index.js';

type Category = (typeof SENSITIVE_WORD_CATEGORIES)[number];

/**
 * The filter list an operations team builds up: spam and fraud phrases in the languages of the
 * user base, with the spaced-out and punctuated variants spammers use to slip past a plain match.
 */
const BASE: Readonly<Record<Category, readonly string[]>> = {
  ads: [
    '加微信',
    '加我微信',
    '代开发票',
    '刷单',
    '兼职日结',
    '免费领取',
    '低价出售',
    '私聊有惊喜',
    '代理招募',
    '日赚千元',
    '网赚项目',
    '点击领取',
    '扫码进群',
    '返利',
    '优惠券群',
    '淘宝刷单',
    '快速贷款',
    '无抵押贷款',
    '信用卡套现',
    '代办证件',
    'buy followers',
    'free crypto',
    'click this link',
    'earn money fast',
    'work from home',
    'cheap rolex',
    'crypto signals',
    'double your bitcoin',
    'ganar dinero rápido',
    'préstamo sin aval',
    'compra seguidores',
    'oferta exclusiva',
    '副業で稼ぐ',
    '高収入バイト',
    '無料プレゼント',
    '今すぐ登録',
  ],
  porn: [
    '成人视频',
    '约炮',
    '裸聊',
    '一夜情',
    '色情直播',
    'sex chat',
    'nudes for sale',
    'xxx videos',
    'contenido adulto',
    'アダルト動画',
    '出会い系',
  ],
  violence: [
    '砍死你',
    '炸弹制作',
    '买枪',
    '杀人',
    'kill you',
    'bomb making',
    'buy a gun',
    'te voy a matar',
    '殺してやる',
    '爆弾の作り方',
  ],
  politics: ['颠覆政权', '非法集会', '煽动分裂', 'election fraud', 'golpe de estado', '暴動を起こせ'],
  abuse: [
    '傻逼',
    '去死吧',
    '废物',
    '垃圾人',
    '滚蛋',
    'idiot',
    'loser',
    'shut up',
    'imbécil',
    'estúpido',
    'バカ',
    'クズ',
    'うざい',
    'Arschloch',
    'connard',
  ],
  other: [
    '赌博',
    '博彩',
    '网络赌场',
    '六合彩',
    '代考',
    '洗钱',
    'online casino',
    'sports betting tips',
    'apuestas seguras',
    'オンラインカジノ',
    '闇バイト',
    'phishing kit',
  ],
};

/** The ways an ad phrase gets disguised: spaces, dots, dashes between characters. */
function variants(word: string): string[] {
  const chars = Array.from(word);
  if (chars.length < 2 || chars.length > 5 || /\s/.test(word)) return [];
  return [chars.join(' '), chars.join('.'), chars.join('-')];
}

export function sensitiveWordPool(): { word: string; category: Category }[] {
  const out: { word: string; category: Category }[] = [];
  const seen = new Set<string>();
  const push = (word: string, category: Category) => {
    const key = word.toLocaleLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ word, category });
  };
  for (const [category, words] of Object.entries(BASE) as [Category, readonly string[]][]) {
    for (const word of words) push(word, category);
  }
  for (const [category, words] of Object.entries(BASE) as [Category, readonly string[]][]) {
    if (category !== 'ads' && category !== 'porn' && category !== 'other') continue;
    for (const word of words) for (const variant of variants(word)) push(variant, category);
  }
  // Contact handles spammers repeat, numbered the way they rotate them.
  for (let i = 1; i <= 60; i++) push(`vx${String(1000 + i * 37)}`, 'ads');
  return out;
}

function fold(text: string): string {
  return text.normalize('NFKC').toLocaleLowerCase();
}

/** Every occurrence of every word in the text, in text order (the tester of the sensitive-word page). */
export function findHits(
  words: readonly { word: string; category: Category }[],
  text: string,
): { word: string; category: Category; index: number }[] {
  const haystack = fold(text);
  const hits: { word: string; category: Category; index: number }[] = [];
  for (const entry of words) {
    const needle = fold(entry.word);
    if (needle === '') continue;
    for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) {
      hits.push({ word: entry.word, category: entry.category, index: at });
    }
  }
  return hits.sort((a, b) => a.index - b.index || b.word.length - a.word.length);
}
