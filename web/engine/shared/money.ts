import { formatAmount } from '../../lib/format.js';
import { localeOf, type Language } from '../../lib/language.js';

/** Money is stored in the smallest unit and shown divided by 100. */

export const formatMoney = formatAmount;

/** How a language writes the decimal mark and the digit-group separator ("1,234.5", es "1.234,5"). */
export interface NumberMarks {
  decimal: string;
  group: string;
}

const marksByLanguage = new Map<Language, NumberMarks>();

/** The language's own marks, as Intl writes them, so a reader's habit is never guessed. */
export function numberMarks(lang: Language): NumberMarks {
  let marks = marksByLanguage.get(lang);
  if (!marks) {
    const parts = new Intl.NumberFormat(localeOf(lang)).formatToParts(1234567.5);
    const part = (type: string, fallback: string) => parts.find((p) => p.type === type)?.value ?? fallback;
    // A no-break space (as some languages group) is typed as a plain space.
    const plain = (mark: string) => mark.replace(/[\u00a0\u202f]/g, ' ');
    marks = { decimal: plain(part('decimal', '.')), group: plain(part('group', ',')) };
    marksByLanguage.set(lang, marks);
  }
  return marks;
}

/**
 * What an administrator's amount text says, read the way their language writes numbers. A problem
 * is never guessed around: `moneyDecimalMark` is the other language's decimal mark where this one
 * groups ("1,50" in English), with the reading that mark would give as `suggestion`;
 * `moneyAmbiguous` is text that could mean two amounts (a group mark in the wrong place, two
 * decimal marks, a group mark among the decimals).
 */
export type MoneyReading =
  | { cents: number }
  | { problem: 'notNumber' | 'moneyDecimals' | 'moneyAmbiguous' }
  | { problem: 'moneyDecimalMark'; suggestion: string };

const escape = (mark: string) => mark.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function readMoney(text: string, lang: Language): MoneyReading {
  const { decimal, group } = numberMarks(lang);
  // NFKC turns the full-width digits and marks of a Chinese or Japanese input method into ASCII.
  const normalized = text
    .normalize('NFKC')
    .replace(/[\u00a0\u202f]/g, ' ')
    .trim();
  // [\s\S], not `.`: a pasted line break stays in the body (and is refused there) instead of
  // failing the match.
  const signed = /^([+-]?)\s*([\s\S]*)$/.exec(normalized)!;
  const sign = signed[1]!;
  const body = signed[2]!;
  if (!/^[\d.,' ]+$/.test(body) || !/\d/.test(body)) return { problem: 'notNumber' };
  // A mark this language writes neither as its decimal mark nor as its group separator.
  for (const ch of body.replace(/\d/g, '')) if (ch !== decimal && ch !== group) return { problem: 'notNumber' };

  const pieces = body.split(decimal);
  if (pieces.length > 2) return { problem: 'moneyAmbiguous' };
  const whole = pieces[0]!;
  const fraction = pieces[1] ?? '';
  if (fraction.includes(group)) return { problem: 'moneyAmbiguous' };

  let digits = whole;
  if (whole.includes(group)) {
    const g = escape(group);
    if (new RegExp(`^\\d{1,3}(${g}\\d{3})+$`).test(whole)) {
      digits = whole.split(group).join('');
    } else if (pieces.length === 1 && new RegExp(`^\\d+${g}\\d{1,2}$`).test(whole)) {
      return { problem: 'moneyDecimalMark', suggestion: `${sign}${whole.replace(group, decimal)}` };
    } else {
      return { problem: 'moneyAmbiguous' };
    }
  }
  if (fraction.length > 2) return { problem: 'moneyDecimals' };
  const cents = Number(digits || '0') * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return { problem: 'notNumber' };
  return { cents: sign === '-' ? -cents : cents };
}

/** The smallest unit an amount text means in `lang`, or null for text that is no amount there. */
export function parseMoney(text: string, lang: Language = 'en'): number | null {
  const reading = readMoney(text, lang);
  return 'cents' in reading ? reading.cents : null;
}

const wholeFormatters = new Map<Language, Intl.NumberFormat>();

/**
 * 150000 -> "1,500.00" (es "1.500,00"): an amount as the reader's language writes it, and as
 * readMoney reads it back. Built from integers, so no float ever rounds a large amount's cents.
 */
export function formatMoneyIn(cents: number, lang: Language): string {
  if (!Number.isSafeInteger(cents)) return '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const grouping = groupingOf(lang);
  const units = grouping ? groupDigits(String(whole), grouping) : wholeFormatter(lang).format(BigInt(whole));
  return `${cents < 0 ? '-' : ''}${units}${numberMarks(lang).decimal}${String(abs % 100).padStart(2, '0')}`;
}

function wholeFormatter(lang: Language): Intl.NumberFormat {
  let whole = wholeFormatters.get(lang);
  if (!whole) wholeFormatters.set(lang, (whole = new Intl.NumberFormat(localeOf(lang), { maximumFractionDigits: 0 })));
  return whole;
}

/** How a language groups a whole number's digits: its mark, in threes, from `minimum` digits on. */
interface Grouping {
  mark: string;
  minimum: number;
}

/**
 * The language's grouping as Intl writes it, read once from sample numbers (Spanish leaves four
 * digits whole: 1234 but 12.345), so a page of amounts is grouped by hand instead of asking Intl
 * for each cell. Null where Intl groups otherwise than in threes: that language keeps Intl.
 */
const groupings = new Map<Language, Grouping | null>();
function groupingOf(lang: Language): Grouping | null {
  if (groupings.has(lang)) return groupings.get(lang)!;
  const format = wholeFormatter(lang);
  const parts = format.formatToParts(1234567);
  const mark = parts.find((p) => p.type === 'group')?.value;
  let grouping: Grouping | null = null;
  if (
    mark !== undefined &&
    format.format(1234567) === `1${mark}234${mark}567` &&
    format.format(12345) === `12${mark}345`
  ) {
    const four = format.format(1234);
    if (four === `1${mark}234`) grouping = { mark, minimum: 4 };
    else if (four === '1234') grouping = { mark, minimum: 5 };
  }
  groupings.set(lang, grouping);
  return grouping;
}

function groupDigits(digits: string, { mark, minimum }: Grouping): string {
  if (digits.length < minimum) return digits;
  let text = '';
  for (let end = digits.length; end > 0; end -= 3)
    text = (end > 3 ? mark : '') + digits.slice(Math.max(0, end - 3), end) + text;
  return text;
}

/** The text an amount input starts with: '' for a missing value, else the reader's form. */
export function moneyInputText(value: unknown, lang: Language = 'en'): string {
  if (value === null || value === undefined || value === '') return '';
  const n = Number(value);
  return Number.isFinite(n) ? formatMoneyIn(Math.round(n), lang) : '';
}

const currencyFormatters = new Map<string, Intl.NumberFormat>();

/**
 * An amount with what it is in, as the reader's language writes money ("CNY 1,500.00", es
 * "1.500,00 CNY"). An ISO 4217 code goes through Intl; anything else (a token such as USDT) is
 * written after the amount; none, the amount alone. Exact to the cent at any size: Intl is given
 * the decimal text, never a float.
 */
export function formatCurrencyIn(cents: number, currency: unknown, lang: Language): string {
  const code = typeof currency === 'string' ? currency.trim().toUpperCase() : '';
  if (!Number.isSafeInteger(cents)) return '';
  if (/^[A-Z]{3}$/.test(code)) {
    const key = `${lang}:${code}`;
    let format = currencyFormatters.get(key);
    try {
      if (!format) {
        format = new Intl.NumberFormat(localeOf(lang), {
          style: 'currency',
          currency: code,
          currencyDisplay: 'code',
          minimumFractionDigits: 2,
          maximumFractionDigits: 2,
        });
        currencyFormatters.set(key, format);
      }
      const abs = Math.abs(cents);
      return format.format(
        `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}` as Intl.StringNumericLiteral,
      );
    } catch {
      // A code Intl does not know: written after the amount, as a token's symbol is.
    }
  }
  const amount = formatMoneyIn(cents, lang);
  return code ? `${amount} ${code}` : amount;
}
