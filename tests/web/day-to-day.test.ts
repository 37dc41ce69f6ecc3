import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { USERS, WITHDRAWAL_REVIEW, type FieldDef } from '../../server/contract/index.js';
import en from '../../web/i18n/resources/en.js';
import es from '../../web/i18n/resources/es.js';
import ja from '../../web/i18n/resources/ja.js';
import zh from '../../web/i18n/resources/zh.js';
import { labelT } from '../../web/i18n/resources/index.js';
import { actionQuestion, actionTitle, type WordingContext } from '../../web/engine/actions/action-wording.js';
import { exportColumns } from '../../web/engine/shared/export-csv.js';
import { csvValue } from '../../server/contract/csv.js';
import { recordName } from '../../web/engine/record/record-summary.js';
import { valueText } from '../../web/engine/shared/value-cell.js';
import { currencyTick, formatCurrency, shortCurrency } from '../../web/lib/currency.js';
import { LANGUAGES, localeOf, type Language } from '../../web/lib/language.js';
import { language } from '../../web/lib/settings.js';
import { magnitudeGroups, peakOf } from '../../web/ui/chart/magnitude.js';
import { placeBeside, roomNeeded } from '../../web/ui/anchored-frame.js';
import { entryUser } from '../../web/pages/error-log-entries.js';

/** The administrators' day: figures people read, dialogs that name what they do, charts that show every series. */

async function use(lang: Language) {
  language.value = lang;
  await i18next.changeLanguage(lang);
}

beforeAll(async () => {
  await i18next.init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { translation: en }, zh: { translation: zh }, es: { translation: es }, ja: { translation: ja } },
  });
});

const quantity: FieldDef = { key: 'memberCount', kind: 'number' };
const id: FieldDef = { key: 'id', kind: 'number', identifier: true };
const amount: FieldDef = { key: 'amount', kind: 'money' };

describe('figures in tables', () => {
  for (const lang of LANGUAGES) {
    it(`groups counts and amounts the way ${lang} does (Intl), and leaves identifiers whole`, async () => {
      await use(lang);
      const grouped = new Intl.NumberFormat(localeOf(lang)).format(19040);
      expect(valueText(labelT, quantity, 19040)).toBe(grouped);
      expect(valueText(labelT, id, 19040)).toBe('19040');
      const money = new Intl.NumberFormat(localeOf(lang), {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      }).format(1904050.25);
      expect(valueText(labelT, amount, 190405025)).toBe(money);
    });
  }

  it('writes 19,040 in English and 19.040 in Spanish, and keeps the CSV plain', async () => {
    await use('en');
    expect(valueText(labelT, quantity, 19040)).toBe('19,040');
    await use('es');
    expect(valueText(labelT, quantity, 19040)).toBe('19.040');
    expect(valueText(labelT, amount, 120000)).toBe('1200,00');
    // The gateway writes the export's cells from the columns the screen sends: plain, whatever the language.
    const row: Record<string, unknown> = { memberCount: 19040, amount: 120000, id: 19040 };
    const csv = exportColumns(labelT, [quantity, amount, id]);
    expect(csv.map((c) => csvValue(c, row[c.key]))).toEqual(['19040', '1200.00', '19040']);
  });
});

describe('amounts with their currency', () => {
  it('writes the symbol where the language puts it, exactly, and shortened for a card', () => {
    expect(formatCurrency(73_440_000, 'en', 'CNY')).toBe('¥734,400.00');
    expect(formatCurrency(73_440_000, 'es', 'EUR')).toBe('734.400,00\u00a0€');
    expect(formatCurrency(900_719_925_474_099, 'en', 'USD')).toBe('$9,007,199,254,740.99');
    expect(shortCurrency(73_440_000, 'en', 'CNY')).toBe('¥734.4k');
    expect(shortCurrency(73_440_000, 'es', 'CNY')).toBe('734,4k\u00a0¥');
    expect(shortCurrency(99_999, 'en', 'CNY')).toBe('¥999.99');
    expect(formatCurrency(120_000, 'en', '')).toBe('1,200.00');
    expect(formatCurrency(1.5, 'en', 'CNY')).toBe('');
  });

  it('labels chart ticks without cents', () => {
    expect(currencyTick(0, 'en', 'CNY')).toBe('¥0');
    expect(currencyTick(250, 'en', 'CNY')).toBe('¥250');
    expect(currencyTick(1500, 'en', 'CNY')).toBe('¥1.5k');
  });
});

describe('series of different sizes', () => {
  it('gives registrations at 0 an axis of their own beside messages at 50k', () => {
    const groups = magnitudeGroups([
      { unit: 'count', peak: 0 },
      { unit: 'count', peak: 50_000 },
    ]);
    expect(groups).toEqual([[0], [1]]);
  });

  it('keeps series of one size together, in their declared order, and never mixes units', () => {
    const groups = magnitudeGroups([
      { unit: 'count', peak: 44 },
      { unit: 'count', peak: 1_012 },
      { unit: 'count', peak: 36_000 },
      { unit: 'count', peak: 6 },
      { unit: 'money', peak: 30_000 },
      { unit: 'money', peak: 8_000 },
    ]);
    expect(groups).toEqual([[0, 3], [1], [2], [4, 5]]);
    expect(
      magnitudeGroups([
        { unit: 'count', peak: 10 },
        { unit: 'count', peak: 100 },
      ]),
    ).toEqual([[0, 1]]);
  });

  it('measures a column by its largest finite value', () => {
    expect(peakOf([3, null, -7, Number.NaN, 5])).toBe(7);
    expect(peakOf([])).toBe(0);
  });
});

describe('what action dialogs say', () => {
  const users: WordingContext = {
    t: labelT,
    described: USERS,
    nameOf: (row) => recordName(labelT, USERS, row),
    money: (cents) => formatCurrency(cents, language.value, 'CNY'),
  };
  const reviews: WordingContext = {
    ...users,
    described: WITHDRAWAL_REVIEW,
    nameOf: (row) => recordName(labelT, WITHDRAWAL_REVIEW, row),
  };
  const ban = USERS.actions.find((a) => a.name === 'ban' && a.target === 'row')!;
  const approve = WITHDRAWAL_REVIEW.actions.find((a) => a.name === 'approve')!;
  const reject = WITHDRAWAL_REVIEW.actions.find((a) => a.name === 'reject')!;
  const sakura = { id: 1, account: 'sakura2825' };
  const many = [sakura, { id: 2, account: 'jose4171' }, { id: 3, account: 'li221' }];
  const payout = {
    id: 9,
    userAccount: '+34612345678',
    amount: 120000,
    method: 'bankCard',
    accountInfo: 'CaixaBank 6499',
  };

  it('titles a dialog with the records it acts on', async () => {
    await use('en');
    expect(actionTitle(users, ban, { id: 1 }, [sakura])).toBe('Ban: sakura2825');
    expect(actionTitle(users, ban, { ids: [1, 2, 3] }, many)).toBe('Ban: 3 records (sakura2825, jose4171, li221)');
    expect(actionTitle(users, ban, { matching: {}, total: 1234 }, [])).toBe('Ban: all 1234 matching records');
    await use('es');
    expect(actionTitle(users, ban, { id: 1 }, [sakura])).toBe('Bloquear: sakura2825');
  });

  it('asks about money as a person would, in each language', async () => {
    await use('en');
    expect(actionQuestion(reviews, approve, { id: 9 }, [payout])).toBe(
      'Approve ¥1,200.00 to +34612345678 (Bank card)?',
    );
    expect(actionQuestion(reviews, reject, { id: 9 }, [payout])).toBe(
      'Reject the withdrawal of ¥1,200.00 to +34612345678 (Bank card)?',
    );
    const three = [
      payout,
      { ...payout, id: 10, userAccount: 'li221' },
      { ...payout, id: 11, userAccount: 'jose4171', amount: 30000 },
    ];
    expect(actionQuestion(reviews, approve, { ids: [9, 10, 11] }, three)).toBe(
      'Approve 3 withdrawals totalling ¥2,700.00: +34612345678, li221, jose4171?',
    );
    await use('es');
    expect(actionQuestion(reviews, approve, { id: 9 }, [payout])).toBe(
      '¿Aprobar 1200,00\u00a0¥ a +34612345678 (Tarjeta bancaria)?',
    );
    await use('zh');
    expect(actionQuestion(reviews, approve, { id: 9 }, [payout])).toBe(
      '确定向 +34612345678 支付 ¥1,200.00（银行卡）吗？',
    );
    await use('ja');
    expect(actionQuestion(reviews, approve, { id: 9 }, [payout])).toContain('+34612345678 への');
    for (const lang of LANGUAGES) {
      await use(lang);
      expect(actionQuestion(reviews, approve, { id: 9 }, [payout]), lang).not.toMatch(/Run|Ejecutar|执行|実行/);
    }
  });

  it('falls back to naming the action and its records where it has no wording of its own', async () => {
    await use('en');
    expect(actionQuestion(users, { name: 'resetPassword' }, { id: 1 }, [sakura])).toBe(
      'Run “Reset password” on sakura2825?',
    );
  });
});

describe('a dialog beside its record', () => {
  const viewport = { width: 1440, height: 900 };
  it('sits on the side with more room, clear of the record', () => {
    const high = placeBeside({ top: 300, bottom: 350, left: 224, right: 1416 }, viewport)!;
    expect(high.side).toBe('below');
    expect(high.region.top).toBeGreaterThan(350);
    const low = placeBeside({ top: 700, bottom: 750, left: 224, right: 1416 }, viewport)!;
    expect(low.side).toBe('above');
    expect(viewport.height - low.region.bottom).toBeLessThan(700);
  });

  it('asks for the record to be scrolled when neither side has room', () => {
    const phone = { width: 390, height: 844 };
    expect(roomNeeded(phone.height)).toBe(420);
    expect(placeBeside({ top: 330, bottom: 520, left: 15, right: 375 }, phone)).toBeNull();
    expect(placeBeside({ top: 100, bottom: 290, left: 15, right: 375 }, phone)?.side).toBe('below');
  });
});

describe('who an error log entry is about', () => {
  const own = { userId: '2', account: 'operator' };
  it('names the account, not the backend id', () => {
    expect(entryUser({ userId: '1', account: 'admin' }, own)).toBe('admin');
    expect(entryUser({ userId: '2' }, own)).toBe('operator');
    expect(entryUser({ userId: '5' }, own)).toBe('#5');
    expect(entryUser({ userId: null, account: null }, own)).toBeNull();
  });
});
