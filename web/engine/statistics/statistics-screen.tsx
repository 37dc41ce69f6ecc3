import { useEffect, useMemo, useState } from 'react';
import type uPlot from 'uplot';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import type { StatisticsResource } from '#contract';
import { toast } from '../../lib/toast.js';
import { useLabelT, type LabelT } from '../../i18n/resources/index.js';
import { csvFileName, toCsv, type CsvColumn } from '#contract/csv';
import { PALETTE } from '../../ui/chart/chart-spec.js';
import { SplitChart, type SplitChartSpec } from '../../ui/chart/split-chart.js';
import { useDensity } from '../../ui/density.js';
import { DataTable, type DataColumn } from '../../ui/data-table.js';
import { useLocale } from '../../ui/panel.js';
import { formatCount, formatDay, shortNumber } from '../../lib/format.js';
import { language } from '../../lib/settings.js';
import { downloadText } from '../shared/export-csv.js';
import { fieldLabel, optionLabel, resourceTitle } from '../shared/labels.js';
import { formatMoney } from '../shared/money.js';
import { moneyText } from '../shared/value-cell.js';
import { statisticsQueryOptions } from '../shared/queries.js';
import {
  dateSeconds,
  parseStatsState,
  serialiseStatsState,
  sumByDate,
  type StatRow,
  type StatsState,
} from './statistics-data.js';
import { Empty, LoadFailed, Loading } from '../shared/states.js';

/** Counts and amounts (already divided by 100) each on axes of their own, split further by size (SplitChart). */
function chartSpec(resource: StatisticsResource, t: LabelT, locale: string): SplitChartSpec {
  const count = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const money = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return {
    xKind: 'day',
    xLabel: t('engine.date'),
    locale,
    series: resource.series.map((s, i) => ({
      key: s.key,
      label: fieldLabel(t, s.key),
      color: PALETTE[i % PALETTE.length]!,
      unit: s.kind,
      format: (v: number) => (s.kind === 'money' ? money : count).format(v),
    })),
    axes: {
      number: { label: t('engine.axisCount'), format: (v: number) => shortNumber(v) },
      money: { label: t('engine.axisAmount'), format: (v: number) => shortNumber(v) },
    },
  };
}

/** Date range (last 30 days by default), optional dimension, a chart and a table, CSV. */
export function StatisticsScreen({ resource }: { resource: StatisticsResource }) {
  const t = useLabelT();
  const density = useDensity();
  const [path] = useLocation();
  const search = useSearch();
  const state = useMemo(() => parseStatsState(search, resource), [search, resource]);
  const [draft, setDraft] = useState<StatsState>(state);
  useEffect(() => setDraft(state), [state]);
  const dimKey = resource.dimension?.key;
  const params = useMemo(
    () => ({
      startDate: state.startDate,
      endDate: state.endDate,
      ...(dimKey && state.dimension ? { [dimKey]: state.dimension } : {}),
    }),
    [state, dimKey],
  );
  const query = useQuery(statisticsQueryOptions(resource, params));
  const rows: StatRow[] = useMemo(
    () => [...(query.data?.list ?? [])].sort((a, b) => String(a.date).localeCompare(String(b.date))),
    [query.data],
  );

  const locale = useLocale();
  const spec = useMemo(() => chartSpec(resource, t, locale), [resource, t, locale]);
  const data = useMemo<uPlot.AlignedData>(() => {
    const { dates, values } = sumByDate(
      rows,
      resource.series.map((s) => s.key),
    );
    return [
      dates.map(dateSeconds),
      ...resource.series.map((s) => (values[s.key] ?? []).map((v) => (s.kind === 'money' ? v / 100 : v))),
    ];
  }, [rows, resource]);

  const apply = () => {
    if (draft.startDate > draft.endDate) return;
    const qs = serialiseStatsState(draft, resource);
    navigate(qs ? `${path}?${qs}` : path);
  };

  // The CSV keeps plain figures; the table writes them the reader's way (19,040, es 19.040).
  const shown = (key: string, kind: 'number' | 'money', r: StatRow) => {
    const v = r[key];
    if (v === null || v === undefined || v === '') return '';
    return kind === 'money' ? moneyText(v) : typeof v === 'number' ? formatCount(v, language.value) : String(v);
  };
  const columns: CsvColumn<StatRow>[] = [
    { label: t('engine.date'), value: (r) => String(r.date ?? '') },
    ...(dimKey
      ? [
          {
            label: fieldLabel(t, dimKey),
            value: (r: StatRow) => (r[dimKey] ? optionLabel(t, dimKey, String(r[dimKey])) : ''),
          },
        ]
      : []),
    ...resource.series.map((s) => ({
      label: fieldLabel(t, s.key),
      value: (r: StatRow) => (s.kind === 'money' ? formatMoney(r[s.key] as number) : String(r[s.key] ?? '')),
    })),
  ];
  const showDimColumn = !!dimKey && rows.some((r) => r[dimKey] !== undefined);
  const tableColumns = showDimColumn ? columns : columns.filter((_, i) => !(dimKey && i === 1));
  const title = resourceTitle(t, resource.id);
  const seriesAt = (column: number) => resource.series[column - (tableColumns.length - resource.series.length)];
  const dataColumns = tableColumns.map((c, i): DataColumn<StatRow> => {
    const series = seriesAt(i);
    // The CSV keeps YYYY-MM-DD; people read the day the language's way.
    if (i === 0)
      return { key: String(i), header: c.label, wrap: 'none', cell: (r) => formatDay(c.value(r), language.value) };
    if (series)
      return {
        key: String(i),
        header: c.label,
        numeric: true,
        wrap: 'none',
        cell: (r) => shown(series.key, series.kind, r),
      };
    return { key: String(i), header: c.label, wrap: 'none', cell: (r) => c.value(r) };
  });

  return (
    <div className="flex flex-col gap-4" data-testid="statistics-screen" data-resource={resource.id}>
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          apply();
        }}
      >
        <label className="flex flex-col text-sm text-slate-700">
          <span className="mb-1">{t('engine.startDate')}</span>
          <input
            type="date"
            className={`rounded-md border border-slate-300 bg-white ${density.input}`}
            value={draft.startDate}
            max={draft.endDate}
            onChange={(e) => setDraft({ ...draft, startDate: e.target.value })}
          />
        </label>
        <label className="flex flex-col text-sm text-slate-700">
          <span className="mb-1">{t('engine.endDate')}</span>
          <input
            type="date"
            className={`rounded-md border border-slate-300 bg-white ${density.input}`}
            value={draft.endDate}
            min={draft.startDate}
            onChange={(e) => setDraft({ ...draft, endDate: e.target.value })}
          />
        </label>
        {resource.dimension && (
          <label className="flex flex-col text-sm text-slate-700">
            <span className="mb-1">{fieldLabel(t, resource.dimension.key)}</span>
            <select
              className={`rounded-md border border-slate-300 bg-white ${density.input}`}
              value={draft.dimension}
              onChange={(e) => setDraft({ ...draft, dimension: e.target.value })}
            >
              <option value="">{t('engine.all')}</option>
              {resource.dimension.options.map((o) => (
                <option key={o} value={o}>
                  {optionLabel(t, resource.dimension!.key, o)}
                </option>
              ))}
            </select>
          </label>
        )}
        <button type="submit" className="btn btn-primary">
          {t('engine.apply')}
        </button>
        <button
          type="button"
          className="btn ml-auto"
          disabled={rows.length === 0}
          onClick={() => {
            downloadText(toCsv(tableColumns, rows), csvFileName(resource.id));
            toast.success(t('engine.exported', { count: rows.length }));
          }}
        >
          {t('engine.exportCsv')}
        </button>
      </form>

      {query.isPending ? (
        <>
          <Loading hidden />
          <div
            className="animate-pulse rounded-md bg-slate-200"
            style={{ height: density.chartHeight }}
            aria-hidden="true"
            data-testid="chart-skeleton"
          />
        </>
      ) : query.isError && !query.data ? (
        <LoadFailed error={query.error} onRetry={() => void query.refetch()} />
      ) : rows.length === 0 ? (
        <Empty testId="list-empty" />
      ) : (
        <>
          <section className="rounded-md border border-slate-200 bg-white p-3" aria-label={t('engine.chart')}>
            <SplitChart spec={spec} data={data} label={title} testId="chart" columns />
          </section>
          <section aria-label={t('engine.table')}>
            <DataTable columns={dataColumns} rows={rows} rowKey={(_, i) => String(i)} testId="list-table" />
          </section>
        </>
      )}
    </div>
  );
}
