/** CSV export: pure text building here, fetching and saving in export-csv.ts. */

export const CSV_BOM = '\uFEFF';

export interface CsvColumn<Row> {
  label: string;
  value: (row: Row) => string;
}

/** A signed number as a spreadsheet reads it: a value, never a formula. */
const SIGNED_NUMBER = /^[+-](\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A spreadsheet must not run a cell as a formula, so only cells it would run get an apostrophe:
 * `=`, `@`, a leading tab or return, and `+` or `-` followed by anything but a number. Phone
 * numbers and accounts such as +8613800138000, and negative amounts, stay as they are.
 */
function defuse(text: string): string {
  if (/^[=@\t\r]/.test(text) || (/^[+-]/.test(text) && !SIGNED_NUMBER.test(text))) return `'${text}`;
  return text;
}

export function csvCell(value: string): string {
  const text = defuse(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** UTF-8 BOM (so Excel reads Chinese right), a header row, CRLF line ends. */
export function toCsv<Row>(columns: readonly CsvColumn<Row>[], rows: readonly Row[]): string {
  const lines = [columns.map((c) => csvCell(c.label)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvCell(c.value(row))).join(','));
  return `${CSV_BOM}${lines.join('\r\n')}\r\n`;
}

/** "users-2024-05-01.csv": safe on every file system. */
export function csvFileName(base: string, now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const clean = base.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'export';
  return `${clean}-${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}.csv`;
}
