import type { Locator, Page } from 'playwright-core';
import { loginForm, submitLogin } from '../../support/login.js';
import { STEP_TIMEOUT_MS, arm, waitForList, type WaitAnswer } from './list-recorder.js';

/**
 * The steps a list bench takes in the browser, shared by the sandbox's and ejabberd's list
 * benches: logging in, opening a list screen, one change (a click that asks for another page or
 * sort) waited for with the page recorder, and the figures each change yields.
 */

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export function nearestRank(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Median, p90, p95 and max of a set of figures. */
export function spread(values: number[]): { median: number; max: number; p90: number; p95: number; count: number } {
  return {
    median: median(values),
    max: values.length ? Math.max(...values) : Number.NaN,
    p90: nearestRank(values, 90),
    p95: nearestRank(values, 95),
    count: values.length,
  };
}

/** Logs in through the form as the sandbox's admin (admin / admin123) and waits for the dashboard. */
export async function login(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/login`, { waitUntil: 'commit' });
  await loginForm(page).account.waitFor({ timeout: 15_000 });
  await submitLogin(page, 'admin');
  await page.waitForURL(/\/dashboard(?:[?#]|$)/, { timeout: 15_000 });
}

/** What one list change measured, all in the page's clock. */
export interface StepFigures {
  url: string;
  pageNum: number;
  sort: string;
  rows: number;
  total: number | null;
  /** Response end (resource timing) to rows in the DOM and a frame painted: the budget figure. */
  drawnMs: number;
  /** The app's JSON parse done (our fetch wrapper) to painted. */
  parsedToPaintedMs: number;
  /** Rows in the DOM to painted. */
  inDomToPaintedMs: number;
  /** The click that made the change to painted (server and network included). */
  clickToPaintedMs: number | null;
  /** Request sent to first byte of the answer (gateway plus backend), as the browser saw it. */
  serverMs: number | null;
  /** The whole call, fetch() to body read. */
  callMs: number | null;
  answerBytes: number | null;
}

export function stepFigures(answer: Extract<WaitAnswer, { ok: true }>): StepFigures {
  const { record, timing } = answer;
  // Without a resource entry (should not happen on one origin) the parse end stands in for arrival.
  const arrivedAt = timing ? timing.responseEnd : record.parsedAt;
  const query = new URL(record.url).searchParams;
  return {
    drawnMs: answer.paintedAt - arrivedAt,
    parsedToPaintedMs: answer.paintedAt - record.parsedAt,
    inDomToPaintedMs: answer.paintedAt - answer.inDomAt,
    clickToPaintedMs: answer.clickAt === null ? null : answer.paintedAt - answer.clickAt,
    serverMs: timing && timing.requestStart > 0 ? timing.responseStart - timing.requestStart : null,
    callMs: timing ? timing.responseEnd - timing.startTime : record.parsedAt - record.sentAt,
    answerBytes: timing ? timing.encodedBodySize : null,
    rows: record.count,
    total: record.total,
    url: answer.url,
    pageNum: Number(query.get('pageNum') ?? 1),
    sort: query.get('sort') ?? '',
  };
}

/**
 * Opens a list screen at `address` (path and query), whose list call is `call`, in a fresh document, whose recorder starts
 * armed at zero, so its first answer counts; resolves with that answer's figures.
 */
export async function openList(page: Page, baseUrl: string, address: string, call: string): Promise<StepFigures> {
  const listCall = page.waitForResponse((r) => r.url().includes(call), { timeout: STEP_TIMEOUT_MS });
  await page.goto(`${baseUrl}${address}`, { waitUntil: 'commit' });
  await listCall;
  return stepFigures(await waitForList(page));
}

/**
 * One change: the control scrolled into view, then the page read (no request under way, as for
 * someone who scrolls down a page before its Next button), then clicked, and its list answer
 * waited for (the list call `call`) until drawn. (A click scrolls by itself, and the rows and pictures it brought then
 * came with the change.)
 */
export async function changeList(
  page: Page,
  requests: { settled(timeoutMs: number): Promise<void> },
  target: Locator,
  call: string,
): Promise<StepFigures> {
  await target.scrollIntoViewIfNeeded({ timeout: STEP_TIMEOUT_MS });
  await requests.settled(STEP_TIMEOUT_MS);
  await arm(page);
  const response = page.waitForResponse((r) => r.url().includes(call), { timeout: STEP_TIMEOUT_MS });
  await target.click({ timeout: STEP_TIMEOUT_MS });
  await response;
  return stepFigures(await waitForList(page));
}

/** The list screen's page-step buttons, found by their marker (their labels are translated). */
export function pageStep(page: Page, step: 'first' | 'prev' | 'next' | 'last'): Locator {
  return page.locator(`[data-testid="list-screen"] [data-page-step="${step}"]`);
}
