import { use, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { GATEWAY_PATHS, type ErrorLogPage as LogPage } from '#contract';
import { api } from '../api/client.js';
import { toast } from '../lib/toast.js';
import { pageMessagesReady, useT } from '../i18n/index.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';
import { useAddressFilters } from '../engine/list/address-filters.js';
import { ErrorLogEntries } from './error-log-entries.js';
import type { PageProps } from '../ui/page.js';

const PAGE_SIZE = 20;
const FILTERS = ['keyword'] as const;
const SIZES = [PAGE_SIZE] as const;

/**
 * The persisted UI error log: list (a table, or cards on a phone), keyword filter and page kept in
 * the URL, and for whoever may clear it, clear with confirmation.
 */
export default function ErrorLogPage({ route }: PageProps) {
  // Suspends (inside the layout's Suspense) until this page's messages are in.
  use(pageMessagesReady());
  const t = useT();
  const address = useAddressFilters(route.path, FILTERS, SIZES);
  const { pageNum, go } = address;
  const { keyword } = address.filters;
  const [confirming, setConfirming] = useState(false);
  const [expanded, setExpanded] = useState<string | null>(null);
  const client = useQueryClient();
  const toggle = (id: string) => setExpanded((open) => (open === id ? null : id));

  const query = useQuery({
    queryKey: ['error-log', keyword, pageNum],
    queryFn: async ({ signal }) =>
      (await api.get<LogPage>(GATEWAY_PATHS.errorLog, { pageNum, pageSize: PAGE_SIZE, keyword }, { signal })).data ?? {
        list: [],
        total: 0,
      },
    placeholderData: keepPreviousData,
  });
  const clear = useMutation({
    mutationFn: () => api.delete(GATEWAY_PATHS.errorLog),
    onSuccess: () => {
      toast.success(t('errorLog.cleared'));
      void client.invalidateQueries({ queryKey: ['error-log'] });
    },
  });

  const data = query.data;
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / PAGE_SIZE));

  return (
    <section className="p-4 sm:p-6">
      <h1 className="mb-4 text-2xl font-semibold text-slate-800">{t(route.meta.title)}</h1>
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <form
          onSubmit={address.search}
          className="flex min-w-0 flex-1 items-end gap-2 sm:flex-none"
          role="search"
          aria-label={t('audit.filters')}
        >
          <label className="flex min-w-0 flex-1 flex-col text-sm text-slate-700">
            {t('errorLog.keyword')}
            <input
              value={address.draft.keyword}
              onChange={(e) => address.set('keyword', e.target.value)}
              className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1"
            />
          </label>
          <button type="submit" className="btn btn-primary">
            {t('errorLog.search')}
          </button>
        </form>
        {/* Clearing is for whoever reads everyone's entries; the gateway refuses it to anyone else. */}
        {data?.scope === 'all' && (
          <button
            type="button"
            className="btn btn-danger ml-auto"
            disabled={!data.total || clear.isPending}
            onClick={() => setConfirming(true)}
          >
            {t('errorLog.clear')}
          </button>
        )}
      </div>

      {query.isPending ? (
        <p role="status" className="text-slate-500">
          {t('common.loading')}
        </p>
      ) : query.isError ? (
        <div role="alert" className="text-red-700">
          {t('errorLog.loadFailed')}{' '}
          <button type="button" className="btn" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </button>
        </div>
      ) : data && data.list.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-6 text-center text-slate-500">
          {t('errorLog.empty')}
        </p>
      ) : (
        <ErrorLogEntries entries={data?.list ?? []} expanded={expanded} onToggle={toggle} />
      )}

      <div className="mt-4 flex flex-wrap items-center gap-3 text-sm text-slate-600">
        <span>{t('errorLog.total', { total: data?.total ?? 0 })}</span>
        <button type="button" className="btn" disabled={pageNum <= 1} onClick={() => go({ pageNum: pageNum - 1 })}>
          {t('errorLog.prev')}
        </button>
        <span>{t('errorLog.page', { page: pageNum, pages })}</span>
        <button type="button" className="btn" disabled={pageNum >= pages} onClick={() => go({ pageNum: pageNum + 1 })}>
          {t('errorLog.next')}
        </button>
      </div>

      <ConfirmDialog
        open={confirming}
        text={t('errorLog.clearConfirm')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          clear.mutate();
        }}
      />
    </section>
  );
}
