import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LEAF_ROUTES } from '../../web/app/routes.js';
import { seriousViolations } from '../support/axe.js';
import { storePreference, useHarness } from './harness.js';

/*
 * What accessibility.test.ts leaves out: the list screens as cards on a phone (390 px), and a
 * row's "⋯" menu while it is open, on a phone and on a laptop, in both colour schemes. No serious
 * or critical axe violation in any of them.
 */
const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });
const LISTS = LEAF_ROUTES.filter((r) => r.screen?.kind === 'list');

async function findings(page: Page, where: string): Promise<string[]> {
  return (await seriousViolations(page)).map((f) => `${where}: ${f.rule} on ${f.target} ${f.detail}`);
}

/** Axe on the list as it stands, then again with the first row's "⋯" menu open, where a row has one. */
async function listFindings(page: Page, path: string, row: string): Promise<string[]> {
  await page.goto(path);
  await page.locator(row).first().waitFor({ timeout: 15_000 });
  const found = await findings(page, path);
  const more = page.locator(row).first().getByTestId('row-more');
  if ((await more.count()) > 0) {
    await more.click();
    await page.getByTestId('row-menu').getByRole('menuitem').first().waitFor();
    found.push(...(await findings(page, `${path} with "⋯" open`)));
    await page.keyboard.press('Escape');
    await page.getByTestId('row-menu').waitFor({ state: 'detached' });
  }
  return found;
}

describe.each(['light', 'dark'])('list screens in the %s scheme', (scheme) => {
  it('as phone cards, menus open, have no serious or critical accessibility violation', async () => {
    const { page } = await h.pageAs('admin', { width: 390, height: 844 });
    await storePreference(page, 'colorScheme', scheme);
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');
    const found: string[] = [];
    let menus = 0;
    for (const { path } of LISTS) {
      found.push(...(await listFindings(page, path, '[data-testid="list-card"]')));
      if ((await page.getByTestId('row-more').count()) > 0) menus++;
    }
    // The walk is only worth something if it opened menus.
    expect(menus).toBeGreaterThan(5);
    expect(found).toEqual([]);
  }, 300_000);

  it('as laptop tables with a row menu open have no serious or critical accessibility violation', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    await storePreference(page, 'colorScheme', scheme);
    await page.reload();
    const found: string[] = [];
    for (const { path } of LISTS)
      found.push(...(await listFindings(page, path, '[data-testid="list-table"] tbody tr')));
    expect(found).toEqual([]);
  }, 300_000);
});
