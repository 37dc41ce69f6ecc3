import { use, useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { MonitoringAnswer } from '#contract';
import type { PageProps } from '../ui/page.js';
import { pageMessagesReady, useT } from '../i18n/index.js';
import { PALETTE, type ChartSpec } from '../ui/chart/chart-spec.js';
import { TimeChart } from '../ui/chart/time-chart.js';
import { Panel, PanelError, PanelSkeleton, Skeleton, UpdatedAt, useLocale } from '../ui/panel.js';
import { HISTORY_SIZE, appendSample, historyColumns, sampleOf, type Sample } from './history.js';
import { HostFigures } from './host-figures.js';
import { MONITOR_REFRESH_MS, monitoringQueryOptions } from './queries.js';
import { ServiceTable } from './service-table.js';

/**
 * Kept outside the component so leaving the monitor and coming back within the session keeps
 * the curve instead of starting from one point.
 */
let rememberedHistory: readonly Sample[] = [];

function useHistory(answer: MonitoringAnswer | undefined): readonly Sample[] {
  const [history, setHistory] = useState(rememberedHistory);
  useEffect(() => {
    const sample = answer && sampleOf(answer);
    if (!sample) return;
    setHistory((h) => {
      rememberedHistory = appendSample(h, sample, HISTORY_SIZE);
      return rememberedHistory;
    });
  }, [answer]);
  return history;
}

/** Live host and service metrics with a pausable 5-second refresh and a CPU/memory history. */
export default function MonitorPage({ route }: PageProps) {
  // Suspends (inside the layout's Suspense) until this page's messages are in.
  use(pageMessagesReady());
  const t = useT();
  const locale = useLocale();
  const [paused, setPaused] = useState(false);
  const query = useQuery(monitoringQueryOptions(paused));
  const data = query.data;
  const history = useHistory(data);
  const columns = useMemo(() => historyColumns(history), [history]);
  const spec = useMemo<ChartSpec>(
    () => ({
      xKind: 'time',
      xLabel: t('deploy.axis.time'),
      locale,
      left: { label: t('deploy.axis.percent'), format: (v) => `${v}%`, range: [0, 100] },
      series: [
        { label: t('deploy.cpu'), color: PALETTE[0], axis: 'left', format: (v) => `${v.toFixed(1)}%` },
        { label: t('deploy.memory'), color: PALETTE[1], axis: 'left', format: (v) => `${v.toFixed(1)}%` },
      ],
    }),
    [t, locale],
  );
  const retry = () => void query.refetch();

  return (
    <div className="space-y-6 p-6" data-testid="monitor-page">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold text-slate-800">{t(route.meta.title)}</h1>
        <div className="ml-auto flex flex-wrap items-center gap-3 text-sm text-slate-600">
          <span data-testid="refresh-state">
            {paused ? t('deploy.paused') : t('deploy.refreshEvery', { seconds: MONITOR_REFRESH_MS / 1000 })}
          </span>
          <UpdatedAt at={query.dataUpdatedAt} />
          <button
            type="button"
            className="btn"
            aria-pressed={paused}
            onClick={() => setPaused((p) => !p)}
            data-testid="monitor-pause"
          >
            {paused ? t('deploy.resume') : t('deploy.pause')}
          </button>
          <button type="button" className="btn" onClick={retry} disabled={query.isFetching}>
            {t('dashboard.refresh')}
          </button>
        </div>
      </div>

      {query.isError && data && <PanelError onRetry={retry} retrying={query.isFetching} />}

      <Panel
        id="deploy-host"
        title={data ? `${t('deploy.host')}: ${data.host.hostname}` : t('deploy.host')}
        testId="host-panel"
      >
        {query.isError && !data ? (
          <PanelError onRetry={retry} retrying={query.isFetching} />
        ) : data ? (
          <HostFigures host={data.host} />
        ) : (
          <PanelSkeleton>
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              {[0, 1, 2, 3].map((i) => (
                <Skeleton key={i} className="h-20 w-full" />
              ))}
            </div>
          </PanelSkeleton>
        )}
      </Panel>

      <Panel
        id="deploy-history"
        title={t('deploy.history', { count: history.length, max: HISTORY_SIZE })}
        testId="history-panel"
      >
        {history.length === 0 ? (
          query.isError ? (
            <PanelError onRetry={retry} retrying={query.isFetching} />
          ) : (
            <PanelSkeleton>
              <Skeleton className="h-48 w-full" />
            </PanelSkeleton>
          )
        ) : (
          <TimeChart
            spec={spec}
            data={columns}
            testId="history-chart"
            heightScale={0.8}
            label={t('deploy.history', { count: history.length, max: HISTORY_SIZE })}
          />
        )}
      </Panel>

      <Panel id="deploy-services" title={t('deploy.services')} testId="services-panel">
        {query.isError && !data ? (
          <PanelError onRetry={retry} retrying={query.isFetching} />
        ) : data ? (
          <ServiceTable services={data.services} />
        ) : (
          <PanelSkeleton>
            {[0, 1, 2, 3, 4].map((i) => (
              <Skeleton key={i} className="my-2 h-6 w-full" />
            ))}
          </PanelSkeleton>
        )}
      </Panel>
    </div>
  );
}
