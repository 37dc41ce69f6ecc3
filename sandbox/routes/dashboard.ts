import type { FastifyInstance } from 'fastify';
import {
  CALLS,
  COUNT_FIGURE_PERMISSIONS,
  DAILY_FIGURE_PERMISSIONS,
  FINANCE_FIGURE_PERMISSIONS,
  visibleFigures,
} from '../../server/contract/index.js';
import { badRequest, ok } from '../errors.js';
import { DAY, parseDayKey, startOfDay } from '../lib/time.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import { countAnswer, dailyStatistics, financeData } from '../store/statistics.js';
import { adminOf, queryObject } from './common.js';

export const DEFAULT_RANGE_DAYS = 30;
export const MAX_RANGE_DAYS = 366;

function dayParam(value: unknown, name: string): number | null {
  if (value === undefined || value === '') return null;
  const day = typeof value === 'string' ? parseDayKey(value.trim()) : null;
  if (day === null) throw badRequest(`${name} must be a date written YYYY-MM-DD`);
  return day;
}

/**
 * The day range of a statistics call: a missing end means today, a missing start the 30 days up
 * to the end; at most a year.
 */
export function statisticsRange(query: Record<string, unknown>, now: number): { start: number; end: number } {
  let start = dayParam(query.startDate, 'startDate');
  let end = dayParam(query.endDate, 'endDate');
  end ??= start === null ? startOfDay(now) : Math.min(startOfDay(now), start + (DEFAULT_RANGE_DAYS - 1) * DAY);
  start ??= end - (DEFAULT_RANGE_DAYS - 1) * DAY;
  if (start > end) throw badRequest('startDate must not be after endDate');
  if ((end - start) / DAY + 1 > MAX_RANGE_DAYS) throw badRequest(`The range may span at most ${MAX_RANGE_DAYS} days`);
  return { start, end };
}

/**
 * The dashboard's three calls; each needs only a login, and answers only the figures the
 * administrator's permissions cover (contract/dashboard-permissions.ts): an operator without the
 * finance screens gets the counts of people and messages, no money.
 */
export function registerDashboard(app: FastifyInstance, store: SandboxStore): void {
  app.get(CALLS.count, async (request) =>
    ok(visibleFigures(COUNT_FIGURE_PERMISSIONS, countAnswer(store, Date.now()), adminOf(request).permissions)),
  );

  app.get(CALLS.dailyStatistics, async (request) => {
    const now = Date.now();
    const { start, end } = statisticsRange(queryObject(request), now);
    const held = adminOf(request).permissions;
    const answer = dailyStatistics(store, start, end, now);
    return ok({ ...answer, list: answer.list.map((row) => visibleFigures(DAILY_FIGURE_PERMISSIONS, row, held)) });
  });

  app.get(CALLS.financeData, async (request) =>
    ok(visibleFigures(FINANCE_FIGURE_PERMISSIONS, financeData(store, Date.now()), adminOf(request).permissions)),
  );
}
