import { describe, expect, it } from 'vitest';
import type { DailyStatisticsRow } from '../../server/contract/index.js';
import {
  MAX_RANGE_DAYS,
  lastDays,
  matchingPreset,
  parseDayKey,
  rangeDays,
  rangeProblem,
} from '../../web/dashboard/date-range.js';
import {
  COUNT_SERIES,
  MONEY_SERIES,
  YESTERDAY_FIELD,
  changeAgainst,
  columnTotals,
  dailyColumns,
  exactValue,
  shortValue,
} from '../../web/dashboard/shaping.js';

function row(date: string, over: Partial<DailyStatisticsRow> = {}): DailyStatisticsRow {
  return {
    date,
    registrations: 3,
    activeUsers: 40,
    messages: 1200,
    newGroups: 1,
    rechargeAmount: 12345,
    rechargeCount: 2,
    withdrawalAmount: 500,
    withdrawalCount: 1,
    redPacketAmount: 99,
    ...over,
  };
}

const en = { lang: 'en', currency: 'CNY' } as const;
const es = { lang: 'es', currency: 'CNY' } as const;
const bare = { lang: 'en', currency: '' } as const;

describe('dashboard figures', () => {
  it('shows money divided by 100 with its currency, whole below 100,000 units and shortened from there', () => {
    expect(shortValue(12345, 'money', en)).toBe('¥123.45');
    expect(shortValue(99_999, 'money', en)).toBe('¥999.99');
    // The card: ¥1,010 was "¥1k"; a figure this size is written whole.
    expect(shortValue(101_000, 'money', en)).toBe('¥1,010.00');
    expect(shortValue(9_999_999, 'money', en)).toBe('¥99,999.99');
    expect(shortValue(10_000_000, 'money', en)).toBe('¥100k');
    expect(shortValue(73_440_000, 'money', en)).toBe('¥734.4k');
    expect(shortValue(4_200_000_000, 'money', en)).toBe('¥42M');
    // Deliberately changed from '-¥2.5k': a small refund is written whole too.
    expect(shortValue(-250_000, 'money', en)).toBe('-¥2,500.00');
    expect(shortValue(-25_000_000, 'money', en)).toBe('-¥250k');
    expect(shortValue(Number.NaN, 'money', en)).toBe('¥0.00');
    // The language places the symbol and writes the decimal mark.
    expect(shortValue(73_440_000, 'money', es)).toBe('734,4k\u00a0¥');
    // No currency configured: the bare figure.
    expect(shortValue(12345, 'money', bare)).toBe('123.45');
  });

  it('writes counts whole up to 99,999 and shortens larger ones with k/M/G', () => {
    expect(shortValue(987, 'count', en)).toBe('987');
    expect(shortValue(19_040, 'count', en)).toBe('19,040');
    expect(shortValue(19_040, 'count', es)).toBe('19.040');
    expect(shortValue(1_530_000, 'count', en)).toBe('1.5M');
    expect(shortValue(1_530_000, 'count', es)).toBe('1,5M');
    expect(shortValue(2_000_000_000, 'count', en)).toBe('2G');
  });

  it('gives the exact figure behind a shortened card, with the currency, as the language writes it', () => {
    expect(exactValue(73_440_000, 'money', en)).toBe('¥734,400.00');
    expect(exactValue(123_456_789, 'money', en)).toBe('¥1,234,567.89');
    expect(exactValue(123_456_789, 'money', es)).toBe('1.234.567,89\u00a0¥');
    expect(exactValue(5, 'money', en)).toBe('¥0.05');
    expect(exactValue(123_456_789, 'money', { lang: 'en', currency: 'EUR' })).toBe('€1,234,567.89');
    expect(exactValue(1_234_567, 'count', en)).toBe('1,234,567');
    expect(exactValue(1_234_567, 'count', es)).toBe('1.234.567');
  });
});

describe('today against yesterday', () => {
  it('gives the signed change as the language writes a share, and none against an empty yesterday', () => {
    expect(changeAgainst(112, 100, 'en')).toBe('+12%');
    expect(changeAgainst(92, 100, 'en')).toBe('-8%');
    expect(changeAgainst(100, 100, 'en')).toBe('0%');
    expect(changeAgainst(5, 0, 'en')).toBeNull();
    expect(changeAgainst(150, 100, 'es')).toMatch(/^\+50\s?%$/);
  });

  it("compares each of today's cards with the matching day's series", () => {
    expect(YESTERDAY_FIELD).toEqual({
      newUsersToday: 'registrations',
      activeUsersToday: 'activeUsers',
      messagesToday: 'messages',
      rechargeToday: 'rechargeAmount',
    });
  });
});

describe('daily chart columns', () => {
  it('puts days in order as Unix seconds and divides money by 100', () => {
    const data = dailyColumns(
      [row('2024-03-02', { rechargeAmount: 250 }), row('2024-03-01')],
      [...COUNT_SERIES, ...MONEY_SERIES],
    );
    expect(data[0]).toEqual([Date.UTC(2024, 2, 1) / 1000, Date.UTC(2024, 2, 2) / 1000]);
    expect(data[1]).toEqual([3, 3]);
    expect(data[3]).toEqual([1200, 1200]);
    expect(data[4]).toEqual([123.45, 2.5]);
    expect(data[6]).toEqual([0.99, 0.99]);
  });

  it('drops a row with an unreadable day and keeps a missing figure as a gap', () => {
    const broken = { ...row('2024-03-03'), messages: undefined } as unknown as DailyStatisticsRow;
    const data = dailyColumns([row('2024-02-30'), row('yesterday'), broken], ['messages']);
    expect(data[0]).toEqual([Date.UTC(2024, 2, 3) / 1000]);
    expect(data[1]).toEqual([null]);
  });

  it('totals each series over the range, gaps counting as zero', () => {
    expect(
      columnTotals([
        [1, 2, 3],
        [1, null, 2],
        [0.5, 0.25, 0],
      ]),
    ).toEqual([3, 0.75]);
  });
});

describe('date range', () => {
  const now = Date.UTC(2024, 5, 15, 23, 30);

  it('defaults to the last 30 days including today, in UTC days', () => {
    expect(lastDays(now)).toEqual({ startDate: '2024-05-17', endDate: '2024-06-15' });
    expect(rangeDays(lastDays(now))).toBe(30);
    expect(lastDays(now, 7)).toEqual({ startDate: '2024-06-09', endDate: '2024-06-15' });
  });

  it('reads only real calendar days', () => {
    expect(parseDayKey('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(parseDayKey('2023-02-29')).toBeNull();
    expect(parseDayKey('2024-2-1')).toBeNull();
  });

  it('refuses reversed, unreadable and over-long ranges before asking the backend', () => {
    expect(rangeProblem({ startDate: '2024-06-15', endDate: '2024-06-15' })).toBeNull();
    expect(rangeProblem({ startDate: '2024-06-16', endDate: '2024-06-15' })).toBe('reversed');
    expect(rangeProblem({ startDate: '', endDate: '2024-06-15' })).toBe('invalid');
    expect(rangeProblem(lastDays(now, MAX_RANGE_DAYS))).toBeNull();
    expect(rangeProblem(lastDays(now, MAX_RANGE_DAYS + 1))).toBe('tooLong');
  });

  it('recognises a preset range so its button shows pressed', () => {
    expect(matchingPreset(lastDays(now, 90), now)).toBe(90);
    expect(matchingPreset({ startDate: '2024-06-01', endDate: '2024-06-15' }, now)).toBeNull();
  });
});
