import { session } from '../../api/session.js';
import { formatCurrency } from '../../lib/currency.js';
import { language } from '../../lib/settings.js';

/** An amount in the smallest unit with the wallet's currency (CURRENCY), the reader's way: "¥1,200.00". */
export function moneyWithCurrency(cents: number): string {
  return formatCurrency(cents, language.value, session.value?.currency ?? '');
}
