import type { LabelT } from '../../i18n/resources/index.js';
import type { ImportRow, ImportSpec } from './import-rows.js';
import type { RunOutcome } from './import-run.js';
import { fieldLabel, validationMessage } from '../shared/labels.js';

/** The rows of an import, before (their check) and after (what became of each), with the reason in words. */

/** Rows drawn at most: a 5,000-row file is summarised, and the whole report downloads as CSV. */
export const SHOWN_ROWS = 200;

export type RowState = ImportRow['status'] | RunOutcome['status'];

export function rowState(row: ImportRow, outcome: RunOutcome | undefined): RowState {
  return outcome?.status ?? row.status;
}

export function reasonText(t: LabelT, spec: ImportSpec, row: ImportRow, outcome: RunOutcome | undefined): string {
  if (row.status === 'invalid')
    return row.problems.map((p) => `${fieldLabel(t, p.field)}: ${validationMessage(t, p.code)}`).join('; ');
  if (row.status === 'duplicate')
    return t('import.reason.duplicate', { field: fieldLabel(t, spec.key.key), line: row.duplicateOf ?? 0 });
  const reason = outcome?.reason;
  if (!reason) return '';
  if (reason.kind === 'backend') return reason.message;
  if (reason.kind === 'missing') return t('import.reason.missing', { field: fieldLabel(t, spec.key.key) });
  return t(reason.kind === 'present' ? 'import.reason.present' : 'import.reason.applied');
}

const STATE_STYLE: Record<RowState, string> = {
  ready: 'text-slate-700',
  invalid: 'text-red-700',
  duplicate: 'text-amber-700',
  added: 'text-green-700',
  done: 'text-green-700',
  skipped: 'text-slate-600',
  refused: 'text-red-700',
  notSent: 'text-amber-700',
};

export function ImportTable({
  t,
  spec,
  rows,
  outcomes,
}: {
  t: LabelT;
  spec: ImportSpec;
  rows: readonly ImportRow[];
  outcomes: ReadonlyMap<number, RunOutcome> | null;
}) {
  const shown = rows.slice(0, SHOWN_ROWS);
  return (
    <div className="min-h-0 overflow-auto rounded-md border border-slate-200">
      <table className="w-full text-left text-sm" data-testid="import-rows">
        <thead className="sticky top-0 bg-slate-50 text-xs text-slate-600">
          <tr>
            <th scope="col" className="px-2 py-1">
              {t('import.line')}
            </th>
            {spec.columns.map((f) => (
              <th key={f.key} scope="col" className="px-2 py-1">
                {fieldLabel(t, f.key)}
              </th>
            ))}
            <th scope="col" className="px-2 py-1">
              {t('import.status')}
            </th>
            <th scope="col" className="px-2 py-1">
              {t('import.reason')}
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => {
            const outcome = outcomes?.get(row.line);
            const state = rowState(row, outcome);
            return (
              <tr key={row.line} className="border-t border-slate-100" data-line={row.line} data-state={state}>
                <td className="px-2 py-1 text-slate-500 tabular-nums">{row.line}</td>
                {spec.columns.map((f) => (
                  <td key={f.key} className="max-w-48 truncate px-2 py-1" title={row.cells[f.key]}>
                    {row.cells[f.key] ?? ''}
                  </td>
                ))}
                <td className={`px-2 py-1 font-medium whitespace-nowrap ${STATE_STYLE[state]}`}>
                  {t(`import.status.${state}`)}
                </td>
                <td className="px-2 py-1 text-slate-600">{reasonText(t, spec, row, outcome)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {rows.length > shown.length && (
        <p className="px-2 py-1 text-xs text-slate-500">
          {t('import.moreRows', { count: rows.length - shown.length })}
        </p>
      )}
    </div>
  );
}
