import type { FieldDef } from '#contract';
import type { LabelT } from '../../i18n/resources/index.js';
import { fieldLabel } from '../shared/labels.js';
import type { Row } from '../shared/queries.js';
import { ValueView, valueText } from '../shared/value-cell.js';
import { recordMoney } from '../shared/money-currency.js';

interface Described {
  fields: readonly FieldDef[];
  recordFields?: readonly string[];
}

/**
 * The field that names a record: the resource's first `recordFields`, else its first column in
 * words (a picture cannot name anything), else the id.
 */
export function mainFieldKey(
  resource: Described & { fields: readonly { key: string; kind: string; column?: boolean }[] },
): string {
  return (
    resource.recordFields?.[0] ??
    resource.fields.find((f) => f.column && f.key !== 'id' && f.kind !== 'image')?.key ??
    'id'
  );
}

/** The fields that tell a person which record this is. */
export function describingFields(resource: Described): FieldDef[] {
  const keys = resource.recordFields?.length ? resource.recordFields : [mainFieldKey(resource)];
  return keys.map((k) => resource.fields.find((f) => f.key === k) ?? { key: k, kind: 'text' as const });
}

/** A record's name in one line of text: its naming field, or `#id` when that is empty. */
export function recordName(t: LabelT, resource: Described, row: Row): string {
  const [main] = describingFields(resource);
  const text = main ? valueText(t, main, row[main.key]) : '';
  return text || `#${String(row.id)}`;
}

/** An amount in the smallest unit, or null for a value that is none. */
function centsOf(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isSafeInteger(n) ? n : null;
}

/** The records an action is about, field by field, so nobody approves the wrong one. */
export function RecordSummary({ t, resource, rows }: { t: LabelT; resource: Described; rows: readonly Row[] }) {
  const fields = describingFields(resource);
  return (
    <ul className="flex max-h-60 flex-col gap-2 overflow-y-auto" data-testid="record-summary">
      {rows.map((row) => (
        <li
          key={String(row.id)}
          className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2"
          data-record-id={String(row.id)}
        >
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
            {fields.map((f) => (
              <div key={f.key} className="contents">
                <dt className="text-slate-500">{fieldLabel(t, f.key)}</dt>
                <dd className="min-w-0 break-words text-slate-800" data-record-field={f.key}>
                  {f.kind === 'money' && centsOf(row[f.key]) !== null ? (
                    // With its currency, as the question above and the reviewer's facts write it.
                    <span className="tabular-nums">{recordMoney(centsOf(row[f.key])!, row.currency)}</span>
                  ) : (
                    <ValueView t={t} field={f} value={row[f.key]} />
                  )}
                </dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ul>
  );
}
