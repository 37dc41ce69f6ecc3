import { GATEWAY_PATHS } from '#contract/gateway';
import { EXPORT_ROWS_HEADER, EXPORT_TOTAL_HEADER, type ExportColumn } from '#contract/audit';
import { RESOURCES, type FieldDef } from '#contract';
import { csvFileName } from '#contract/csv';
import type { LabelT } from '../../i18n/resources/index.js';
import type { Query } from '../../api/client.js';
import { postForFile } from '../../api/download.js';
import { fieldLabel, moduleLabel, optionLabel } from './labels.js';
import { normaliseParams } from './queries.js';

/**
 * The columns of an export as the gateway writes them: each field's label and, where the screen
 * shows a stored value by a label (an option, yes/no, a module's name), those labels, all in the
 * reader's language. Times, days, sizes and money are written by the gateway as data
 * (contract/csv.ts), so a spreadsheet reads them whatever the language. Passwords and images are
 * never exported.
 */
export function exportColumns(t: LabelT, fields: readonly FieldDef[]): ExportColumn[] {
  return fields
    .filter((f) => f.kind !== 'password' && f.kind !== 'image')
    .map((f) => {
      const column: ExportColumn = { key: f.key, label: fieldLabel(t, f.key), kind: f.kind };
      if (f.kind === 'switch') column.values = { true: t('engine.yes'), false: t('engine.no') };
      else if (f.options) column.values = Object.fromEntries(f.options.map((o) => [o, optionLabel(t, f.key, o)]));
      else if (f.resourceIds) column.values = Object.fromEntries(RESOURCES.map((r) => [r.id, moduleLabel(t, r.id)]));
      return column;
    });
}

export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  downloadBlob(new Blob([text], { type }), fileName);
}

/**
 * Counts the records of CSV text given in pieces: line ends outside quoted cells. The header is
 * one of them.
 */
export function csvRecordCounter(): (text: string) => number {
  let quoted = false;
  let records = 0;
  return (text) => {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 34) quoted = !quoted;
      else if (c === 10 && !quoted) records++;
    }
    return records;
  };
}

/**
 * The whole filtered list as a CSV file, made by the gateway (POST /api/export), which records the
 * export in the audit trail: the list's filters and sort go with it, paging does not. Progress
 * counts the rows as they arrive.
 */
export async function exportListCsv(
  resource: { id: string; fields: readonly FieldDef[] },
  query: Query,
  t: LabelT,
  onProgress?: (count: number) => void,
): Promise<{ count: number; capped: boolean }> {
  const { pageNum: _pageNum, pageSize: _pageSize, ...filters } = normaliseParams(query);
  const body = {
    resource: resource.id,
    query: Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, String(v)])),
    columns: exportColumns(t, resource.fields),
  };
  const count = csvRecordCounter();
  let rows = 0;
  const answer = await postForFile(GATEWAY_PATHS.export, body, (text) => {
    rows = Math.max(0, count(text) - 1);
    onProgress?.(rows);
  });
  const total = Number(answer.headers.get(EXPORT_TOTAL_HEADER));
  const written = Number(answer.headers.get(EXPORT_ROWS_HEADER));
  downloadBlob(answer.blob, csvFileName(resource.id));
  return { count: rows, capped: Number.isFinite(total) && Number.isFinite(written) && total > written };
}
