import type { CountAnswer, DailyStatisticsRow, FinanceData } from '#contract';
import type { MessageKey } from '../i18n/index.js';
import { formatCurrency, shortCurrency } from '../lib/currency.js';
import { formatCount, shortNumber } from '../lib/format.js';
import { localeOf, type Language } from '../lib/language.js';
import { parseDayKey } from './date-range.js';

/** How the dashboard turns the three answers into cards and chart series. */

export type ValueKind = 'count' | 'money';

export interface Figure<K extends string> {
  key: K;
  label: MessageKey;
  kind: ValueKind;
}

export const KPI_CARDS: readonly Figure<keyof CountAnswer>[] = [
  { key: 'userCount', label: 'dashboard.kpi.userCount', kind: 'count' },
  { key: 'newUsersToday', label: 'dashboard.kpi.newUsersToday', kind: 'count' },
  { key: 'activeUsersToday', label: 'dashboard.kpi.activeUsersToday', kind: 'count' },
  { key: 'onlineUsers', label: 'dashboard.kpi.onlineUsers', kind: 'count' },
  { key: 'groupCount', label: 'dashboard.kpi.groupCount', kind: 'count' },
  { key: 'messagesToday', label: 'dashboard.kpi.messagesToday', kind: 'count' },
  { key: 'pendingWithdrawals', label: 'dashboard.kpi.pendingWithdrawals', kind: 'count' },
  { key: 'rechargeToday', label: 'dashboard.kpi.rechargeToday', kind: 'money' },
];

export const FINANCE_FIGURES: readonly Figure<keyof FinanceData>[] = [
  { key: 'totalRecharge', label: 'dashboard.finance.totalRecharge', kind: 'money' },
  { key: 'totalWithdrawal', label: 'dashboard.finance.totalWithdrawal', kind: 'money' },
  { key: 'totalWithdrawalFee', label: 'dashboard.finance.totalWithdrawalFee', kind: 'money' },
  { key: 'totalBalance', label: 'dashboard.finance.totalBalance', kind: 'money' },
  { key: 'totalRedPacket', label: 'dashboard.finance.totalRedPacket', kind: 'money' },
  { key: 'totalSignInReward', label: 'dashboard.finance.totalSignInReward', kind: 'money' },
  { key: 'pendingWithdrawalAmount', label: 'dashboard.finance.pendingWithdrawalAmount', kind: 'money' },
  { key: 'pendingWithdrawalCount', label: 'dashboard.finance.pendingWithdrawalCount', kind: 'count' },
  { key: 'rechargeToday', label: 'dashboard.finance.rechargeToday', kind: 'money' },
  { key: 'withdrawalToday', label: 'dashboard.finance.withdrawalToday', kind: 'money' },
];

/** How the dashboard writes its figures: the reader's language and the wallet's currency ('' when unknown). */
export interface FigureFormat {
  lang: Language;
  currency: string;
}

/** Counts up to this are written whole (99,999 fits a card); larger ones are shortened. */
export const WHOLE_COUNT_BELOW = 100_000;

/**
 * Money is written whole (¥1,010.00, ¥99,999.99) below this many units: shortening ¥1,010 to ¥1k
 * hides what a reader acts on, and a whole figure of this size still fits a card.
 */
export const WHOLE_MONEY_BELOW = 100_000;

/**
 * The card text: a count whole while it fits, else shortened (1.2M); money with its currency,
 * whole below 100,000 units and shortened past that (¥734.4k), so eight cards fit a row. The
 * exact figure goes with it (exactValue) wherever it is shortened.
 */
export function shortValue(value: number, kind: ValueKind, format: FigureFormat): string {
  if (kind === 'money') {
    const cents = Number.isFinite(value) ? Math.round(value) : 0;
    if (Math.abs(cents) < WHOLE_MONEY_BELOW * 100) return formatCurrency(cents, format.lang, format.currency);
    return shortCurrency(cents, format.lang, format.currency);
  }
  if (!Number.isFinite(value) || Math.abs(value) < WHOLE_COUNT_BELOW) return formatCount(value, format.lang);
  return shortNumber(value).replace('.', countDecimal(format.lang));
}

/** The exact figure, for the tooltip and screen readers behind a shortened card, and the finance panel. */
export function exactValue(value: number, kind: ValueKind, format: FigureFormat): string {
  if (kind === 'money')
    return formatCurrency(Number.isFinite(value) ? Math.round(value) : 0, format.lang, format.currency);
  return formatCount(value, format.lang);
}

const decimals = new Map<Language, string>();
function countDecimal(lang: Language): string {
  let mark = decimals.get(lang);
  if (mark === undefined) {
    mark = new Intl.NumberFormat(localeOf(lang)).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
    decimals.set(lang, mark);
  }
  return mark;
}

/** The day row's field each card of today's figures compares with yesterday's. */
export const YESTERDAY_FIELD: Partial<Record<keyof CountAnswer, keyof DailyStatisticsRow>> = {
  newUsersToday: 'registrations',
  activeUsersToday: 'activeUsers',
  messagesToday: 'messages',
  rechargeToday: 'rechargeAmount',
};

/** Today against yesterday as a signed share ('+12%', '-8%', '0%'), or null when yesterday had none to compare with. */
export function changeAgainst(today: number, yesterday: number, lang: Language): string | null {
  if (!Number.isFinite(today) || !Number.isFinite(yesterday) || yesterday === 0) return null;
  return percentFormat(lang).format((today - yesterday) / Math.abs(yesterday));
}

const percents = new Map<Language, Intl.NumberFormat>();
function percentFormat(lang: Language): Intl.NumberFormat {
  let format = percents.get(lang);
  if (!format) {
    format = new Intl.NumberFormat(localeOf(lang), {
      style: 'percent',
      signDisplay: 'exceptZero',
      maximumFractionDigits: 0,
    });
    percents.set(lang, format);
  }
  return format;
}

export type DailySeriesKey =
  'registrations' | 'activeUsers' | 'messages' | 'rechargeAmount' | 'withdrawalAmount' | 'redPacketAmount';

export const COUNT_SERIES: readonly DailySeriesKey[] = ['registrations', 'activeUsers', 'messages'];
export const MONEY_SERIES: readonly DailySeriesKey[] = ['rechargeAmount', 'withdrawalAmount', 'redPacketAmount'];

/** uPlot's aligned data: x in Unix seconds, then one array per series in the order asked. */
export type AlignedSeries = [number[], ...(number | null)[][]];

/**
 * Rows to chart columns. Money is divided by 100 here so axes, legend and tooltip all read the
 * same unit; a row with an unreadable date is dropped rather than plotted at 1970.
 */
export function dailyColumns(rows: readonly DailyStatisticsRow[], keys: readonly DailySeriesKey[]): AlignedSeries {
  const money = new Set<DailySeriesKey>(MONEY_SERIES);
  const usable = rows
    .map((row) => ({ row, ms: parseDayKey(row.date) }))
    .filter((r): r is { row: DailyStatisticsRow; ms: number } => r.ms !== null)
    .sort((a, b) => a.ms - b.ms);
  const x = usable.map((r) => r.ms / 1000);
  const columns = keys.map((key) =>
    usable.map(({ row }) => {
      const v = row[key];
      if (typeof v !== 'number' || !Number.isFinite(v)) return null;
      return money.has(key) ? Math.round(v) / 100 : v;
    }),
  );
  return [x, ...columns];
}

/** Sums over the range, shown under the chart so the numbers stay readable without hovering. */
export function columnTotals(data: AlignedSeries): number[] {
  return data.slice(1).map((col) => (col as (number | null)[]).reduce<number>((sum, v) => sum + (v ?? 0), 0));
}
