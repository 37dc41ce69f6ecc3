import type { FieldDef, ListResource } from '#contract';
import { useSignals } from '@preact/signals-react/runtime';
import { backendOffer } from '../../api/session.js';
import { useLabelT } from '../../i18n/resources/index.js';
import { fieldLabel } from '../shared/labels.js';
import type { Row } from '../shared/queries.js';
import { ValueView } from '../shared/value-cell.js';

/** The kinds a map may show a backend's own field as (a field's `shown`): anything else is left out. */
const SHOWN_KINDS: ReadonlySet<string> = new Set(['text', 'number', 'switch', 'datetime', 'date', 'money']);

/** The record a detail answer is about: either the answer itself or its first object member ({user, wallet, …}). */
export function recordOf(resource: Pick<ListResource, 'fields'>, data: unknown): Row | null {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return null;
  const obj = data as Row;
  if (resource.fields.some((f) => f.key in obj)) return obj;
  const inner = Object.values(obj).find((v) => v && typeof v === 'object' && !Array.isArray(v));
  return (inner as Row | undefined) ?? obj;
}

/**
 * Every field of a record but its secrets, label beside value; then the bound backend's fields
 * outside the contract that its map shows (`shown`), read-only, labelled by their key.
 */
export function FieldList({ resource, record }: { resource: ListResource; record: Row }) {
  useSignals();
  const t = useLabelT();
  const listed: unknown = backendOffer.value.shown?.[resource.id];
  const shown: FieldDef[] = (Array.isArray(listed) ? (listed as unknown[]) : []).filter(
    (f): f is FieldDef =>
      typeof f === 'object' &&
      f !== null &&
      typeof (f as FieldDef).key === 'string' &&
      SHOWN_KINDS.has((f as FieldDef).kind) &&
      !resource.fields.some((own) => own.key === (f as FieldDef).key),
  );
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm" data-testid="record-fields">
      {[...resource.fields, ...shown]
        .filter((f) => f.kind !== 'password')
        .map((f) => (
          <div key={f.key} className="contents">
            <dt className="text-slate-500">{fieldLabel(t, f.key)}</dt>
            <dd className="break-words text-slate-800" data-detail-field={f.key}>
              <ValueView t={t} field={f} value={record[f.key]} />
            </dd>
          </div>
        ))}
    </dl>
  );
}
