import { useQuery } from '@tanstack/react-query';
import type { FieldDef, ListResource, Resource } from '#contract';
import { AUDIT_SECRET_CHANGED, type AuditEntry, type AuditRecord, type AuditValue } from '#contract/audit';
import { fetchHistory } from '../../api/audit.js';
import { useLabelT, type LabelKey, type LabelT } from '../../i18n/resources/index.js';
import type { RecordHistoryProps } from '../shared/types.js';
import { formatDateTime } from '../../lib/format.js';
import { language } from '../../lib/settings.js';
import { actionLabel, fieldLabel, resourceTitle } from '../shared/labels.js';
import { LoadFailed, Loading } from '../shared/states.js';
import { resourceKeys } from '../shared/queries.js';
import { valueText } from '../shared/value-cell.js';

/** What the audit trail shows of records: the history in a detail view, and the words the audit trail screen shares. */

/** `loginAttempts`: outsiders' logins counted per address and window rather than written one by one. */
const OWN_ACTIONS = ['create', 'update', 'delete', 'saveConfig', 'export', 'login', 'logout', 'loginAttempts'] as const;
const HELD_KINDS = ['hold', 'confirm', 'decline'] as const;

/** What an entry did, in the reader's language: the action's own label, or the trail's words for its own calls and kinds. */
export function auditActionText(t: LabelT, entry: Pick<AuditEntry, 'kind' | 'action' | 'path'>): string {
  const kind = HELD_KINDS.find((k) => k === entry.kind);
  const own = OWN_ACTIONS.find((a) => a === entry.action);
  const what = own
    ? t(`audit.action.${own}` as LabelKey)
    : entry.action
      ? actionLabel(t, entry.action)
      : (entry.path ?? '');
  return kind ? `${t(`audit.kind.${kind}` as LabelKey)}: ${what}` : what;
}

/** The resource an entry names, by its screen's title; the trail's own names as they are. */
export function auditResourceText(t: LabelT, resource: string | null): string {
  return resource ? resourceTitle(t, resource) : '';
}

/** Who did it: the account, else the user id. */
export function auditActorText(entry: Pick<AuditEntry, 'actor'>): string {
  return entry.actor.account ?? entry.actor.userId ?? '';
}

/** Whether the backend (or the gateway) refused the call. */
export function auditRefused(entry: Pick<AuditEntry, 'outcome'>): boolean {
  const code = entry.outcome?.code;
  return code !== undefined && code !== null && code !== 200;
}

function fieldOf(resource: Resource | null, key: string): Pick<FieldDef, 'key' | 'kind' | 'options' | 'resourceIds'> {
  const fields = resource && 'fields' in resource ? resource.fields : [];
  return fields.find((f) => f.key === key) ?? { key, kind: 'text' };
}

function shownValue(t: LabelT, resource: Resource | null, key: string, value: AuditValue | undefined): string {
  if (value === undefined) return t('history.unknown');
  if (value === null || value === '') return t('history.blank');
  if (value === AUDIT_SECRET_CHANGED) return t('history.secretChanged');
  const text = valueText(t, fieldOf(resource, key), value);
  return text === '' ? t('history.blank') : text;
}

/** Each value an edit changed: its field, what it was, what it became. */
export function Changes({
  t,
  resource,
  before,
  after,
}: {
  t: LabelT;
  resource: Resource | null;
  before: AuditRecord | null | undefined;
  after: AuditRecord;
}) {
  const keys = Object.keys(after);
  if (keys.length === 0) return null;
  return (
    <dl className="mt-1 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-0.5 text-xs" data-testid="history-changes">
      {keys.map((key) => (
        <div key={key} className="contents" data-change={key}>
          <dt className="text-slate-500">{fieldLabel(t, key)}</dt>
          <dd className="break-words text-slate-700">
            {before !== undefined && (
              <>
                <span data-before>
                  {before === null ? t('history.unknown') : shownValue(t, resource, key, before[key])}
                </span>
                <span aria-hidden="true"> → </span>
                <span className="sr-only">{t('history.becomes')}</span>
              </>
            )}
            <span data-after>{shownValue(t, resource, key, after[key])}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A record's history from the gateway's audit trail (GET /api/audit/history): each change made
 * through the console, newest first, with who, when and why, and what an edit changed.
 */
export function RecordHistory({ resource, id, t }: { resource: ListResource; id: unknown; t: LabelT }) {
  const query = useQuery({
    // Under the resource's key, so every change through the screen fetches it again.
    queryKey: [...resourceKeys.all(resource), 'history', String(id)],
    queryFn: ({ signal }) => fetchHistory(resource.id, [String(id)], signal),
  });
  if (query.isPending) return <Loading />;
  if (query.isError)
    return (
      <LoadFailed inline error={query.error} onRetry={() => void query.refetch()} message={t('history.loadFailed')} />
    );
  if (query.data.length === 0) return <p className="py-4 text-center text-slate-500">{t('history.empty')}</p>;
  return (
    <ol className="flex flex-col gap-2" data-testid="record-history">
      {query.data.map((entry) => (
        <li
          key={entry.id}
          className="rounded-md border border-slate-200 p-3 text-sm"
          data-history-action={entry.action ?? ''}
        >
          <p className="flex flex-wrap gap-x-2">
            <strong className="font-medium text-slate-800">{auditActionText(t, entry)}</strong>
            <span className="text-slate-600">{t('history.by', { name: auditActorText(entry) })}</span>
            <time className="text-slate-500" dateTime={entry.time}>
              {formatDateTime(entry.time, language.value)}
            </time>
          </p>
          {entry.reason && <p className="mt-1 text-slate-700">{t('history.reason', { reason: entry.reason })}</p>}
          {auditRefused(entry) && (
            <p className="mt-1 text-red-700">
              {t('history.refused', { message: entry.outcome?.msg ?? String(entry.outcome?.code ?? '') })}
            </p>
          )}
          {entry.after && <Changes t={t} resource={resource} before={entry.before} after={entry.after} />}
        </li>
      ))}
    </ol>
  );
}

/** The history section of a record's page: the record's audit trail in the reader's language. */
export function AuditHistory({ resource, id }: RecordHistoryProps) {
  const t = useLabelT();
  return <RecordHistory resource={resource} id={id} t={t} />;
}
