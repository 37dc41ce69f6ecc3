import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { CALLS, type CountAnswer, type DailyStatisticsAnswer, type FinanceData } from '#contract';
import { api } from '../api/client.js';
import type { DateRange } from './date-range.js';

/** One query-options factory per dashboard call; keys nest under ['dashboard']. */

/** The KPIs keep up without a reload. */
export const KPI_REFRESH_MS = 60_000;

export const dashboardKeys = {
  all: ['dashboard'] as const,
  count: () => ['dashboard', 'count'] as const,
  daily: (range: DateRange) => ['dashboard', 'dailyStatistics', range.startDate, range.endDate] as const,
  finance: () => ['dashboard', 'financeData'] as const,
};

/** An answer without data is a broken answer: surface it as the panel's error, not as zeros. */
function required<T>(data: T | undefined, path: string): T {
  if (data === undefined || data === null) throw new Error(`${path} answered without data`);
  return data;
}

export function countQueryOptions() {
  return queryOptions({
    queryKey: dashboardKeys.count(),
    queryFn: async ({ signal }) =>
      required((await api.get<CountAnswer>(CALLS.count, undefined, { signal })).data, CALLS.count),
    refetchInterval: KPI_REFRESH_MS,
  });
}

export function dailyStatisticsQueryOptions(range: DateRange) {
  return queryOptions({
    queryKey: dashboardKeys.daily(range),
    queryFn: async ({ signal }) =>
      required(
        (await api.get<DailyStatisticsAnswer>(CALLS.dailyStatistics, { ...range }, { signal })).data,
        CALLS.dailyStatistics,
      ),
    // The previous range stays drawn while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export function financeDataQueryOptions() {
  return queryOptions({
    queryKey: dashboardKeys.finance(),
    queryFn: async ({ signal }) =>
      required((await api.get<FinanceData>(CALLS.financeData, undefined, { signal })).data, CALLS.financeData),
  });
}
