import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useHarness } from './harness.js';

// A window narrowed after the first draw (a laptop snapped to half a screen, a tablet rotated):
// every chart, and the page with it, follows its container both ways.
const h = useHarness();

/** How far the page runs past the window, and the widest chart canvas against its figure. */
function measure(page: Page) {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    const charts = [...document.querySelectorAll('figure canvas')].map((canvas) => {
      const figure = canvas.closest('figure')!;
      return {
        canvas: Math.round(canvas.getBoundingClientRect().width),
        figure: Math.round(figure.getBoundingClientRect().width),
      };
    });
    return { overflow: root.scrollWidth - root.clientWidth, charts };
  });
}

// The layout settles over a few frames (the menu folds away below the phone breakpoint).
const SETTLED = { timeout: 10_000 };

async function chartsFollow(page: Page, drawn: number): Promise<void> {
  await expect.poll(async () => (await measure(page)).charts.length).toBe(drawn);
  await expect.poll(async () => (await measure(page)).overflow, SETTLED).toBe(0);
  const wide = await measure(page);
  const widest = Math.max(...wide.charts.map((c) => c.canvas));
  expect(widest).toBeGreaterThan(500);

  await page.setViewportSize({ width: 390, height: 844 });
  // Narrowed: nothing runs past the window, and each canvas fits its figure.
  await expect.poll(async () => (await measure(page)).overflow, SETTLED).toBe(0);
  await expect
    .poll(async () => (await measure(page)).charts.every((c) => c.canvas <= c.figure && c.canvas <= 390), SETTLED)
    .toBe(true);

  // Widened again: the charts take the room back.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect
    .poll(async () => Math.max(...(await measure(page)).charts.map((c) => c.canvas)), SETTLED)
    .toBeGreaterThanOrEqual(widest);
  await expect.poll(async () => (await measure(page)).overflow, SETTLED).toBe(0);
}

describe('charts follow their container', () => {
  it('on the dashboard, from 1440 px down to 390 px and back', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    await page.getByTestId('dashboard-page').waitFor();
    await page.getByTestId('daily-chart').locator('canvas').first().waitFor();
    await page.getByTestId('money-chart').locator('canvas').first().waitFor();
    // Each chart draws one panel per group of series of one size (SplitChart).
    const panels = async (id: string) => Number(await page.getByTestId(id).getAttribute('data-panels'));
    await chartsFollow(page, (await panels('daily-chart')) + (await panels('money-chart')));
  });

  it('on a statistics screen and the service monitor', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    await page.goto('/operation/statistics');
    await page.locator('figure canvas').first().waitFor();
    await chartsFollow(page, await page.locator('figure canvas').count());

    await page.goto('/deployconfig/monitor');
    await page.getByTestId('history-chart').locator('canvas').waitFor();
    await chartsFollow(page, await page.locator('figure canvas').count());
  });
});
