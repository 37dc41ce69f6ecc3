import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { ScreenDecl } from '../../web/screens/declare.js';
import { LEAF_ROUTES } from '../../web/app/routes.js';
import { watchCalls } from './call-watch.js';
import { errorToasts } from './harness.js';

/** What a working screen of each engine kind shows once its data is in. */
export const SCREEN_READY: Record<ScreenDecl['kind'], string> = {
  list: '[data-testid="list-table"] tbody tr',
  settings: '[data-testid="settings-form"]',
  statistics: '[data-testid="chart"] canvas',
  operation: '[data-testid="operation-form"]',
};

/**
 * Opens one engine screen and says what is wrong with it, if anything: nothing shown, a settings
 * form the backend left empty, or an error toast.
 */
export async function screenProblems(page: Page, path: string, decl: ScreenDecl): Promise<string[]> {
  await page.goto(path);
  try {
    await page.locator(SCREEN_READY[decl.kind]).first().waitFor({ timeout: 10_000 });
  } catch {
    return [`${path}: nothing shown (${(await errorToasts(page)).join('; ')})`];
  }
  const problems: string[] = [];
  if (decl.kind === 'settings') {
    // A filled form: at least one text or number input holds a value from the backend.
    const filled = await page
      .locator('[data-testid="settings-form"] input:not([type=checkbox]), [data-testid="settings-form"] textarea')
      .evaluateAll((els) => els.some((e) => (e as HTMLInputElement).value !== ''));
    if (!filled) problems.push(`${path}: empty form`);
  }
  const toasts = await errorToasts(page);
  if (toasts.length) problems.push(`${path}: error toast ${toasts.join('; ')}`);
  return problems;
}

/**
 * On the users list: sorts by balance, then goes to page 2, and returns the first row of the table
 * once it has stopped fetching (the rows drawn for the page asked for), now on page 2.
 */
export async function sortUsersByBalanceAndTurnPage(page: Page): Promise<Locator> {
  await page.goto('/userpage/userset');
  await page.locator('[data-testid="list-table"] tbody tr').first().waitFor();
  await page.locator('[data-sort="balance"]').click();
  await page.waitForURL((u) => u.searchParams.get('sort') === 'balance');
  const settled = page.locator('[data-testid="list-table"]:not([aria-busy]) tbody tr').first();
  const pageOneId = await settled.getAttribute('data-row-id');
  await page.getByRole('button', { name: 'Next page' }).click();
  await page.waitForURL((u) => u.searchParams.get('pageNum') === '2');
  await expect.poll(() => settled.getAttribute('data-row-id')).not.toBe(pageOneId);
  return settled;
}

/**
 * Walks every management screen of the route table on a backend bound by a map: a screen the
 * backend does not offer (`unoffered`, by resource id) must show the not-offered page at its URL
 * and be gone from the menu; every other one must draw its rows, chart or form without an error;
 * and no page may ask for a call the map leaves out (the gateway's 404 UNSUPPORTED_BY_BACKEND).
 * Returns the problems found and how many screens were walked, and the menu's links.
 */
export async function walkBoundScreens(
  page: Page,
  unoffered: ReadonlySet<string>,
  /** Screens the caller checks on its own (one a backend offers only in part). */
  apart: ReadonlySet<string> = new Set(),
  /** Query strings some screens are opened with, by resource id (a list its backend lists only filtered). */
  queries: Readonly<Record<string, string>> = {},
): Promise<{ problems: string[]; walked: number; menuLinks: string[] }> {
  const problems: string[] = [];
  const watch = watchCalls(page);
  let walked = 0;
  for (const { path, screen: decl } of LEAF_ROUTES) {
    if (!decl || apart.has(decl.id)) continue;
    if (unoffered.has(decl.id)) {
      await page.goto(path);
      try {
        await page.getByTestId('not-offered').waitFor({ timeout: 10_000 });
      } catch {
        problems.push(`${path}: no not-offered page`);
      }
      continue;
    }
    walked += 1;
    problems.push(...(await screenProblems(page, `${path}${queries[decl.id] ?? ''}`, decl)));
  }
  const menuLinks = await page.locator('nav a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  for (const route of LEAF_ROUTES) {
    if (route.screen && unoffered.has(route.screen.id) && menuLinks.includes(route.path))
      problems.push(`${route.path}: still in the menu`);
  }
  for (const call of new Set(await watch.refused())) problems.push(`${call}: asked, though the map leaves it out`);
  return { problems, walked, menuLinks };
}
