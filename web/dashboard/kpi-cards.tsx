import { useQuery } from '@tanstack/react-query';
import { useT } from '../i18n/index.js';
import { KPI_REFRESH_MS, countQueryOptions } from './queries.js';
import { KPI_CARDS, exactValue, shortValue } from './shaping.js';
import { Panel, PanelError, PanelSkeleton, Skeleton, UpdatedAt } from '../ui/panel.js';
import { ShortFigure } from '../ui/short-figure.js';
import { useFigureFormat } from './figure-format.js';

const GRID = 'grid grid-cols-2 gap-3 sm:grid-cols-4';

const NONE: ReadonlySet<string> = new Set();

/** The eight KPI cards of /manage/count (those the backend has), refreshed every minute. */
export function KpiCards({ absent = NONE }: { absent?: ReadonlySet<string> }) {
  const cards = KPI_CARDS.filter((c) => !absent.has(c.key));
  const t = useT();
  const format = useFigureFormat();
  const query = useQuery(countQueryOptions());
  const data = query.data;

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
                </div>
              );
            })}
          </dl>
        </>
      )}
    </Panel>
  );
}
