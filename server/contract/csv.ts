import { centsText } from './money.js';

/**
 * CSV as the console writes it, wherever the file is made (the gateway streams list exports and
 * the audit trail): UTF-8 with a BOM, CRLF line ends, and no cell a spreadsheet would run.
 */

export const CSV_BOM = '\uFEFF';

export interface CsvColumn<Row> {
  label: string;
  value: (row: Row) => string;
}

/** A signed number as a spreadsheet reads it: a value, never a formula. */
const SIGNED_NUMBER = /^[+-](\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A cell starting with one of these runs as a formula: `=`, `@`, a tab or a return. */
const FORMULA_START = /^[=@\t\r]/;

/**
 * Field separators of the common locales: `,` (en), `;` (de, fr, es, and Excel wherever the decimal
 * mark is a comma) and tab (a paste). A spreadsheet that splits on one of them reads the text after
 * it as a cell of its own, so that text must not start a formula either.
 */
const SEPARATOR = /[,;\t]/;

function runs(text: string): boolean {
  return FORMULA_START.test(text) || (/^[+-]/.test(text) && !SIGNED_NUMBER.test(text));
}

/**
 * A spreadsheet must not run a cell as a formula, so only cells it would run get an apostrophe:
 * `=`, `@`, a leading tab or return, and `+` or `-` followed by anything but a number. Phone
 * numbers and accounts such as +8613800138000, and negative amounts, stay as they are. The same
 * holds for each part after a separator (`x;=2+5;y` read in a `;` locale), which gets the
 * apostrophe after its separator.
 */
function defuse(text: string): string {
  const parts = (runs(text) ? `'${text}` : text).split(/([,;\t])/);
  for (let i = 2; i < parts.length; i += 2) {
    const part = parts[i]!;
    const start = part.trimStart();
    if (runs(start)) parts[i] = `${part.slice(0, part.length - start.length)}'${start}`;
  }
  return parts.join('');
}

/** Quoted: a quote, a line end, a separator of any common locale, or white space at either end. */
export function csvCell(value: string): string {
  const text = defuse(value);
  return /["\r\n]|^\s|\s$/.test(text) || SEPARATOR.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record: its cells joined, ending with CRLF. */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** UTF-8 BOM (so Excel reads Chinese right), a header row, CRLF line ends. */
export function toCsv<Row>(columns: readonly CsvColumn<Row>[], rows: readonly Row[]): string {
  let text = CSV_BOM + csvLine(columns.map((c) => c.label));
  for (const row of rows) text += csvLine(columns.map((c) => c.value(row)));
  return text;
}

/** "users-2024-05-01.csv": safe on every file system. */
export function csvFileName(base: string, now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const clean = base.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'export';
  return `${clean}-${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}.csv`;
}

/** What a column of an export needs to write its cells (ExportColumn without its label). */
export interface CsvField {
  kind: string;
  values?: Readonly<Record<string, string>>;
}

/**
 * One stored value as an export writes it. Times go out in ISO 8601 (UTC), days as YYYY-MM-DD and
 * sizes as whole bytes, so a spreadsheet or a script reads them whatever the reader's zone and
 * language; money as units with two decimals; options, yes/no and module names by the labels the
 * reader's screen gives them (`values`).
 */
export function csvValue(field: CsvField, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const label = (v: unknown) => field.values?.[String(v)] ?? String(v);
  switch (field.kind) {
    case 'datetime': {
      const time = new Date(value as string);
      return Number.isNaN(time.getTime()) ? String(value) : time.toISOString();
    }
    case 'money':
      return centsText(value as number);
    case 'password':
      return '';
    case 'lines':
      return Array.isArray(value) ? value.map(label).join(', ') : label(value);
    case 'switch':
    case 'select':
      return label(value);
    default:
      if (typeof value === 'object') return JSON.stringify(value);
      return field.values ? label(value) : String(value);
  }
}
