import type { CountAnswer, DailyStatisticsRow, FinanceData } from './dashboard.js';
import { PERMISSIONS, isAllowed } from './permissions.js';

/**
 * Which dashboard figures an administrator may see. The dashboard's calls need only a login, yet
 * its money figures are what the finance screens show: each money figure needs a permission of
 * the screen that handles that money, and counts of people and messages need none. The sandbox
 * answers only these fields, and the UI draws only these cards, series and rows.
 *
 * Bill records alone (a support desk's look-up of one user's bills) give no money figure: the
 * business's totals belong to the screens that run the money.
 */

const WITHDRAWALS = [PERMISSIONS.cashWithdrawalCheck];
/** The recharge channels and user balances screens (OnlineRecharge) share this permission. */
const RECHARGES = [PERMISSIONS.userBalance];
const BALANCES = [PERMISSIONS.userBalance];
const RED_PACKETS = [PERMISSIONS.userRedPack, PERMISSIONS.groupRedPack];
const SIGN_IN = [PERMISSIONS.signInConfig];

/** A figure's required permissions (any one of them); absent: a login is enough. */
type FigureRule<K extends string> = Partial<Record<K, readonly string[]>>;

export const COUNT_FIGURE_PERMISSIONS: FigureRule<keyof CountAnswer> = {
  pendingWithdrawals: WITHDRAWALS,
  rechargeToday: RECHARGES,
  withdrawalToday: WITHDRAWALS,
};

export const DAILY_FIGURE_PERMISSIONS: FigureRule<keyof DailyStatisticsRow> = {
  rechargeAmount: RECHARGES,
  rechargeCount: RECHARGES,
  withdrawalAmount: WITHDRAWALS,
  withdrawalCount: WITHDRAWALS,
  redPacketAmount: RED_PACKETS,
};

export const FINANCE_FIGURE_PERMISSIONS: Record<keyof FinanceData, readonly string[]> = {
  totalRecharge: RECHARGES,
  rechargeToday: RECHARGES,
  totalWithdrawal: WITHDRAWALS,
  totalWithdrawalFee: WITHDRAWALS,
  withdrawalToday: WITHDRAWALS,
  pendingWithdrawalAmount: WITHDRAWALS,
  pendingWithdrawalCount: WITHDRAWALS,
  totalBalance: BALANCES,
  totalRedPacket: RED_PACKETS,
  totalSignInReward: SIGN_IN,
};

/** Whether `held` may see the figure `key` under `rule`. */
export function mayShowFigure<K extends string>(rule: FigureRule<K>, key: K, held: readonly string[]): boolean {
  const required = rule[key];
  return required === undefined || isAllowed(required, held);
}

/** The answer with only the figures `held` may see (a copy; fields the rule does not name stay). */
export function visibleFigures<T extends object>(
  rule: FigureRule<Extract<keyof T, string>>,
  answer: T,
  held: readonly string[],
): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, value] of Object.entries(answer) as [Extract<keyof T, string>, T[Extract<keyof T, string>]][]) {
    if (mayShowFigure(rule, key, held)) out[key] = value;
  }
  return out;
}

/** Whether any finance figure is left to show: without one, the finance panel is not drawn. */
export function showsFinance(held: readonly string[]): boolean {
  return Object.values(FINANCE_FIGURE_PERMISSIONS).some((required) => isAllowed(required, held));
}
