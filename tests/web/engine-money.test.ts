import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SIGN_IN_CONFIG, PUSH_CONFIG, ADMINS } from '../../server/contract/index.js';
import {
  formatCurrencyIn,
  formatMoney,
  formatMoneyIn,
  moneyInputText,
  parseMoney,
  readMoney,
} from '../../web/engine/shared/money.js';
import { LANGUAGES } from '../../web/lib/language.js';
import { draftFromRecord, recordFromDraft, sameDraft } from '../../web/engine/form/form-values.js';

describe('money', () => {
  it('parses amounts into the smallest unit without float errors', () => {
    expect(parseMoney('12.34')).toBe(1234);
    expect(parseMoney('0.29')).toBe(29);
    expect(parseMoney('1.1')).toBe(110);
    expect(parseMoney('5')).toBe(500);
    expect(parseMoney('5.')).toBe(500);
    expect(parseMoney('-3.07')).toBe(-307);
    expect(parseMoney(' 1,234.50 ')).toBe(123450);
    expect(parseMoney('19.99')).toBe(1999);
  });

  it('refuses what is not an amount with at most two decimals', () => {
    for (const bad of ['', 'abc', '1.234', '1e3', '--1', '.5.5', '12.3.4']) expect(parseMoney(bad), bad).toBeNull();
  });

  it('shows stored values divided by 100 with two decimals', () => {
    expect(formatMoney(1234)).toBe('12.34');
    expect(formatMoney(5)).toBe('0.05');
    expect(formatMoney(-307)).toBe('-3.07');
    expect(moneyInputText(undefined)).toBe('');
    expect(moneyInputText(100000)).toBe('1,000.00');
    expect(moneyInputText(100000, 'es')).toBe('1000,00');
    expect(moneyInputText(12345678, 'es')).toBe('123.456,78');
  });

  it('round-trips every amount through its text', () => {
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => parseMoney(formatMoney(cents)) === cents));
  });

  it('round-trips every amount through the form each language writes it in', () => {
    for (const lang of LANGUAGES) {
      fc.assert(
        fc.property(
          fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
          (cents) => parseMoney(formatMoneyIn(cents, lang), lang) === cents,
        ),
        { numRuns: 300 },
      );
    }
  });
});

describe('amounts as each language writes them', () => {
  it('reads a decimal comma in Spanish and a decimal point in the others', () => {
    expect(readMoney('1,50', 'es')).toEqual({ cents: 150 });
    expect(readMoney('100,00', 'es')).toEqual({ cents: 10000 });
    expect(readMoney('1.500', 'es')).toEqual({ cents: 150000 });
    expect(readMoney('1.234.567,89', 'es')).toEqual({ cents: 123456789 });
    for (const lang of ['en', 'zh', 'ja'] as const) {
      expect(readMoney('1,500.25', lang)).toEqual({ cents: 150025 });
      expect(readMoney('2.5', lang)).toEqual({ cents: 250 });
      expect(readMoney('1,234,567', lang)).toEqual({ cents: 123456700 });
    }
  });

  it('refuses the other decimal mark and says how it reads with this one', () => {
    expect(readMoney('2,50', 'en')).toEqual({ problem: 'moneyDecimalMark', suggestion: '2.50' });
    expect(readMoney('1,5', 'ja')).toEqual({ problem: 'moneyDecimalMark', suggestion: '1.5' });
    expect(readMoney('-1,50', 'zh')).toEqual({ problem: 'moneyDecimalMark', suggestion: '-1.50' });
    expect(readMoney('1.50', 'es')).toEqual({ problem: 'moneyDecimalMark', suggestion: '1,50' });
  });

  it('refuses text that could mean two amounts instead of guessing', () => {
    // A group mark in the wrong place, two decimal marks, a group mark among the decimals.
    for (const text of ['1,50,0', '12,34,567', '1.2.3', '1.500,25', ',5'])
      expect(readMoney(text, 'en'), text).toEqual({ problem: 'moneyAmbiguous' });
    for (const text of ['1.50.0', '1,2,3', '1,500.25', '12.34.567'])
      expect(readMoney(text, 'es'), text).toEqual({ problem: 'moneyAmbiguous' });
  });

  it('tells too many decimals and text that is no amount apart', () => {
    expect(readMoney('1.234', 'en')).toEqual({ problem: 'moneyDecimals' });
    expect(readMoney('1,234', 'es')).toEqual({ problem: 'moneyDecimals' });
    for (const text of ['abc', '1e3', '--1', '1 500', "1'500", '¥5', '']) {
      for (const lang of LANGUAGES) expect(readMoney(text, lang), `${lang} ${text}`).toEqual({ problem: 'notNumber' });
    }
  });

  it('reads an amount written without its leading zero', () => {
    expect(readMoney('.5', 'en')).toEqual({ cents: 50 });
    expect(readMoney(',05', 'es')).toEqual({ cents: 5 });
  });

  it('refuses a lone mark or sign, which holds no digit, instead of reading it as zero', () => {
    for (const text of ['.', ',', '-', '+', '- .']) {
      for (const lang of LANGUAGES) expect(readMoney(text, lang), `${lang} ${text}`).toEqual({ problem: 'notNumber' });
    }
  });

  it('takes a no-break space (as pasted from a formatted page) as the space it is, never as nothing', () => {
    expect(readMoney('1\u00a0500', 'en')).toEqual({ problem: 'notNumber' });
    expect(readMoney('1\u202f500,5', 'es')).toEqual({ problem: 'notNumber' });
    expect(readMoney('\u00a012.5\u202f', 'en')).toEqual({ cents: 1250 });
  });

  it('refuses text over several lines rather than failing on it or reading its first line', () => {
    expect(readMoney('1\n2', 'en')).toEqual({ problem: 'notNumber' });
    expect(readMoney('-5\r\n.5', 'en')).toEqual({ problem: 'notNumber' });
  });

  it('refuses a group mark that is not a thousands group even where the other pieces look right', () => {
    // Five digits before the group mark: no reading of it is a thousands separator.
    expect(readMoney('15000.000', 'es')).toEqual({ problem: 'moneyAmbiguous' });
    // A decimal part as well: the comma cannot be the other language's decimal mark.
    expect(readMoney('1,50.5', 'en')).toEqual({ problem: 'moneyAmbiguous' });
  });

  it('refuses an amount too large to hold in whole cents, and never formats one', () => {
    expect(readMoney('123456789012345678', 'en')).toEqual({ problem: 'notNumber' });
    expect(parseMoney('90071992547409.92')).toBeNull();
    for (const cents of [Number.NaN, 1.5, 2 ** 53, Number.POSITIVE_INFINITY])
      expect(formatMoneyIn(cents, 'en'), String(cents)).toBe('');
  });

  it('writes zero without a sign and a negative amount under one unit with one', () => {
    expect(formatMoneyIn(0, 'en')).toBe('0.00');
    expect(formatMoneyIn(-5, 'en')).toBe('-0.05');
    expect(formatMoneyIn(-123456, 'es')).toBe('-1234,56');
  });

  it('starts an amount input empty for a missing or unreadable value, never at zero', () => {
    for (const value of [null, undefined, '', 'abc', Number.NaN]) expect(moneyInputText(value), String(value)).toBe('');
    expect(moneyInputText('250')).toBe('2.50');
    expect(moneyInputText(0)).toBe('0.00');
  });

  it('reads the full-width digits and marks of a Chinese or Japanese input method', () => {
    expect(readMoney('１，５００．２５', 'zh')).toEqual({ cents: 150025 });
    expect(readMoney('１２．５', 'ja')).toEqual({ cents: 1250 });
  });
});

describe('form values', () => {
  it('shows money /100 and sends it back in the smallest unit', () => {
    const record = { enabled: true, dailyReward: 150, streakDays: 7, streakBonus: 1000, monthlyCap: 99999, rules: 'r' };
    const draft = draftFromRecord(SIGN_IN_CONFIG.fields, record);
    expect(draft.dailyReward).toBe('1.50');
    expect(draft.enabled).toBe(true);
    const out = recordFromDraft(SIGN_IN_CONFIG.fields, { ...draft, dailyReward: '12.34' });
    expect(out.errors).toEqual({});
    expect(out.values).toEqual({ ...record, dailyReward: 1234 });
  });

  it("reads and writes amounts the reader's way", () => {
    const draft = draftFromRecord(
      SIGN_IN_CONFIG.fields,
      { dailyReward: 150, streakDays: 7, streakBonus: 123456, monthlyCap: 1 },
      'es',
    );
    expect(draft.dailyReward).toBe('1,50');
    expect(draft.streakBonus).toBe('1234,56');
    const out = recordFromDraft(SIGN_IN_CONFIG.fields, { ...draft, dailyReward: '2,5', streakBonus: '1.234,56' }, 'es');
    expect(out.errors).toEqual({});
    expect(out.values).toMatchObject({ dailyReward: 250, streakBonus: 123456 });
    const english = draftFromRecord(SIGN_IN_CONFIG.fields, {
      dailyReward: 150,
      streakDays: 7,
      streakBonus: 1,
      monthlyCap: 1,
    });
    const refused = recordFromDraft(SIGN_IN_CONFIG.fields, {
      ...english,
      dailyReward: '2,50',
      streakBonus: '1.500,25',
    });
    expect(refused.errors).toEqual({ dailyReward: 'moneyDecimalMark', streakBonus: 'moneyAmbiguous' });
  });

  it('reports a bad amount and a range error with the shared codes', () => {
    const draft = draftFromRecord(SIGN_IN_CONFIG.fields, {
      dailyReward: 1,
      streakDays: 7,
      streakBonus: 1,
      monthlyCap: 1,
    });
    const out = recordFromDraft(SIGN_IN_CONFIG.fields, { ...draft, dailyReward: '1.234', streakDays: '1' });
    // Too many decimals says so; text that is no amount at all is another mistake.
    expect(out.errors).toEqual({ dailyReward: 'moneyDecimals', streakDays: 'tooSmall' });
    expect(recordFromDraft(SIGN_IN_CONFIG.fields, { ...draft, dailyReward: '1,000.001' }).errors).toEqual({
      dailyReward: 'moneyDecimals',
    });
    expect(recordFromDraft(SIGN_IN_CONFIG.fields, { ...draft, dailyReward: 'ten' }).errors).toEqual({
      dailyReward: 'notNumber',
    });
  });

  it('never shows a stored secret and keeps it when left empty', () => {
    const draft = draftFromRecord(PUSH_CONFIG.fields, {
      enabled: true,
      provider: 'jpush',
      appKey: 'k',
      masterSecret: 'old',
      apnsProduction: false,
    });
    expect(draft.masterSecret).toBe('');
    const kept = recordFromDraft(PUSH_CONFIG.fields, draft);
    expect(kept.errors).toEqual({});
    expect(kept.values).not.toHaveProperty('masterSecret');
    const changed = recordFromDraft(PUSH_CONFIG.fields, { ...draft, masterSecret: 'new-secret' });
    expect(changed.values.masterSecret).toBe('new-secret');
  });

  it('requires the password of a new account, and takes option lists as chosen', () => {
    const out = recordFromDraft(
      ADMINS.fields.filter((f) => !('readOnly' in f)),
      { account: 'ops', nickname: 'Ops', password: '', permissions: [], status: 'enabled' },
    );
    expect(out.errors).toEqual({ password: 'required', permissions: 'required' });
    const ok = recordFromDraft(
      ADMINS.fields.filter((f) => !('readOnly' in f)),
      { account: 'ops', nickname: 'Ops', password: 'pw', permissions: ['/manage/push'], status: 'enabled' },
    );
    expect(ok.values.permissions).toEqual(['/manage/push']);
  });

  it('tells a changed draft from an unchanged one', () => {
    const a = draftFromRecord(SIGN_IN_CONFIG.fields, { dailyReward: 150 });
    expect(sameDraft(a, { ...a })).toBe(true);
    expect(sameDraft(a, { ...a, dailyReward: '1.51' })).toBe(false);
    expect(sameDraft({ x: ['a'] }, { x: ['a', 'b'] })).toBe(false);
  });
});

describe('money with its currency', () => {
  it("writes an ISO 4217 code through Intl, in the reader's language, exact to the cent", () => {
    expect(formatCurrencyIn(123456789, 'CNY', 'en')).toBe('CNY\u00a01,234,567.89');
    expect(formatCurrencyIn(123456789, 'CNY', 'es')).toBe('1.234.567,89\u00a0CNY');
    expect(formatCurrencyIn(-150, 'cny', 'en')).toBe('-CNY\u00a01.50');
    // Beyond what a float holds to the cent.
    expect(formatCurrencyIn(9_007_199_254_740_991, 'CNY', 'en')).toBe('CNY\u00a090,071,992,547,409.91');
  });

  it("writes a token's symbol after the amount, and nothing when the currency is not said", () => {
    expect(formatCurrencyIn(250000, 'USDT', 'en')).toBe('2,500.00 USDT');
    expect(formatCurrencyIn(2_500_000, undefined, 'es')).toBe('25.000,00');
  });
});
