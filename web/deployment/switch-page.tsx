import { use } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { useQuery } from '@tanstack/react-query';
import type { PageProps } from '../ui/page.js';
import { pageMessagesReady, useT } from '../i18n/index.js';
import { Panel, PanelError, PanelSkeleton, Skeleton } from '../ui/panel.js';
import { runnerQueryOptions } from './queries.js';
import { RunnerConfigForm } from './runner-config-form.js';
import { RunnerSwitches } from './runner-switches.js';
import { offersCall } from '../api/session.js';

/** Start-switch configuration: the four runner switches and the runner config form. */
export default function SwitchPage({ route }: PageProps) {
  useSignals();
  // Suspends (inside the layout's Suspense) until this page's messages are in.
  use(pageMessagesReady());
  const t = useT();
  const query = useQuery(runnerQueryOptions());
  const state = query.data;
  const failed =
    query.isError && !state ? <PanelError onRetry={() => void query.refetch()} retrying={query.isFetching} /> : null;

  return (
    <div className="space-y-6 p-6" data-testid="switch-page">
      <h1 className="text-2xl font-semibold text-slate-800">{t(route.meta.title)}</h1>
      <Panel id="deploy-switches" title={t('deploy.switches')} testId="switch-panel">
        {failed ??
          (state ? (
            <RunnerSwitches state={state} />
          ) : (
            <PanelSkeleton>
              {[0, 1, 2, 3].map((i) => (
                <Skeleton key={i} className="my-4 h-8 w-full" />
              ))}
            </PanelSkeleton>
          ))}
      </Panel>
      {/* A backend that cannot save the runner config has no form to fill in. */}
      {offersCall('runnerSaveConfig') && (
        <Panel id="deploy-config" title={t('deploy.config')} testId="config-panel">
          {failed ??
            (state ? (
              <RunnerConfigForm config={state.config} />
            ) : (
              <PanelSkeleton>
                <Skeleton className="h-48 w-full" />
              </PanelSkeleton>
            ))}
        </Panel>
      )}
    </div>
  );
}
