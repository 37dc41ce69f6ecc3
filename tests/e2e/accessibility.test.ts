import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LEAF_ROUTES } from '../../web/app/routes.js';
import { seriousViolations } from '../support/axe.js';
import { storePreference, useHarness } from './harness.js';
import { SCREEN_READY } from './screen-walk.js';

const h = useHarness();

/** The pages outside the screen engine, and what each shows once its data is in, so axe judges the page and not its skeleton. */
const PAGE_READY: Record<string, string> = {
  '/dashboard': '[data-testid="daily-chart"] canvas',
  '/deployconfig/monitor': '[data-testid="service-table"]',
  '/deployconfig/switch': '[data-testid="runner-config-form"]',
  '/deployconfig/migration': '[data-testid="migration-form"]',
  '/error/401': '[data-testid="error-401"]',
  '/error/404': '[data-testid="error-404"]',
  '/error-log/log': 'main h1',
  '/system/audit': '[data-testid="audit-table"]',
};

async function screenViolations(page: Page, path: string, ready: string): Promise<string[]> {
  await page.goto(path);
  await page.locator(ready).first().waitFor({ timeout: 15_000 });
  return (await seriousViolations(page)).map((f) => `${path}: ${f.rule} on ${f.target} ${f.detail}`);
}

// Every screen, in both colour schemes: no serious or critical axe violation (contrast, names,
// roles, labels). The login page is checked before logging in.
describe.each(['light', 'dark'])('every screen in the %s scheme', (scheme) => {
  it('has no serious or critical accessibility violation', async () => {
    const { page } = await h.newPage();
    await page.goto('/login');
    await storePreference(page, 'colorScheme', scheme);
    await page.reload();
    const found = await screenViolations(page, '/login', 'form');
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');

    await page.getByLabel('Account').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('admin123');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByTestId('layout').waitFor();
    for (const route of LEAF_ROUTES) {
      const ready = route.screen ? SCREEN_READY[route.screen.kind] : PAGE_READY[route.path];
      if (!ready) throw new Error(`no ready marker for ${route.path}`);
      found.push(...(await screenViolations(page, route.path, ready)));
    }
    expect(found).toEqual([]);
  }, 300_000);
});
