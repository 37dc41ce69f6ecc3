import { use } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { showsFinance } from '#contract';
import { absentFigures, offersCall, permissions } from '../api/session.js';
import { pageMessagesReady, useT } from '../i18n/index.js';
import type { PageProps } from '../ui/page.js';
import { DailyPanel } from './daily-panel.js';
import { FinancePanel } from './finance-panel.js';
import { KpiCards } from './kpi-cards.js';

const NO_PERMISSIONS: readonly string[] = [];

/**
 * Home: KPI cards, the daily charts and the finance panel, each loading and failing on its own,
 * and each left out when the backend lacks its figure (its map marks the call unsupported); a
 * card or a chart's series the backend lacks (its map marks it absent) is left out of its panel,
 * and so is every money figure the administrator's permissions do not cover.
 */
export default function DashboardPage({ route }: PageProps) {
  useSignals();
  // Suspends (inside the layout's Suspense) until this page's messages are in.
  use(pageMessagesReady());
  const t = useT();
  // What the permissions hold decides which figures are drawn (contract/dashboard-permissions.ts).
  const held = permissions.value ?? NO_PERMISSIONS;
  return (
    <div className="space-y-6 p-6" data-testid="dashboard-page">
      <h1 className="text-2xl font-semibold text-slate-800">{t(route.meta.title)}</h1>
      {offersCall('count') && (
        <KpiCards
          absent={absentFigures('count')}
          held={held}
          yesterday={offersCall('dailyStatistics') ? absentFigures('dailyStatistics') : null}
        />
      )}
      {offersCall('dailyStatistics') && <DailyPanel absent={absentFigures('dailyStatistics')} held={held} />}
      {offersCall('financeData') && showsFinance(held) && <FinancePanel held={held} />}
    </div>
  );
}
