import type { Prng } from '../lib/prng.js';

/**
 * Name pools in several scripts, so the console's tables, search and sorting meet Latin accents,
 * Han characters, kana and emoji the way a real user base would.
 */

export type Locale = 'zh' | 'ja' | 'es' | 'en' | 'fr' | 'de';

interface LocaleData {
  region: string;
  dial: string;
  /** Builds a national number (digits only) from a stream. */
  phone: (prng: Prng) => string;
  given: readonly string[];
  family: readonly string[];
  /** Family name first, no space (East Asian order). */
  familyFirst: boolean;
  handles: readonly string[];
}

const LOCALES: Record<Locale, LocaleData> = {
  zh: {
    region: 'CN',
    dial: '86',
    phone: (p) => `1${p.pick(['3', '5', '7', '8', '9'])}${p.digits(9)}`,
    family: [
      '王',
      '李',
      '张',
      '刘',
      '陈',
      '杨',
      '黄',
      '赵',
      '吴',
      '周',
      '徐',
      '孙',
      '马',
      '朱',
      '胡',
      '郭',
      '何',
      '林',
      '罗',
      '高',
      '郑',
      '梁',
      '谢',
      '宋',
    ],
    given: [
      '伟',
      '芳',
      '娜',
      '敏',
      '静',
      '丽',
      '强',
      '磊',
      '洋',
      '艳',
      '勇',
      '军',
      '杰',
      '娟',
      '涛',
      '明',
      '超',
      '秀英',
      '霞',
      '平',
      '刚',
      '子涵',
      '浩然',
      '欣怡',
      '宇轩',
      '梓萱',
      '俊杰',
      '思彤',
      '一诺',
      '雨桐',
    ],
    familyFirst: true,
    handles: [
      '小猫咪',
      '快乐每一天',
      '追风少年',
      '晴天',
      '🍀幸运草',
      '夜空中最亮的星',
      '阿杰',
      '老王',
      '甜甜圈',
      '向日葵🌻',
    ],
  },
  ja: {
    region: 'JP',
    dial: '81',
    phone: (p) => `${p.pick(['70', '80', '90'])}${p.digits(8)}`,
    family: [
      '佐藤',
      '鈴木',
      '高橋',
      '田中',
      '伊藤',
      '渡辺',
      '山本',
      '中村',
      '小林',
      '加藤',
      '吉田',
      '山田',
      '松本',
      '井上',
    ],
    given: [
      '翔太',
      '陽菜',
      '蓮',
      '結衣',
      '大翔',
      'さくら',
      '悠真',
      '美咲',
      '颯太',
      '葵',
      '健太',
      '愛子',
      '湊',
      'ひなた',
      '優斗',
    ],
    familyFirst: true,
    handles: ['ゆうき', 'はるか', 'ねこ好き🐱', 'たけし', 'みーちゃん', 'ソラ', 'カイト'],
  },
  es: {
    region: 'ES',
    dial: '34',
    phone: (p) => `${p.pick(['6', '7'])}${p.digits(8)}`,
    given: [
      'Alejandro',
      'Lucía',
      'Mateo',
      'Sofía',
      'Diego',
      'Valentina',
      'Javier',
      'Camila',
      'Pablo',
      'Martina',
      'Andrés',
      'Isabel',
      'José',
      'María',
      'Carmen',
      'Santiago',
      'Inés',
      'Álvaro',
    ],
    family: [
      'García',
      'Rodríguez',
      'Martínez',
      'López',
      'Hernández',
      'González',
      'Pérez',
      'Sánchez',
      'Ramírez',
      'Torres',
      'Flores',
      'Jiménez',
      'Muñoz',
      'Núñez',
      'Ibáñez',
    ],
    familyFirst: false,
    handles: ['lachica_del_sol', 'Pepe⚽', 'mariposa', 'el_profe', 'Niña Bonita', 'tortuga_veloz'],
  },
  en: {
    region: 'US',
    dial: '1',
    phone: (p) => `${p.int(201, 989)}${p.int(200, 999)}${p.digits(4)}`,
    given: [
      'James',
      'Olivia',
      'Liam',
      'Emma',
      'Noah',
      'Ava',
      'Lucas',
      'Sophia',
      'Ethan',
      'Mia',
      'Oliver',
      'Charlotte',
      'Mason',
      'Amelia',
      'Zoë',
      'Seán',
    ],
    family: [
      'Smith',
      'Johnson',
      'Brown',
      'Taylor',
      'Wilson',
      'Davis',
      'Miller',
      "O'Brien",
      'Nguyen',
      'Patel',
      'Kim',
      'Anderson',
    ],
    familyFirst: false,
    handles: ['sunny_day', 'nightowl', 'coffee & code', 'Luna🌙', 'skater_boi', 'the real mike', 'xX_gamer_Xx'],
  },
  fr: {
    region: 'FR',
    dial: '33',
    phone: (p) => `${p.pick(['6', '7'])}${p.digits(8)}`,
    given: ['Chloé', 'Hugo', 'Léa', 'Louis', 'Manon', 'Théo', 'Camille', 'Noé', 'Inès', 'Gaëlle'],
    family: ['Dubois', 'Martin', 'Bernard', 'Lefèvre', 'Moreau', 'Girard', 'Roux', 'Fournier'],
    familyFirst: false,
    handles: ['petit_prince', 'croissant🥐', 'mademoiselle_k'],
  },
  de: {
    region: 'DE',
    dial: '49',
    phone: (p) => `1${p.pick(['51', '52', '60', '70', '76'])}${p.digits(8)}`,
    given: ['Lukas', 'Hannah', 'Jonas', 'Lena', 'Maximilian', 'Jürgen', 'Anneliese', 'Björn', 'Sören'],
    family: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weiß', 'Groß', 'Köhler', 'Becker'],
    familyFirst: false,
    handles: ['bergfreund', 'Straßenkatze', 'kaffeeklatsch'],
  },
};

/** How the user base is spread: mostly Chinese-speaking, with Japanese, Spanish and European minorities. */
const LOCALE_WEIGHTS: readonly (readonly [Locale, number])[] = [
  ['zh', 45],
  ['ja', 15],
  ['es', 18],
  ['en', 12],
  ['fr', 5],
  ['de', 5],
];

export interface Person {
  locale: Locale;
  region: string;
  /** Display name, sometimes a handle rather than a real name. */
  nickname: string;
  /** The name on bank cards and payment accounts. */
  realName: string;
  /** E.164. */
  phone: string;
  /** Latin-only login name derived from the person. */
  handle: string;
}

const ROMAN: Record<Locale, readonly string[]> = {
  zh: ['wei', 'fang', 'lin', 'xiao', 'ming', 'hao', 'yu', 'jie', 'chen', 'li'],
  ja: ['yuki', 'haru', 'sora', 'ren', 'aoi', 'kaito', 'hina', 'sakura'],
  es: [],
  en: [],
  fr: [],
  de: [],
};

function asciiFold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

export function makePerson(prng: Prng): Person {
  const locale = prng.weighted(LOCALE_WEIGHTS);
  const data = LOCALES[locale];
  const given = prng.pick(data.given);
  const family = prng.pick(data.family);
  const realName = data.familyFirst ? `${family}${given}` : `${given} ${family}`;
  const nickname = prng.chance(0.25)
    ? prng.pick(data.handles)
    : data.familyFirst || prng.chance(0.5)
      ? realName
      : given;
  const stem = ROMAN[locale].length > 0 ? prng.pick(ROMAN[locale]) : asciiFold(given);
  return {
    locale,
    region: data.region,
    nickname,
    realName,
    phone: `+${data.dial}${data.phone(prng)}`,
    handle: `${stem}${prng.int(1, 9999)}`,
  };
}

const GROUP_NAMES: readonly string[] = [
  '家人群',
  '同学会 2015届',
  'Weekend Hikers',
  'Fútbol los domingos',
  '東京ランチ部',
  'Book Club',
  '技术交流群',
  'Crypto Talk',
  'Mamás del cole',
  'ゲーム仲間',
  'Photography 📷',
  '跑步打卡',
  'Proyecto Sol',
  '旅行分享',
  'K-pop Fans',
  'Café & Croissants',
  'Wanderlust',
  '美食探店',
  'Los Primos',
  'アニメ同好会',
  'Startup Founders',
  '宝妈交流',
  'Yoga mornings',
  'Bücherwurm',
  'Team Alpha',
  '篮球约战',
  'Salsa Madrid',
  '英语角',
  'Pet Lovers 🐶',
  '二手闲置',
  'Devs Latam',
  '読書会',
  'Garden Club',
  '周末钓鱼',
  'Música en vivo',
];

export function makeGroupName(prng: Prng, index: number): string {
  const base = prng.pick(GROUP_NAMES);
  // Real group lists hold many near-duplicates ("家人群 2"), which is what search has to cope with.
  return index < GROUP_NAMES.length && prng.chance(0.6) ? base : `${base} ${prng.int(2, 30)}`;
}

/** Banks people of each region actually withdraw to. */
const BANKS: Readonly<Record<string, readonly string[]>> = {
  CN: ['中国工商银行', '中国建设银行', '招商银行', '中国银行'],
  JP: ['三菱UFJ銀行', 'みずほ銀行', '三井住友銀行'],
  ES: ['Banco Santander', 'BBVA', 'CaixaBank'],
  US: ['Chase', 'Bank of America', 'Wells Fargo'],
  FR: ['BNP Paribas', 'Crédit Agricole', 'Société Générale'],
  DE: ['Deutsche Bank', 'Commerzbank', 'Sparkasse'],
};

export function pickBank(prng: Prng, region: string): string {
  return prng.pick(BANKS[region] ?? BANKS.US!);
}
