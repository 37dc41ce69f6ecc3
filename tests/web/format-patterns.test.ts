import { describe, expect, it } from 'vitest';
import { dateTimeParts, formatDay } from '../../web/lib/format.js';
import { LANGUAGES, localeOf } from '../../web/lib/language.js';
import { formatMoneyIn } from '../../web/engine/shared/money.js';

/**
 * Dates and amounts in table cells are written from patterns read once from Intl, not by Intl per
 * cell: what they write must be exactly what Intl writes, in every language, for every value.
 */

/** A fixed-seed generator: the same values every run, spread over the whole range. */
function numbers(seed: number, count: number, max: number): number[] {
  let x = seed;
  return Array.from({ length: count }, () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return Math.floor((x / 2147483648) * max);
  });
}

describe('dates written from the language pattern', () => {
  const moments = [
    ...numbers(7, 300, Date.UTC(2099, 0, 1)).map((ms) => new Date(ms)),
    new Date(2026, 0, 1, 0, 0, 0),
    new Date(2026, 11, 31, 23, 59, 59),
    new Date(1999, 1, 28, 9, 3, 7),
  ];
  for (const lang of LANGUAGES) {
    it(`matches Intl in ${lang}`, () => {
      const date = new Intl.DateTimeFormat(localeOf(lang), { year: 'numeric', month: '2-digit', day: '2-digit' });
      const time = new Intl.DateTimeFormat(localeOf(lang), {
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      });
      for (const d of moments) expect(dateTimeParts(d, lang)).toEqual({ date: date.format(d), time: time.format(d) });
    });
    it(`writes calendar days as Intl does in ${lang}`, () => {
      const day = new Intl.DateTimeFormat(localeOf(lang), {
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        timeZone: 'UTC',
      });
      for (const d of moments) {
        const text = d.toISOString().slice(0, 10);
        expect(formatDay(text, lang)).toBe(day.format(new Date(`${text}T00:00:00Z`)));
      }
    });
  }
  it('leaves years of other than four digits to Intl', () => {
    const early = new Date(Date.UTC(999, 5, 15));
    expect(formatDay('0999-06-15', 'en')).toBe(
      new Intl.DateTimeFormat('en-US', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' }).format(
        early,
      ),
    );
  });
});

describe('amounts grouped from the language pattern', () => {
  const amounts = [
    0,
    1,
    99,
    100,
    99999,
    100000,
    123456,
    999999,
    1000000,
    12345678,
    -123456,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    ...numbers(3, 300, 1e12),
  ];
  for (const lang of LANGUAGES) {
    it(`matches Intl in ${lang}`, () => {
      const whole = new Intl.NumberFormat(localeOf(lang), { maximumFractionDigits: 0 });
      const decimal = new Intl.NumberFormat(localeOf(lang)).formatToParts(1.5).find((p) => p.type === 'decimal')!.value;
      for (const cents of amounts) {
        const abs = Math.abs(cents);
        const expected = `${cents < 0 ? '-' : ''}${whole.format(BigInt(Math.floor(abs / 100)))}${decimal}${String(abs % 100).padStart(2, '0')}`;
        expect(formatMoneyIn(cents, lang)).toBe(expected);
      }
    });
  }
});
