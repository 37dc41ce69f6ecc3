import { use, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { isLink, type ImportDatabaseResult } from '#contract';
import type { PageProps } from '../ui/page.js';
import { toast } from '../lib/toast.js';
import { pageMessagesReady, useT } from '../i18n/index.js';
import { formatDateTime } from '../lib/format.js';
import { language } from '../lib/settings.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';
import { Panel, useLocale } from '../ui/panel.js';
import { importDatabaseMutationOptions } from './queries.js';

type UrlProblem = 'required' | 'linkFormat';

/** Checked before anything is sent: the backend would refuse the same link with the same words. */
export function urlProblem(text: string): UrlProblem | null {
  const url = text.trim();
  if (url === '') return 'required';
  return isLink(url) ? null : 'linkFormat';
}

function ImportResult({ result }: { result: ImportDatabaseResult }) {
  const t = useT();
  const locale = useLocale();
  const n = (v: number) => v.toLocaleString(locale);
  const rows: [string, string, string][] = [
    ['importedUsers', t('deploy.migration.importedUsers'), n(result.importedUsers)],
    ['importedGroups', t('deploy.migration.importedGroups'), n(result.importedGroups)],
    ['importedMessages', t('deploy.migration.importedMessages'), n(result.importedMessages)],
    ['skippedRecords', t('deploy.migration.skippedRecords'), n(result.skippedRecords)],
    [
      'durationMs',
      t('deploy.migration.duration'),
      t('deploy.migration.seconds', {
        seconds: (result.durationMs / 1000).toLocaleString(locale, { maximumFractionDigits: 1 }),
      }),
    ],
    ['finishedAt', t('deploy.migration.finishedAt'), formatDateTime(result.finishedAt, language.value)],
  ];
  return (
    <div data-testid="migration-result">
      <p className="mb-3 text-sm break-all text-slate-600">
        {t('deploy.migration.source')}: <code className="rounded bg-slate-100 px-1">{result.url}</code>
      </p>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {rows.map(([key, label, value]) => (
          <div key={key} className="rounded-md border border-slate-100 bg-slate-50 p-3" data-testid={`result-${key}`}>
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className="mt-1 text-lg font-semibold text-slate-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** Data migration: import a database dump from a link, after a confirmation, and show the outcome. */
export default function MigrationPage({ route }: PageProps) {
  // Suspends (inside the layout's Suspense) until this page's messages are in.
  use(pageMessagesReady());
  const t = useT();
  const [url, setUrl] = useState('');
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const importDb = useMutation(importDatabaseMutationOptions());
  const problem = urlProblem(url);
  const shownProblem = touched ? problem : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem) {
      document.getElementById('migration-url')?.focus();
      return;
    }
    setConfirming(true);
  };

  const start = () => {
    setConfirming(false);
    importDb.mutate({ url: url.trim() }, { onSuccess: () => toast.success(t('deploy.migration.done')) });
  };

  return (
    <div className="space-y-6 p-6" data-testid="migration-page">
      <h1 className="text-2xl font-semibold text-slate-800">{t(route.meta.title)}</h1>
      <Panel id="deploy-migration" title={t('deploy.migration.title')} testId="migration-panel">
        <form onSubmit={onSubmit} noValidate className="max-w-2xl" data-testid="migration-form">
          <label htmlFor="migration-url" className="text-sm font-medium text-slate-700">
            {t('deploy.migration.url')}
          </label>
          <input
            id="migration-url"
            name="url"
            type="url"
            inputMode="url"
            spellCheck={false}
            value={url}
            placeholder="https://"
            onChange={(e) => setUrl(e.target.value)}
            onBlur={() => url !== '' && setTouched(true)}
            aria-invalid={shownProblem ? true : undefined}
            aria-describedby={shownProblem ? 'migration-url-error migration-url-hint' : 'migration-url-hint'}
            className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5 aria-[invalid=true]:border-red-500"
          />
          <p id="migration-url-hint" className="mt-1 text-sm text-slate-500">
            {t('deploy.migration.hint')}
          </p>
          {shownProblem && (
            <p
              id="migration-url-error"
              role="alert"
              className="mt-1 text-sm text-red-700"
              data-testid="migration-url-error"
            >
              {shownProblem === 'linkFormat' ? t('deploy.error.linkFormat') : t('deploy.error.required')}
            </p>
          )}
          <button
            type="submit"
            className="btn btn-primary mt-4"
            disabled={importDb.isPending}
            data-testid="migration-submit"
          >
            {importDb.isPending ? t('deploy.migration.importing') : t('deploy.migration.start')}
          </button>
        </form>
      </Panel>

      {importDb.data && (
        <Panel id="deploy-migration-result" title={t('deploy.migration.result')} testId="migration-result-panel">
          <ImportResult result={importDb.data} />
        </Panel>
      )}

      <ConfirmDialog
        open={confirming}
        text={t('deploy.migration.confirm', { url: url.trim() })}
        onCancel={() => setConfirming(false)}
        onConfirm={start}
      />
    </div>
  );
}
