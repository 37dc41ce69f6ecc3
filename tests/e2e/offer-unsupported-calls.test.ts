import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CALLS, GATEWAY_PATHS } from '../../server/contract/index.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { REPO_ROOT } from '../support/paths.js';
import { watchCalls } from './call-watch.js';
import { errorToasts, loginAs, useHarness } from './harness.js';

/**
 * A backend whose map leaves out the site configuration, the withdrawal count and whole screens
 * (Shiku IM through its shipped binding): the console knows it before it asks, so over a login and
 * several page loads it never makes one of those calls, and nothing shows in the console as failed.
 */
const MAP_FILE = path.join(REPO_ROOT, 'server/backend-map/bindings/shiku-im.json');
const MAP = JSON.parse(readFileSync(MAP_FILE, 'utf8')) as BackendMapFile;

const h = useHarness({
  sandbox: { dialect: 'shiku', withdrawalTickMs: 0 },
  env: { BACKEND_MAP: MAP_FILE, SANDBOX_DIALECT: 'shiku' },
});

const rows = (page: Page) => page.locator('[data-testid="list-table"]:not([aria-busy]) tbody tr');

/**
 * The dashboard drawn with the store's figures. Its calls follow the session's answer and the
 * login's permission list, so by then the frame has made every call it makes by itself at a load.
 */
async function dashboardDrawn(page: Page): Promise<void> {
  await page.getByTestId('dashboard-page').waitFor();
  await expect.poll(() => page.getByTestId('kpi-userCount').locator('dd').textContent()).toMatch(/\d/);
  await page.getByTestId('daily-chart').locator('canvas').first().waitFor();
}

describe('calls the backend map marks unsupported', () => {
  it('the map this test relies on leaves them out', () => {
    const calls = MAP.console?.calls ?? {};
    expect(calls.siteConfig?.unsupported).toBe(true);
    expect(calls.withdrawalCount?.unsupported).toBe(true);
    expect(MAP.unnamed).toBe('unsupported');
  });

  it('are never made over a login and several page loads, and no console error shows', async () => {
    const { page } = await h.newPage();
    const watch = watchCalls(page);
    await loginAs(page, 'admin');
    await dashboardDrawn(page);

    // Loads of the whole page: the shell starts afresh each time, with the session it has.
    await page.reload();
    await dashboardDrawn(page);
    await page.goto('/userpage/userset');
    await rows(page).first().waitFor();
    // The withdrawal review: the screen is offered, the badge's count and its stream are not.
    await page.goto('/WithDrawMoneyCheck');
    await rows(page).first().waitFor();
    expect(await page.getByTestId('withdrawal-badge').count()).toBe(0);
    // A screen the map leaves out says so at its address, without asking for it.
    await page.goto('/finance/OnlineRecharge');
    await page.getByTestId('not-offered').waitFor();
    await page.goto('/dashboard');
    await dashboardDrawn(page);

    expect(watch.asked).toContain(`GET ${GATEWAY_PATHS.backendOffer}`);
    expect(watch.asked).toContain(`GET ${CALLS.count}`);
    expect(watch.asked.filter((call) => call.endsWith(CALLS.siteConfig))).toEqual([]);
    expect(watch.asked.filter((call) => call.endsWith(GATEWAY_PATHS.events))).toEqual([]);
    expect(await watch.refused()).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
    expect(await errorToasts(page)).toEqual([]);
  }, 120_000);
});
