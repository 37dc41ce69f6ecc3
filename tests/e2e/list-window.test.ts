import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe.js';
import { useHarness } from './harness.js';

/*
 * A page of 100 rows draws the rows in and near the view (windowing), at 1440 px: every row stays
 * reachable by scrolling and by keys, the page keeps its height, a printout and a screen reader
 * get every row, and back from a record's page returns to the row left. A page of 50 draws whole.
 */
const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });

const LAPTOP = { width: 1440, height: 900 };
const USERS_LIST = '/manage/user/userProfile/list';

const table = (page: Page) => page.locator('[data-testid="list-table"]:not([aria-busy])');
const drawnRows = (page: Page) => table(page).locator('tbody tr[data-row-id]');
const drawnIndexes = (page: Page) =>
  drawnRows(page).evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-row-index'))));
const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

/** Opens the users list at 100 rows a page, and returns the ids its answer holds, in order. */
async function openHundred(page: Page, query = ''): Promise<string[]> {
  const answer = page.waitForResponse((r) => r.url().includes(USERS_LIST));
  await page.goto(`/userpage/userset?pageSize=100${query}`);
  const body = (await (await answer).json()) as { data: { list: Array<{ id: number }> } };
  await drawnRows(page).first().waitFor();
  return body.data.list.map((u) => String(u.id));
}

describe('a 100-row page at 1440 px', () => {
  it('draws the rows near the view, each the answer’s row at its place, and the rest as the page scrolls', async () => {
    const { page } = await h.pageAs('admin', LAPTOP);
    const ids = await openHundred(page);
    expect(ids).toHaveLength(100);
    // Told to assistive technology: 100 rows and the header.
    expect(await table(page).getAttribute('aria-rowcount')).toBe('101');

    const check = async (windowed = true) => {
      const rows = await drawnRows(page).evaluateAll((els) =>
        els.map((r) => [
          r.getAttribute('data-row-index'),
          r.getAttribute('data-row-id'),
          r.getAttribute('aria-rowindex'),
        ]),
      );
      for (const [index, id, ariaIndex] of rows) {
        expect(id).toBe(ids[Number(index)]);
        // Where every row is drawn, the table needs no count of them.
        expect(ariaIndex === null ? null : Number(ariaIndex)).toBe(windowed ? Number(index) + 2 : null);
      }
      return rows.length;
    };
    const atTop = await check();
    expect(atTop).toBeGreaterThanOrEqual(12);
    expect(atTop).toBeLessThan(100);
    expect(Math.min(...(await drawnIndexes(page)))).toBe(0);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);

    // To the page's foot: the last row is drawn, and the pagination under it is reached.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(async () => Math.max(...(await drawnIndexes(page)))).toBe(99);
    await check();
    expect(Math.min(...(await drawnIndexes(page)))).toBeGreaterThan(0);
    await expect(page.locator('[data-page-step="next"]').isVisible()).resolves.toBe(true);

    // Printing draws every row; after it, the window again.
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    await expect.poll(() => drawnRows(page).count()).toBe(100);
    await check(false);
    // The rows left out held the place of the rows drawn now, give or take a few pixels each.
    const whole = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(Math.abs(whole - height)).toBeLessThan(100 * 8);
    await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
    await expect.poll(() => drawnRows(page).count()).toBeLessThan(100);

    // At the top, as the other axe checks are: scrolled, a row under the fixed header has its
    // buttons half covered, which axe counts against their size.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(async () => Math.min(...(await drawnIndexes(page)))).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  }, 90_000);

  it('draws every row of a 50-row page', async () => {
    const { page } = await h.pageAs('admin', LAPTOP);
    await page.goto('/userpage/userset?pageSize=50');
    await expect.poll(() => drawnRows(page).count()).toBe(50);
    expect(await table(page).getAttribute('aria-rowcount')).toBeNull();
  }, 60_000);

  it('moves with k to the last row, not drawn before, and focuses it in view', async () => {
    const { page } = await h.pageAs('admin', LAPTOP);
    // Every withdrawal, not only those waiting: more than a page of 100.
    await page.goto('/WithDrawMoneyCheck?pageSize=100&state=');
    await drawnRows(page).first().waitFor();
    // 100 rows, the header and the totals row.
    expect(await table(page).getAttribute('aria-rowcount')).toBe('102');
    expect(await drawnIndexes(page)).not.toContain(99);
    await page.keyboard.press('k');
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-row-index') === '99');
    const box = await page.evaluate(() => {
      const r = document.activeElement!.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, height: window.innerHeight };
    });
    expect(box.top).toBeGreaterThanOrEqual(0);
    expect(box.bottom).toBeLessThanOrEqual(box.height);
    // Scrolled away to the top, the next keys come back to the current row's neighbours.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(async () => Math.max(...(await drawnIndexes(page)))).toBeLessThan(90);
    for (let i = 0; i < 2; i++) await page.keyboard.press('k');
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-row-index') === '97');
  }, 60_000);

  it('returns from a record’s page to the row it was opened from', async () => {
    const { page } = await h.pageAs('admin', LAPTOP);
    const ids = await openHundred(page, '&status=normal');
    const row = table(page).locator('tbody tr[data-row-index="80"]');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight * 0.75));
    await row.scrollIntoViewIfNeeded();
    await row.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const y = await scrollY(page);
    expect(await row.getAttribute('data-row-id')).toBe(ids[80]);

    await row.locator('[data-record-link]').click();
    await page.waitForURL((u) => u.pathname === `/userpage/userset/${ids[80]}`);
    await page.goBack();
    await expect.poll(() => scrollY(page)).toBe(y);
    await expect.poll(() => row.getAttribute('data-row-id')).toBe(ids[80]);
    // Drawn where it was: in the middle of the view.
    const box = await row.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom };
    });
    expect(box.top).toBeGreaterThan(0);
    expect(box.bottom).toBeLessThan(LAPTOP.height);
  }, 90_000);
});
