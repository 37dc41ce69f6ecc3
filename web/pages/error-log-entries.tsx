import type { ErrorLogEntry } from '#contract';
import { useSignals } from '@preact/signals-react/runtime';
import { accountName, session } from '../api/session.js';
import { useT } from '../i18n/index.js';
import { formatDateTime } from '../lib/format.js';
import { language } from '../lib/settings.js';

/**
 * Who an entry is about: the account its session logged in with. An older entry that has only
 * the backend's id still names the reader's own account when the id is theirs; someone else's is
 * shown by id, which is all that is known of it.
 */
export function entryUser(entry: Pick<ErrorLogEntry, 'userId' | 'account'>, own: { userId: string | null; account: string }): string | null {
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
    <pre className="mt-2 max-h-64 overflow-auto rounded bg-slate-50 p-2 text-xs break-words whitespace-pre-wrap text-slate-700" data-testid="error-details">
      {[entry.stack, entry.info, entry.userAgent].filter(Boolean).join('\n\n')}
    </pre>
  );
}

/**
 * Messages wrap between words and break inside one only when it alone is wider than the column
 * (a long identifier); addresses may break anywhere, being one long token.
 */
const MESSAGE = 'break-words';
const ADDRESS = 'wrap-anywhere text-slate-600';

/** The log on a wide screen: one row per entry. */
export function EntriesTable({ entries, expanded, onToggle }: EntriesProps) {
  const t = useT();
  const userOf = useUserOf();
  return (
    <div className="overflow-x-auto rounded-md border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <thead className="bg-slate-100 text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2">
              {t('errorLog.time')}
            </th>
            <th scope="col" className="px-3 py-2">
              {t('errorLog.message')}
            </th>
            <th scope="col" className="px-3 py-2">
              {t('errorLog.url')}
            </th>
            <th scope="col" className="px-3 py-2">
              {t('errorLog.user')}
            </th>
            <th scope="col" className="px-3 py-2">
              <span className="sr-only">{t('errorLog.details')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id} className="border-t border-slate-100 align-top" data-entry-id={e.id}>
              <td className="px-3 py-2 whitespace-nowrap">{formatDateTime(e.time, language.value)}</td>
              <td className={`px-3 py-2 ${MESSAGE}`} data-col="message">
                {e.message}
                {expanded === e.id && <Details entry={e} />}
              </td>
              <td className={`px-3 py-2 ${ADDRESS}`}>{e.url}</td>
              <td className="px-3 py-2 whitespace-nowrap" data-col="user">
                {userOf(e)}
              </td>
              <td className="px-3 py-2">
                <button type="button" className="btn" aria-expanded={expanded === e.id} onClick={() => onToggle(e.id)}>
                  {t('errorLog.details')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The log on a phone: one card per entry, the details a tap away and never past the screen's edge. */
export function EntriesCards({ entries, expanded, onToggle }: EntriesProps) {
  const t = useT();
  const userOf = useUserOf();
  return (
    <ul className="flex flex-col gap-2" data-testid="error-log-cards">
      {entries.map((e) => (
        <li key={e.id} className="rounded-md border border-slate-200 bg-white p-3 text-sm" data-entry-id={e.id}>
          <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-xs text-slate-500">
            <span className="whitespace-nowrap">{formatDateTime(e.time, language.value)}</span>
            <span className="font-medium text-slate-700" data-col="user">
              {userOf(e)}
            </span>
          </div>
          <p className={`mt-1 text-slate-900 ${MESSAGE}`} data-col="message">
            {e.message}
          </p>
          <p className={`mt-1 text-xs ${ADDRESS}`}>{e.url}</p>
          {expanded === e.id && <Details entry={e} />}
          <button type="button" className="btn mt-2 w-full justify-center" aria-expanded={expanded === e.id} onClick={() => onToggle(e.id)}>
            {t('errorLog.details')}
          </button>
        </li>
      ))}
    </ul>
  );
}
