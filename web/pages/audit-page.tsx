import { use, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { RESOURCES } from '#contract';
import { AUDIT_KINDS } from '#contract/audit';
import { auditCsvUrl, fetchAuditPage, type AuditFilters } from '../api/audit.js';
import { pageMessagesReady, useT } from '../i18n/index.js';
import { labelsReady, useLabelT, type LabelT } from '../i18n/resources/index.js';
import { language } from '../lib/settings.js';
import { filledFilters, useAddressFilters } from '../engine/list/address-filters.js';
import { Pagination } from '../engine/list/pagination.js';
import { auditActionName, auditActionNames } from '../engine/record/audit-wording.js';
import { AuditEntries, resourceName } from './audit-entries.js';
import { useDensity } from '../ui/density.js';
import type { PageProps } from '../ui/page.js';

const SIZES = [20, 50, 100] as const;
const FILTERS = ['actor', 'resource', 'action', 'target', 'kind', 'since', 'until'] as const;
type FilterName = (typeof FILTERS)[number];
type Draft = Record<FilterName, string>;

/** Resources the trail names beside the contract's: the deployment calls and the trail's own export. */
const OWN_RESOURCES = ['deployment', 'audit'] as const;
const ACTION_NAMES = auditActionNames();

/** The action filter's choices, by label; a name from a link that no screen declares is offered as it is. */
function actionChoices(lt: LabelT, current: string): { name: string; label: string }[] {
  const names = current && !ACTION_NAMES.includes(current) ? [...ACTION_NAMES, current] : ACTION_NAMES;
  return names
    .map((name) => ({ name, label: auditActionName(lt, name) }))
    .sort((a, b) => a.label.localeCompare(b.label, language.value));
}

/** The filled filters as the trail's query takes them, in the form's order. */
function filtersOf(draft: Draft): AuditFilters {
  // The kind is taken as the address gives it, as the trail's own query checks it.
  return filledFilters(draft, FILTERS) as AuditFilters;
}

/** A day of the form's date fields as the instant it starts or ends in the reader's own time zone. */
function dayBound(day: string, end: boolean): string {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return day;
  return (end ? new Date(y, m - 1, d, 23, 59, 59, 999) : new Date(y, m - 1, d)).toISOString();
}

/** The filters as the gateway takes them: days become instants of the reader's days. */
function askedOf(filters: AuditFilters): AuditFilters {
  return {
    ...filters,
    ...(filters.since ? { since: dayBound(filters.since, false) } : {}),
    ...(filters.until ? { until: dayBound(filters.until, true) } : {}),
  };
}

/**
 * The gateway's audit trail: every change made through the console, newest first, filtered by
 * administrator, screen, action, record and time (all kept in the URL, so an administrator's
 * activity is a link), each with its details, and the filtered trail as a CSV file.
 */
export default function AuditPage({ route }: PageProps) {
  // Suspends (inside the layout's Suspense) until this page's messages and the screens' labels are in.
  use(pageMessagesReady());
  use(labelsReady());
  const t = useT();
  const lt = useLabelT();
  const density = useDensity();
  const address = useAddressFilters(route.path, FILTERS, SIZES);
  const { filters: applied, pageNum, pageSize, draft, go } = address;
  const [expanded, setExpanded] = useState<string | null>(null);
  const filters = filtersOf(applied);
  const asked = askedOf(filters);

  const query = useQuery({
    queryKey: ['audit', asked, pageNum, pageSize],
    queryFn: ({ signal }) => fetchAuditPage({ ...asked, pageNum, pageSize }, signal),
    placeholderData: keepPreviousData,
  });

  const set = (name: FilterName) => (value: string) => address.set(name, value);
  const input = `mt-1 rounded-md border border-slate-300 bg-white ${density.input}`;
  const data = query.data;

  return (
    <section className="p-4 sm:p-6" data-testid="audit-page">
      <h1 className="mb-4 text-2xl font-semibold text-slate-800">{t(route.meta.title)}</h1>
      <form
        onSubmit={address.search}
        className="mb-4 flex flex-wrap items-end gap-3 text-sm text-slate-700"
        role="search"
        aria-label={t('audit.filters')}
      >
        <label className="flex flex-col">
          {t('audit.actor')}
          <input
            className={input}
            value={draft.actor}
            onChange={(e) => set('actor')(e.target.value)}
            data-filter="actor"
          />
        </label>
        <label className="flex flex-col">
          {t('audit.resource')}
          <select
            className={input}
            value={draft.resource}
            onChange={(e) => set('resource')(e.target.value)}
            data-filter="resource"
          >
            <option value="">{t('audit.all')}</option>
            {[...RESOURCES.map((r) => r.id), ...OWN_RESOURCES].map((id) => (
              <option key={id} value={id}>
                {resourceName(t, lt, id)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col">
          {t('audit.action')}
          {/* A choice of actions by their names in the reader's language: the trail matches the action exactly. */}
          <select
            className={input}
            value={draft.action}
            onChange={(e) => set('action')(e.target.value)}
            data-filter="action"
          >
            <option value="">{t('audit.all')}</option>
            {actionChoices(lt, draft.action).map(({ name, label }) => (
              <option key={name} value={name}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col">
          {t('audit.target')}
          <input
            className={`${input} w-28`}
            value={draft.target}
            onChange={(e) => set('target')(e.target.value)}
            data-filter="target"
          />
        </label>
        <label className="flex flex-col">
          {t('audit.kind')}
          <select className={input} value={draft.kind} onChange={(e) => set('kind')(e.target.value)} data-filter="kind">
            <option value="">{t('audit.all')}</option>
            {AUDIT_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {t(`audit.kindName.${kind}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col">
          {t('audit.since')}
          <input
            type="date"
            className={input}
            value={draft.since}
            onChange={(e) => set('since')(e.target.value)}
            data-filter="since"
          />
        </label>
        <label className="flex flex-col">
          {t('audit.until')}
          <input
            type="date"
            className={input}
            value={draft.until}
            onChange={(e) => set('until')(e.target.value)}
            data-filter="until"
          />
        </label>
        <button type="submit" className="btn btn-primary">
          {t('audit.search')}
        </button>
        <button type="button" className="btn" onClick={address.reset}>
          {t('audit.reset')}
        </button>
        <a className="btn ml-auto" href={auditCsvUrl(asked)} download data-testid="audit-csv">
          {t('audit.exportCsv')}
        </a>
      </form>

      {query.isPending ? (
        <p role="status" className="text-slate-500">
          {t('common.loading')}
        </p>
      ) : query.isError && !data ? (
        <div role="alert" className="text-red-700">
          {t('audit.loadFailed')}{' '}
          <button type="button" className="btn" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </button>
        </div>
      ) : !data || data.list.length === 0 ? (
        <p
          className="rounded-md border border-dashed border-slate-300 bg-white p-6 text-center text-slate-500"
          data-testid="audit-empty"
        >
          {t('audit.empty')}
        </p>
      ) : (
        <AuditEntries
          entries={data.list}
          expanded={expanded}
          onToggle={(id) => setExpanded((open) => (open === id ? null : id))}
          onActor={(actor) => go({ filters: { ...applied, actor }, pageNum: 1 })}
          t={t}
          lt={lt}
        />
      )}

      {data && (
        <Pagination
          pageNum={pageNum}
          pageSize={pageSize}
          total={data.total}
          sizes={SIZES}
          onPage={(n) => go({ pageNum: n })}
          onSize={(n) => go({ pageSize: n, pageNum: 1 })}
          t={lt}
          density={density}
        />
      )}
    </section>
  );
}
