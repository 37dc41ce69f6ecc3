import { useQuery } from '@tanstack/react-query';
import type { ListResource, Resource } from '#contract';
import type { AuditRecord } from '#contract/audit';
import { fetchHistory } from '../../api/audit.js';
import { useLabelT, type LabelT } from '../../i18n/resources/index.js';
import type { RecordHistoryProps } from '../shared/types.js';
import { formatDateTime } from '../../lib/format.js';
import { language } from '../../lib/settings.js';
import { fieldLabel } from '../shared/labels.js';
import { LongValue } from '../shared/long-value.js';
import { auditActionText, auditActorText, auditRefused, changeTexts } from './audit-wording.js';
import { LoadFailed, Loading } from '../shared/states.js';
import { resourceKeys } from '../shared/queries.js';

/** What the audit trail shows of records: the history in a detail view, and the changes the audit trail screen shares. */

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
    <dl
      className="mt-1 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs"
      data-testid="history-changes"
    >
      {keys.map((key) => {
        const texts = changeTexts(t, resource, key, before, after);
        return (
          <div key={key} className="contents" data-change={key}>
            <dt className="text-slate-500">{fieldLabel(t, key)}</dt>
            <dd className="min-w-0 break-words text-slate-700">
              {texts.before !== undefined && (
                <>
                  <span data-before>
                    <LongValue value={texts.before} t={t} />
                  </span>
                  {/* One arrow, read as its word: the text reads "(empty) → Banned", a screen reader "becomes". */}
                  <span role="img" aria-label={t('history.becomes')}>
                    {' → '}
                  </span>
                </>
              )}
              <span data-after>
                <LongValue value={texts.after} t={t} />
              </span>
            </dd>
          </div>
        );
      })}
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
