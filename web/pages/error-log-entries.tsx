import type { ErrorLogEntry } from '#contract';
import { useSignals } from '@preact/signals-react/runtime';
import { accountName, session } from '../api/session.js';
import { useT } from '../i18n/index.js';
import { formatDateTime } from '../lib/format.js';
import { language } from '../lib/settings.js';
import { DataView, type DataColumn } from '../ui/data-table.js';

/**
 * Who an entry is about: the account its session logged in with. An older entry that has only
 * the backend's id still names the reader's own account when the id is theirs; someone else's is
 * shown by id, which is all that is known of it.
 */
export function entryUser(
  entry: Pick<ErrorLogEntry, 'userId' | 'account'>,
  own: { userId: string | null; account: string },
): string | null {
  if (entry.account) return entry.account;
  if (entry.userId === null) return null;
  if (entry.userId === own.userId && own.account) return own.account;
  return `#${entry.userId}`;
}

interface EntriesProps {
  entries: readonly ErrorLogEntry[];
  expanded: string | null;
  onToggle: (id: string) => void;
}

function useUserOf() {
  useSignals();
  const t = useT();
  const own = { userId: session.value?.userId ?? null, account: accountName.value };
  return (entry: ErrorLogEntry) => entryUser(entry, own) ?? t('errorLog.anonymous');
}

/** What an entry carries beyond its message: the stack, what the UI added, the browser. */
function Details({ entry }: { entry: ErrorLogEntry }) {
  return (
    <pre
      className="mt-2 max-h-64 overflow-auto rounded bg-slate-50 p-2 text-xs break-words whitespace-pre-wrap text-slate-700"
      data-testid="error-details"
    >
      {[entry.stack, entry.info, entry.userAgent].filter(Boolean).join('\n\n')}
    </pre>
  );
}

/**
 * The log in the console's one table (one card an entry on a phone): messages wrap between words and
 * break inside one only when it alone is wider than the column (a long identifier); addresses may
 * break anywhere, being one long token. The details open under the message, a tap away on a phone
 * and never past the screen's edge.
 */
export function ErrorLogEntries({ entries, expanded, onToggle }: EntriesProps) {
  const t = useT();
  const userOf = useUserOf();
  const columns: DataColumn<ErrorLogEntry>[] = [
    {
      key: 'time',
      header: t('errorLog.time'),
      rowHeader: true,
      wrap: 'none',
      cell: (e) => formatDateTime(e.time, language.value),
    },
    { key: 'message', header: t('errorLog.message'), wrap: 'words', className: 'font-normal', cell: (e) => e.message },
    { key: 'url', header: t('errorLog.url'), wrap: 'anywhere', className: 'text-slate-600', cell: (e) => e.url },
    { key: 'user', header: t('errorLog.user'), wrap: 'none', cell: userOf },
    {
      key: 'details',
      header: t('errorLog.details'),
      headerHidden: true,
      commands: true,
      cell: (e) => (
        <button type="button" className="btn" aria-expanded={expanded === e.id} onClick={() => onToggle(e.id)}>
          {t('errorLog.details')}
        </button>
      ),
    },
  ];
  return (
    <DataView
      columns={columns}
      rows={entries}
      rowKey={(e) => e.id}
      rowProps={(e) => ({ 'data-entry-id': e.id })}
      below={(e) => (expanded === e.id ? <Details entry={e} /> : null)}
      testId="error-log-table"
      cardsTestId="error-log-cards"
    />
  );
}
