import type { FieldDef } from '#contract';
import type { LabelT } from '../i18n/resources/index.js';
import type { Query } from '../api/client.js';
import { csvFileName, toCsv, type CsvColumn } from './csv.js';
import { fieldLabel } from './labels.js';
import { fetchList, type Row } from './queries.js';
import { valueText } from './value-cell.js';
import { formatAmount } from '../lib/format.js';

export const EXPORT_PAGE_SIZE = 200;
export const EXPORT_CAP = 10_000;

type Fetch = (query: Query, signal?: AbortSignal) => Promise<{ list: Row[]; total: number }>;

/**
 * Every row of the filtered set, page by page, up to `cap` rows. Stops early on a short page so a
 * total that changes while exporting cannot loop forever.
 */
export async function collectRows(
  fetchPage: Fetch,
  query: Query,
  options: { cap?: number; pageSize?: number; signal?: AbortSignal; onProgress?: (count: number) => void } = {},
): Promise<{ rows: Row[]; total: number; capped: boolean }> {
  const cap = options.cap ?? EXPORT_CAP;
  const pageSize = options.pageSize ?? EXPORT_PAGE_SIZE;
  const rows: Row[] = [];
  let total = 0;
  for (let pageNum = 1; rows.length < cap; pageNum++) {
    const page = await fetchPage({ ...query, pageNum, pageSize }, options.signal);
    total = page.total;
    rows.push(...page.list);
    options.onProgress?.(Math.min(rows.length, cap));
    if (page.list.length < pageSize || rows.length >= total) break;
  }
  return { rows: rows.slice(0, cap), total, capped: total > cap };
}

/**
 * Times go out in ISO 8601 (UTC), days as YYYY-MM-DD, sizes as whole bytes, counts without digit
 * grouping and amounts with a point and two decimals: a spreadsheet or a script reads them
 * whatever the reader's zone and language.
 */
function csvValue(t: LabelT, field: FieldDef, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (field.kind === 'datetime') {
    const time = new Date(value as string);
    return Number.isNaN(time.getTime()) ? String(value) : time.toISOString();
  }
  if (field.kind === 'date' || field.kind === 'bytes' || field.kind === 'number') return String(value);
  if (field.kind === 'money') return formatAmount(value as number);
  return valueText(t, field, value);
}

export function csvColumns(t: LabelT, fields: readonly FieldDef[]): CsvColumn<Row>[] {
  return fields.map((f) => ({ label: fieldLabel(t, f.key), value: (row: Row) => csvValue(t, f, row[f.key]) }));
}

export function downloadText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export async function exportListCsv(
  resource: { id: string; path: string; fields: readonly FieldDef[] },
  query: Query,
  t: LabelT,
  onProgress?: (count: number) => void,
): Promise<{ count: number; capped: boolean }> {
  const { rows, capped } = await collectRows((q, signal) => fetchList(resource, q, signal), query, { onProgress });
  const fields = resource.fields.filter((f) => f.kind !== 'password' && f.kind !== 'image');
  downloadText(toCsv(csvColumns(t, fields), rows), csvFileName(resource.id));
  return { count: rows.length, capped };
}
