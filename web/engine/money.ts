import { formatAmount } from '../lib/format.js';

/** Money is stored in the smallest unit and shown divided by 100. */

export const formatMoney = formatAmount;

const MONEY_TEXT = /^([+-]?)(\d+)(?:\.(\d{0,2}))?$/;

/**
 * '12.34' -> 1234 without passing through a float, so 0.29 never turns into 28.999…; null for
 * text that is not an amount with at most two decimals.
 */
export function parseMoney(text: string): number | null {
  const m = MONEY_TEXT.exec(text.trim().replace(/,/g, ''));
  if (!m) return null;
  const [, sign, whole = '0', fraction = ''] = m;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return null;
  return sign === '-' ? -cents : cents;
}

/** The text an amount input starts with: '' for a missing value, else the /100 form. */
export function moneyInputText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const n = Number(value);
  return Number.isFinite(n) ? formatAmount(n) : '';
}
