import { session } from '../../api/session.js';
import { formatCurrency } from '../../lib/currency.js';
import type { Language } from '../../lib/language.js';
import { language } from '../../lib/settings.js';
import { formatMoneyIn } from './money.js';

/** An amount in the smallest unit with the wallet's currency (CURRENCY), the reader's way: "¥1,200.00". */
export function moneyWithCurrency(cents: number): string {
  return formatCurrency(cents, language.value, session.value?.currency ?? '');
}

/** The currency records name when they all name the same one (a withdrawal's `currency`), else undefined. */
export function currencyOfRows(rows: readonly Record<string, unknown>[]): string | undefined {
  const codes = new Set(rows.map((r) => (typeof r.currency === 'string' ? r.currency.trim().toUpperCase() : '')));
  const [only] = codes;
  return codes.size === 1 && only ? only : undefined;
}

/**
 * A record's amount, written one way wherever a dialog names it (the question, the record, the
 * reviewer's facts): "¥1,013.00" in the record's own currency when it names one, else the
 * wallet's. A code Intl has no symbol for (a token such as USDT) follows the amount.
 */
export function recordMoney(cents: number, currency?: unknown, lang: Language = language.value): string {
  if (!Number.isSafeInteger(cents)) return '';
  const own = typeof currency === 'string' ? currency.trim().toUpperCase() : '';
  const code = own || (session.value?.currency ?? '');
  if (/^[A-Z]{3}$/.test(code) || code === '') {
    try {
      return formatCurrency(cents, lang, code);
    } catch {
      // A three-letter code Intl does not know: written after the amount, as a token is.
    }
  }
  return `${formatMoneyIn(cents, lang)} ${code}`;
}
