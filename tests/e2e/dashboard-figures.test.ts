import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { countAnswer } from '../../sandbox/store/statistics.js';
import { errorToasts, useHarness } from './harness.js';

/**
 * The dashboard's figures as the issue asked, at a phone's width and a laptop's: amounts under
 * 100,000 written whole, today's part-day drawn as partial, today's cards against yesterday, and
 * an operator without the finance screens shown no money and no pending-withdrawal count.
 */

const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });

const WIDTHS = [390, 1440] as const;

/** Today's recharge set to a figure the old cards shortened (¥1,000 and more) but under ¥100,000. */
function rechargeTodayUnder100k(): number {
  const store = h.sandbox.app.sandbox;
  const now = Date.now();
  const current = countAnswer(store, now).rechargeToday;
  const target = current < 101_000 ? 101_000 : current + 123;
  expect(target).toBeLessThan(10_000_000);
  if (target > current) store.ledger.post(store.users.all()[0]!, 'recharge', target - current, now, 'Online recharge');
  return target;
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    width: window.innerWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(width);
}

describe.each(WIDTHS)('dashboard at %i px', (width) => {
  it('shows the administrator every figure, money whole under 100,000, today partial and against yesterday', async () => {
    const cents = rechargeTodayUnder100k();
    const { page } = await h.pageAs('admin', { width, height: 900 });
    await page.getByTestId('dashboard-page').waitFor();

    // ¥1,010.00 reads ¥1,010.00, not ¥1k: written whole, with the card's exact figure.
    const exact = `¥${(cents / 100).toLocaleString('en', { minimumFractionDigits: 2 })}`;
    const recharge = page.getByTestId('kpi-rechargeToday');
    await expect.poll(() => recharge.locator('dd').first().innerText()).toBe(exact);
    await expect.poll(() => page.getByTestId('kpi-pendingWithdrawals').isVisible()).toBe(true);

    // Today's cards say how they stand against yesterday.
    for (const key of ['newUsersToday', 'activeUsersToday', 'messagesToday', 'rechargeToday']) {
      await expect
        .poll(() => page.getByTestId(`yesterday-${key}`).innerText())
        .toMatch(/against yesterday|^Yesterday /);
    }

    // The range ends today: its part-day is drawn as partial, in both charts, and said so.
    await page.getByTestId('daily-chart').locator('canvas').first().waitFor();
    await page.getByTestId('money-chart').locator('canvas').first().waitFor();
    for (const chart of ['daily-chart', 'money-chart']) {
      const figures = page.getByTestId(chart).locator('figure');
      const count = await figures.count();
      expect(count).toBeGreaterThan(0);
      for (let i = 0; i < count; i++) expect(await figures.nth(i).getAttribute('data-partial-last')).toBe('true');
    }
    expect(await page.getByTestId('partial-today').innerText()).toContain('Today is still being counted');
    // The tooltip names the last day as today so far.
    const over = page.getByTestId('daily-chart').locator('.u-over').first();
    await over.scrollIntoViewIfNeeded();
    const box = (await over.boundingBox())!;
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    await expect.poll(() => page.getByTestId('chart-tooltip').first().innerText()).toContain('Today so far');

    expect(await page.getByTestId('finance-panel').locator('dt').count()).toBe(10);
    await noSidewaysScroll(page);
    expect(await errorToasts(page)).toEqual([]);

    // An earlier range has no partial day.
    await page.getByTestId('range-end').fill('2026-01-10');
    await page.getByTestId('range-start').fill('2026-01-01');
    await expect.poll(() => page.getByTestId('daily-chart').getAttribute('data-points')).toBe('10');
    expect(await page.getByTestId('partial-today').count()).toBe(0);
    expect(
      await page.getByTestId('daily-chart').locator('figure').first().getAttribute('data-partial-last'),
    ).toBeNull();
  });

  it('shows an operator without the finance screens no money and no pending-withdrawal count', async () => {
    const { page } = await h.pageAs('operator', { width, height: 900 });
    await page.getByTestId('dashboard-page').waitFor();
    await expect.poll(() => page.getByTestId('kpi-userCount').locator('dd').first().innerText()).toMatch(/\d/);
    await page.getByTestId('daily-chart').locator('canvas').first().waitFor();
    for (const key of ['userCount', 'newUsersToday', 'activeUsersToday', 'onlineUsers', 'groupCount', 'messagesToday'])
      expect(await page.getByTestId(`kpi-${key}`).count(), key).toBe(1);
    for (const hidden of ['kpi-pendingWithdrawals', 'kpi-rechargeToday', 'money-chart', 'finance-panel'])
      expect(await page.getByTestId(hidden).count(), hidden).toBe(0);
    // Nothing on the page names money or the withdrawal queue.
    const text = await page.getByTestId('dashboard-page').innerText();
    expect(text).not.toMatch(/¥|Recharge|Withdrawal|Pending/);
    await noSidewaysScroll(page);
    expect(await errorToasts(page)).toEqual([]);
  });
});
