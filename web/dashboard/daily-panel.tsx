import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useT, type TFunction } from '../i18n/index.js';
import { currencyTick, formatCurrency } from '../lib/currency.js';
import { formatCount, shortNumber } from '../lib/format.js';
import { PALETTE } from '../ui/chart/chart-spec.js';
import { SplitChart, type SplitChartSpec } from '../ui/chart/split-chart.js';
import { DAILY_FIGURE_PERMISSIONS, mayShowFigure } from '#contract';
import {
  MAX_RANGE_DAYS,
  RANGE_PRESETS,
  dayKey,
  lastDays,
  matchingPreset,
  rangeProblem,
  type DateRange,
} from './date-range.js';
import { Panel, PanelError, PanelSkeleton, Skeleton, useLocale } from '../ui/panel.js';
import { dailyStatisticsQueryOptions } from './queries.js';
import {
  COUNT_SERIES,
  MONEY_SERIES,
  columnTotals,
  dailyColumns,
  type AlignedSeries,
  type DailySeriesKey,
  type FigureFormat,
} from './shaping.js';
import { useFigureFormat } from './figure-format.js';

const SERIES_LABEL: Record<DailySeriesKey, Parameters<TFunction>[0]> = {
  registrations: 'dashboard.series.registrations',
  activeUsers: 'dashboard.series.activeUsers',
  messages: 'dashboard.series.messages',
  rechargeAmount: 'dashboard.series.recharge',
  withdrawalAmount: 'dashboard.series.withdrawal',
  redPacketAmount: 'dashboard.series.redPacket',
};

/** Units (already divided by 100) back to hundredths, for the money formatters. */
const cents = (units: number) => Math.round(units * 100);

function specs(
  t: TFunction,
  locale: string,
  format: FigureFormat,
  countKeys: readonly DailySeriesKey[],
  moneyKeys: readonly DailySeriesKey[],
  partialToday: boolean,
): { counts: SplitChartSpec; money: SplitChartSpec } {
  const base = {
    xKind: 'day' as const,
    xLabel: t('dashboard.axis.date'),
    locale,
    ...(partialToday ? { partialLast: { label: t('dashboard.partialToday') } } : {}),
  };
  const count = (v: number) => formatCount(v, format.lang);
  return {
    // Registrations (tens), active users (hundreds) and messages (tens of thousands) each get an
    // axis when their sizes are that far apart (SplitChart), so none is drawn flat at zero.
    counts: {
      ...base,
      axes: { count: { label: t('dashboard.axis.users'), format: (v) => shortNumber(v) } },
      series: countKeys.map((key, i) => ({
        key,
        unit: 'count',
        label: t(SERIES_LABEL[key]),
        color: PALETTE[i % PALETTE.length]!,
        format: count,
      })),
    },
    money: {
      ...base,
      axes: {
        money: { label: t('dashboard.axis.amount'), format: (v) => currencyTick(v, format.lang, format.currency) },
      },
      series: moneyKeys.map((key, i) => ({
        key,
        unit: 'money',
        label: t(SERIES_LABEL[key]),
        color: PALETTE[(i + 3) % PALETTE.length]!,
        format: (v: number) => formatCurrency(cents(v), format.lang, format.currency),
      })),
    },
  };
}

function Totals({
  keys,
  data,
  format,
}: {
  keys: readonly DailySeriesKey[];
  data: AlignedSeries;
  format: (v: number) => string;
}) {
  const t = useT();
  const totals = columnTotals(data);
  return (
    <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-600">
      {keys.map((key, i) => (
        <div key={key} className="flex gap-1" data-testid={`total-${key}`}>
          <dt>{t('dashboard.rangeTotal', { name: t(SERIES_LABEL[key]) })}</dt>
          <dd className="font-semibold text-slate-800 tabular-nums">{format(totals[i] ?? 0)}</dd>
        </div>
      ))}
    </dl>
  );
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Daily registrations, activity and messages, and the day's money flow, over a chosen range: the
 * series the backend lacks left out, and a chart none of whose series it has.
 */
export function DailyPanel({ absent = NONE, held }: { absent?: ReadonlySet<string>; held: readonly string[] }) {
  const t = useT();
  const locale = useLocale();
  const [range, setRange] = useState<DateRange>(() => lastDays(Date.now()));
  const [draft, setDraft] = useState<DateRange>(range);
  const problem = rangeProblem(draft);
  const query = useQuery(dailyStatisticsQueryOptions(range));
  const { lang, currency } = useFigureFormat();
  const countKeys = useMemo(() => COUNT_SERIES.filter((k) => !absent.has(k)), [absent]);
  // Money series only where the administrator's permissions cover that money.
  const moneyKeys = useMemo(
    () => MONEY_SERIES.filter((k) => !absent.has(k) && mayShowFigure(DAILY_FIGURE_PERMISSIONS, k, held)),
    [absent, held],
  );
  const rows = query.data?.list;
  // The range's last day is today, still being counted: drawn as partial, never as a fall.
  const partialToday = rows !== undefined && rows.length > 0 && rows.at(-1)!.date === dayKey(Date.now());
  const chartSpecs = useMemo(
    () => specs(t, locale, { lang, currency }, countKeys, moneyKeys, partialToday),
    [t, locale, lang, currency, countKeys, moneyKeys, partialToday],
  );
  const counts = useMemo(() => dailyColumns(rows ?? [], countKeys), [rows, countKeys]);
  const amounts = useMemo(() => dailyColumns(rows ?? [], moneyKeys), [rows, moneyKeys]);
  const preset = matchingPreset(range, Date.now());

  const change = (next: DateRange) => {
    setDraft(next);
    if (!rangeProblem(next)) setRange(next);
  };

  const problemText =
    problem === 'tooLong'
      ? t('dashboard.rangeTooLong', { days: MAX_RANGE_DAYS })
      : problem
        ? t('dashboard.rangeInvalid')
        : '';

  return (
    <Panel id="dashboard-daily" title={t('dashboard.daily')} testId="daily-panel">
      <div className="mb-4 flex flex-wrap items-end gap-3" role="group" aria-label={t('dashboard.range')}>
        <label className="flex flex-col text-sm text-slate-700">
          {t('dashboard.from')}
          <input
            type="date"
            value={draft.startDate}
            max={draft.endDate}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'dashboard-range-problem' : undefined}
            onChange={(e) => change({ ...draft, startDate: e.target.value })}
            className="mt-1 rounded-md border border-slate-300 px-2 py-1"
            data-testid="range-start"
          />
        </label>
        <label className="flex flex-col text-sm text-slate-700">
          {t('dashboard.to')}
          <input
            type="date"
            value={draft.endDate}
            min={draft.startDate}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'dashboard-range-problem' : undefined}
            onChange={(e) => change({ ...draft, endDate: e.target.value })}
            className="mt-1 rounded-md border border-slate-300 px-2 py-1"
            data-testid="range-end"
          />
        </label>
        {RANGE_PRESETS.map((days) => (
          <button
            key={days}
            type="button"
            className="btn"
            aria-pressed={preset === days}
            onClick={() => change(lastDays(Date.now(), days))}
          >
            {t('dashboard.lastDays', { days })}
          </button>
        ))}
        {problem && (
          <p id="dashboard-range-problem" role="alert" className="text-sm text-red-700">
            {problemText}
          </p>
        )}
      </div>

      {query.isError && !query.data ? (
        <PanelError onRetry={() => void query.refetch()} retrying={query.isFetching} />
      ) : !query.data ? (
        <PanelSkeleton>
          <Skeleton className="h-64 w-full" />
        </PanelSkeleton>
      ) : (
        <div
          className={`grid gap-6 ${countKeys.length > 0 && moneyKeys.length > 0 ? 'xl:grid-cols-2' : ''} ${query.isPlaceholderData ? 'opacity-60' : ''}`}
          aria-busy={query.isFetching}
        >
          {countKeys.length > 0 && (
            <div>
              <h3 className="mb-2 font-medium text-slate-700">{t('dashboard.dailyActivity')}</h3>
              <SplitChart
                spec={chartSpecs.counts}
                data={counts}
                testId="daily-chart"
                label={t('dashboard.chartSummary', {
                  title: t('dashboard.dailyActivity'),
                  start: range.startDate,
                  end: range.endDate,
                })}
              />
              <Totals keys={countKeys} data={counts} format={(v) => formatCount(v, lang)} />
            </div>
          )}
          {moneyKeys.length > 0 && (
            <div>
              <h3 className="mb-2 font-medium text-slate-700">{t('dashboard.dailyMoney')}</h3>
              <SplitChart
                spec={chartSpecs.money}
                data={amounts}
                testId="money-chart"
                label={t('dashboard.chartSummary', {
                  title: t('dashboard.dailyMoney'),
                  start: range.startDate,
                  end: range.endDate,
                })}
              />
              <Totals keys={moneyKeys} data={amounts} format={(v) => formatCurrency(cents(v), lang, currency)} />
            </div>
          )}
          {partialToday && (
            <p className="text-sm text-slate-600 xl:col-span-2" data-testid="partial-today">
              {t('dashboard.partialNote')}
            </p>
          )}
        </div>
      )}
    </Panel>
  );
}
