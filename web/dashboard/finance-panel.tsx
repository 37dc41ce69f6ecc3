import { useQuery } from '@tanstack/react-query';
import { FINANCE_FIGURE_PERMISSIONS, mayShowFigure } from '#contract';
import { useT } from '../i18n/index.js';
import { financeDataQueryOptions } from './queries.js';
import { FINANCE_FIGURES, exactValue } from './shaping.js';
import { Panel, PanelError, PanelSkeleton, Skeleton, UpdatedAt } from '../ui/panel.js';
import { useFigureFormat } from './figure-format.js';

const GRID = 'grid grid-cols-1 gap-x-6 sm:grid-cols-2';

/**
 * All-time totals and today's movement of /manage/getFinanceData, written out in full with their
 * currency: this is the table a reader acts on, so nothing here is shortened. Only the rows the
 * administrator's permissions cover (contract/dashboard-permissions.ts).
 */
export function FinancePanel({ held }: { held: readonly string[] }) {
  const figures = FINANCE_FIGURES.filter((f) => mayShowFigure(FINANCE_FIGURE_PERMISSIONS, f.key, held));
  const t = useT();
  const format = useFigureFormat();
  const query = useQuery(financeDataQueryOptions());
  const data = query.data;

  return (
    <Panel
      id="dashboard-finance"
      title={t('dashboard.finance')}
      testId="finance-panel"
      actions={<UpdatedAt at={query.dataUpdatedAt} />}
    >
      {query.isError && !data ? (
        <PanelError onRetry={() => void query.refetch()} retrying={query.isFetching} />
      ) : !data ? (
        <PanelSkeleton>
          <div className={GRID}>
            {figures.map((f) => (
              <Skeleton key={f.key} className="my-2 h-5 w-full" />
            ))}
          </div>
        </PanelSkeleton>
      ) : (
        <dl className={GRID}>
          {figures.map((f) => {
            const value = data[f.key];
            return (
              <div
                key={f.key}
                className="flex items-baseline justify-between gap-3 border-b border-slate-100 py-2"
                data-testid={`finance-${f.key}`}
              >
                <dt className="text-sm text-slate-600">{t(f.label)}</dt>
                <dd className="text-right font-semibold whitespace-nowrap text-slate-900 tabular-nums">
                  {exactValue(value, f.kind, format)}
                </dd>
              </div>
            );
          })}
        </dl>
      )}
    </Panel>
  );
}
