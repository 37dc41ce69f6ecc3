import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CALLS } from '../../server/contract/index.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { errorToasts, useHarness } from './harness.js';

/**
 * A backend without the dashboard's finance figure and without the deployment calls, as its map's
 * `console` section says: the console shows the rest of the dashboard, no deployment group, a
 * clear page at a deployment URL, and never asks for what the backend lacks.
 */
const MAP: BackendMapFile = {
  console: {
    calls: {
      financeData: { unsupported: true },
      monitoring: { unsupported: true },
      runner: { unsupported: true },
      importDatabase: { unsupported: true },
    },
  },
};
const mapFile = path.join(mkdtempSync(path.join(tmpdir(), 'e2e-console-map-')), 'map.json');
writeFileSync(mapFile, JSON.stringify(MAP));

const h = useHarness({ env: { BACKEND_MAP: mapFile } });

describe('a map marking the finance figure and the deployment screens unsupported', () => {
  it('shows a console without them and without errors', async () => {
    const { page } = await h.pageAs('admin');
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    // From the start, so every call the dashboard makes is seen.
    await page.reload();
    await page.getByTestId('dashboard-page').waitFor();
    await expect.poll(() => page.getByTestId('kpi-userCount').locator('dd').textContent()).toMatch(/\d/);
    await page.getByTestId('daily-chart').locator('canvas').first().waitFor();
    expect(await page.getByTestId('finance-panel').count()).toBe(0);

    const menuLinks = await page.locator('nav a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(menuLinks.filter((href) => href?.startsWith('/deployconfig'))).toEqual([]);
    expect(menuLinks).toContain('/userpage/userset');

    await page.goto('/deployconfig/switch');
    await page.getByTestId('not-offered').waitFor();
    expect(await page.getByTestId('switch-page').count()).toBe(0);

    expect(asked.filter((p) => p === CALLS.financeData || p.startsWith('/manage/deployment'))).toEqual([]);
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);
});
