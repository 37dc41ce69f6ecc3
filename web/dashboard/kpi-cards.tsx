import { useQuery } from '@tanstack/react-query';
import { useT } from '../i18n/index.js';
import { COUNT_FIGURE_PERMISSIONS, mayShowFigure, type CountAnswer } from '#contract';
import { KPI_REFRESH_MS, countQueryOptions, dailyStatisticsQueryOptions } from './queries.js';
import { dayKey, lastDays } from './date-range.js';
import { KPI_CARDS, YESTERDAY_FIELD, changeAgainst, exactValue, shortValue, type ValueKind } from './shaping.js';
import { Panel, PanelError, PanelSkeleton, Skeleton, UpdatedAt } from '../ui/panel.js';
import { ShortFigure } from '../ui/short-figure.js';
import { useFigureFormat } from './figure-format.js';

const GRID = 'grid grid-cols-2 gap-3 sm:grid-cols-4';

const NONE: ReadonlySet<string> = new Set();
const DAY_MS = 86_400_000;

/**
 * The KPI cards of /manage/count (those the backend has and the permissions cover), refreshed
 * every minute. Today's figures say how they stand against yesterday's whole day, read from the
 * daily statistics (`yesterday`: the series the backend lacks; null when it has none).
 */
export function KpiCards({
  absent = NONE,
  held,
  yesterday,
}: {
  absent?: ReadonlySet<string>;
  held: readonly string[];
  yesterday: ReadonlySet<string> | null;
}) {
  const cards = KPI_CARDS.filter((c) => !absent.has(c.key) && mayShowFigure(COUNT_FIGURE_PERMISSIONS, c.key, held));
  const t = useT();
  const format = useFigureFormat();
  const query = useQuery(countQueryOptions());
  const data = query.data;
  // Yesterday and today, as the daily chart counts them; refreshed with the cards.
  const days = useQuery({
    ...dailyStatisticsQueryOptions(lastDays(Date.now(), 2)),
    enabled: yesterday !== null,
    refetchInterval: KPI_REFRESH_MS,
  });
  const yesterdayRow = days.data?.list.find((r) => r.date === dayKey(Date.now() - DAY_MS));

  /** "+12% against yesterday (¥1,010.00)" under a card of today's, when yesterday's figure is known. */
  const against = (key: keyof CountAnswer, today: number, kind: ValueKind): string | null => {
    const field = YESTERDAY_FIELD[key];
    if (!field || !yesterdayRow || yesterday?.has(field)) return null;
    const before = yesterdayRow[field];
    if (typeof before !== 'number') return null;
    const value = exactValue(before, kind, format);
    const change = changeAgainst(today, before, format.lang);
    return change === null
      ? t('dashboard.kpi.yesterday', { value })
      : t('dashboard.kpi.vsYesterday', { change, value });
  };

  return (
    <Panel
      id="dashboard-kpi"
      title={t('dashboard.kpiTitle')}
      testId="kpi-panel"
      actions={
        <>
          <span>{t('dashboard.autoRefresh', { seconds: KPI_REFRESH_MS / 1000 })}</span>
          <UpdatedAt at={query.dataUpdatedAt} />
          <button type="button" className="btn" onClick={() => void query.refetch()} disabled={query.isFetching}>
            {t('dashboard.refresh')}
          </button>
        </>
      }
    >
      {query.isError && !data ? (
        <PanelError onRetry={() => void query.refetch()} retrying={query.isFetching} />
      ) : !data ? (
        <PanelSkeleton>
          <div className={GRID}>
            {cards.map((c) => (
              <div key={c.key} className="rounded-md border border-slate-100 p-3">
                <Skeleton className="h-4 w-2/3" />
                <Skeleton className="mt-3 h-7 w-1/2" />
              </div>
            ))}
          </div>
        </PanelSkeleton>
      ) : (
        <>
          {/* A failed refresh keeps the last figures and says so instead of dropping them. */}
          {query.isError && <PanelError onRetry={() => void query.refetch()} retrying={query.isFetching} />}
          <dl className={`${GRID} ${query.isError ? 'mt-3 opacity-70' : ''}`}>
            {cards.map((c) => {
              const value = data[c.key];
              const compared = against(c.key, value, c.kind);
              return (
                <div
                  key={c.key}
                  className="rounded-md border border-slate-100 bg-slate-50 p-3"
                  data-testid={`kpi-${c.key}`}
                >
                  <dt className="text-sm text-slate-600">{t(c.label)}</dt>
                  <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">
                    <ShortFigure short={shortValue(value, c.kind, format)} exact={exactValue(value, c.kind, format)} />
                  </dd>
                  {compared && (
                    <dd className="mt-1 text-xs text-slate-600 tabular-nums" data-testid={`yesterday-${c.key}`}>
                      {compared}
                    </dd>
                  )}
                </div>
              );
            })}
          </dl>
        </>
      )}
    </Panel>
  );
}
