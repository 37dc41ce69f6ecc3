import { use, useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { GATEWAY_PATHS, type ErrorLogPage as LogPage } from '#contract';
import { api } from '../api/client.js';
import { toast } from '../lib/toast.js';
import { pageMessagesReady, useT } from '../i18n/index.js';
import { formatDateTime } from '../lib/format.js';
import { language } from '../lib/settings.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';
import type { PageProps } from '../ui/page.js';

const PAGE_SIZE = 20;

/** The persisted UI error log: list, keyword filter and page kept in the URL, clear with confirmation. */
export default function ErrorLogPage({ route }: PageProps) {
  // Suspends (inside the layout's Suspense) until this page's messages are in.
  use(pageMessagesReady());
  const t = useT();
  const search = new URLSearchParams(useSearch());
  const keyword = search.get('keyword') ?? '';
  const pageNum = Math.max(1, Number(search.get('pageNum')) || 1);
  const [draft, setDraft] = useState(keyword);
  const [confirming, setConfirming] = useState(false);
  const [expanded, setExpanded] = useState<string | null>(null);
  const client = useQueryClient();

  const query = useQuery({
    queryKey: ['error-log', keyword, pageNum],
    queryFn: async ({ signal }) =>
      (await api.get<LogPage>(GATEWAY_PATHS.errorLog, { pageNum, pageSize: PAGE_SIZE, keyword }, { signal })).data ?? { list: [], total: 0 },
    placeholderData: keepPreviousData,
  });
  const clear = useMutation({
    mutationFn: () => api.delete(GATEWAY_PATHS.errorLog),
    onSuccess: () => {
      toast.success(t('errorLog.cleared'));
      void client.invalidateQueries({ queryKey: ['error-log'] });
    },
  });

  const go = (next: { keyword?: string; pageNum?: number }) => {
    const params = new URLSearchParams();
    const k = next.keyword ?? keyword;
    const p = next.pageNum ?? pageNum;
    if (k) params.set('keyword', k);
    if (p > 1) params.set('pageNum', String(p));
    const qs = params.toString();
    navigate(`${route.path}${qs ? `?${qs}` : ''}`);
  };

  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    go({ keyword: draft.trim(), pageNum: 1 });
  };

  const data = query.data;
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / PAGE_SIZE));

  return (
    <section className="p-6">
      <h1 className="mb-4 text-2xl font-semibold text-slate-800">{t(route.meta.title)}</h1>
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <form onSubmit={onSearch} className="flex items-end gap-2" role="search" aria-label={t('audit.filters')}>
          <label className="flex flex-col text-sm text-slate-700">
            {t('errorLog.keyword')}
            <input value={draft} onChange={(e) => setDraft(e.target.value)} className="mt-1 rounded-md border border-slate-300 px-2 py-1" />
          </label>
          <button type="submit" className="btn btn-primary">
            {t('errorLog.search')}
          </button>
        </form>
        <button type="button" className="btn btn-danger ml-auto" disabled={!data?.total || clear.isPending} onClick={() => setConfirming(true)}>
          {t('errorLog.clear')}
        </button>
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
        <p className="rounded-md border border-dashed border-slate-300 p-6 text-center text-slate-500">{t('errorLog.empty')}</p>
      ) : (
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
              {data?.list.map((e) => (
                <tr key={e.id} className="border-t border-slate-100 align-top">
                  <td className="px-3 py-2 whitespace-nowrap">{formatDateTime(e.time, language.value)}</td>
                  <td className="px-3 py-2 break-all">
                    {e.message}
                    {expanded === e.id && (
                      <pre className="mt-2 max-h-64 overflow-auto rounded bg-slate-50 p-2 text-xs whitespace-pre-wrap">
                        {[e.stack, e.info, e.userAgent].filter(Boolean).join('\n\n')}
                      </pre>
                    )}
                  </td>
                  <td className="px-3 py-2 break-all">{e.url}</td>
                  <td className="px-3 py-2">{e.userId ?? ''}</td>
                  <td className="px-3 py-2">
                    <button type="button" className="btn" aria-expanded={expanded === e.id} onClick={() => setExpanded(expanded === e.id ? null : e.id)}>
                      {t('errorLog.details')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <div className="mt-4 flex items-center gap-3 text-sm text-slate-600">
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
