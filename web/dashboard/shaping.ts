import type { CountAnswer, DailyStatisticsRow, FinanceData } from '#contract';
import type { MessageKey } from '../i18n/index.js';
import { formatAmount, shortNumber } from '../lib/format.js';
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

/** Money in the smallest unit: under 1000 whole units with cents, above that shortened (12.3k). */
export function shortAmount(cents: number): string {
  if (!Number.isFinite(cents)) return formatAmount(0);
  const units = cents / 100;
  return Math.abs(units) < 1000 ? formatAmount(cents) : shortNumber(units);
}

/** The card text: shortened so eight cards fit a row. */
export function shortValue(value: number, kind: ValueKind): string {
  return kind === 'money' ? shortAmount(value) : shortNumber(value);
}

/** The exact figure, for the tooltip and screen readers behind a shortened card. */
export function exactValue(value: number, kind: ValueKind, locale: string): string {
  if (kind === 'money') {
    const [whole = '0', cents = '00'] = formatAmount(value).split('.');
    return `${Number(whole).toLocaleString(locale)}.${cents}`;
  }
  return Number.isFinite(value) ? value.toLocaleString(locale) : String(value);
}

export type DailySeriesKey = 'registrations' | 'activeUsers' | 'messages' | 'rechargeAmount' | 'withdrawalAmount' | 'redPacketAmount';

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
