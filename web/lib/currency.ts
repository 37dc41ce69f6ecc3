import { shortNumber } from './format.js';
import { localeOf, type Language } from './language.js';

/**
 * Amounts with their currency, the reader's way: "¥734,400.00" in English, "734.400,00 ¥" in
 * Spanish. The backend's amounts are in the smallest unit (hundredths) and never name their
 * currency: the operator sets it (CURRENCY), and an empty code gives the bare figure.
 */

const formatters = new Map<string, Intl.NumberFormat>();

function currencyFormat(lang: Language, currency: string): Intl.NumberFormat {
  const key = `${lang}:${currency}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(localeOf(lang), {
      ...(currency ? { style: 'currency', currency, currencyDisplay: 'narrowSymbol' } : {}),
      // Hundredths whatever the currency's own custom (JPY has none): that is what the backend stores.
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    formatters.set(key, format);
  }
  return format;
}

/** The exact decimal text of an amount in hundredths, so no float rounds a large amount's cents. */
function decimalText(cents: number): `${number}` {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}` as `${number}`;
}

/** 73440000 -> "¥734,400.00" (es "734.400,00 ¥"); '' for a value that is not a whole number of hundredths. */
export function formatCurrency(cents: number, lang: Language, currency: string): string {
  if (!Number.isSafeInteger(cents)) return '';
  return currencyFormat(lang, currency).format(decimalText(cents));
}

const NUMBER_PARTS = new Set(['integer', 'group', 'decimal', 'fraction']);

/**
 * 73440000 -> "¥734.4k" (es "734,4k ¥"): the shortened figure (k, M, G…) in the place and with the
 * decimal mark the language gives an amount. Under 1,000 units it is the exact amount.
 */
export function shortCurrency(cents: number, lang: Language, currency: string): string {
  if (!Number.isSafeInteger(cents)) return '';
  const units = cents / 100;
  if (Math.abs(units) < 1000) return formatCurrency(cents, lang, currency);
  const parts = currencyFormat(lang, currency).formatToParts(units < 0 ? -1 : 1);
  const decimal = parts.find((p) => p.type === 'decimal')?.value ?? '.';
  const short = shortNumber(Math.abs(units)).replace('.', decimal);
  let placed = false;
  return parts
    .map((p) => {
      if (!NUMBER_PARTS.has(p.type)) return p.value;
      if (placed) return '';
      placed = true;
      return short;
    })
    .join('');
}

const tickFormatters = new Map<string, Intl.NumberFormat>();

/** An axis tick: "¥0", "¥250", "¥1.5k" (es "1,5k ¥"): whole or shortened, no cents a tick never needs. */
export function currencyTick(units: number, lang: Language, currency: string): string {
  if (Math.abs(units) >= 1000) return shortCurrency(Math.round(units * 100), lang, currency);
  const key = `${lang}:${currency}`;
  let format = tickFormatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(localeOf(lang), {
      ...(currency ? { style: 'currency', currency, currencyDisplay: 'narrowSymbol' } : {}),
      minimumFractionDigits: 0,
      maximumFractionDigits: 2,
    });
    tickFormatters.set(key, format);
  }
  return format.format(units);
}
