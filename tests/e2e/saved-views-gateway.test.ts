import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { docsScreenshot, useHarness } from './harness.js';

/*
 * Saved views kept per administrator at the gateway: one saved in one browser is there in a fresh
 * browser after logging in again; another administrator does not see it; views a browser kept in
 * its own storage before are uploaded once, the first time the gateway has none.
 */
const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });
const USERS = '/userpage/userset';
const GROUPS = '/groupset';

async function openViews(page: Page, path: string) {
  await page.goto(path);
  await page.locator('[data-testid="list-table"] tbody tr').first().waitFor();
  await page.getByTestId('views-button').click();
  const panel = page.getByTestId('saved-views');
  await panel.waitFor();
  // Read from the gateway: no longer loading.
  await panel.getByTestId('views-loading').waitFor({ state: 'detached' });
  return panel;
}

const viewNames = (panel: ReturnType<Page['getByTestId']>) =>
  panel.locator('[data-view]').evaluateAll((els) => els.map((e) => e.getAttribute('data-view')));

describe('saved views at the gateway', () => {
  it('finds a view saved in one browser in a fresh browser after logging in again, and not as another administrator', async () => {
    const first = await h.pageAs('admin', { width: 1440, height: 900 });
    const panel = await openViews(first.page, `${USERS}?status=banned&sort=-balance`);
    await panel.getByTestId('view-name').fill('Banned, richest first');
    await panel.getByTestId('view-save').click();
    await panel.locator('[data-view="Banned, richest first"]').waitFor();
    await docsScreenshot(first.page, 'saved-views-1440.png');
    // Nothing of it is kept in the browser.
    expect(
      await first.page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('console.views.'))),
    ).toEqual([]);

    // The operator may open the users list too, and has no views of it.
    const operator = await h.pageAs('operator', { width: 1440, height: 900 });
    const theirs = await openViews(operator.page, USERS);
    await theirs.getByText('No saved views yet').waitFor();

    // A browser that never saw it, logged in afresh as the same administrator.
    const fresh = await h.pageAs('admin', { width: 1440, height: 900 });
    const again = await openViews(fresh.page, USERS);
    const link = again.locator('[data-view="Banned, richest first"] a');
    await link.waitFor();
    await link.click();
    await fresh.page.waitForURL(
      (u) => u.searchParams.get('status') === 'banned' && u.searchParams.get('sort') === '-balance',
    );
    expect(await fresh.page.locator('[data-filter="status"]').inputValue()).toBe('banned');
  }, 120_000);

  it('uploads the views this browser kept before, once, and keeps them at the gateway from then on', async () => {
    const seed = () => {
      // Once per tab: later documents of the tab find what the console made of it.
      if (sessionStorage.getItem('seeded')) return;
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem(
        'console.views.groups',
        JSON.stringify([
          { name: 'Big groups', query: 'sort=-memberCount' },
          { name: 'Newest', query: 'sort=-id' },
          { broken: true },
        ]),
      );
    };
    const { page } = await h.pageAs('admin', { width: 1440, height: 900, initScript: seed });
    const panel = await openViews(page, GROUPS);
    await expect.poll(() => viewNames(panel)).toEqual(['Big groups', 'Newest']);
    await page
      .locator('[data-toast]')
      .filter({ hasText: '2 views saved in this browser are now kept with your account' })
      .waitFor();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('console.views.groups'))).toBeNull();

    // Deleted at the gateway, a view stays deleted: the old copy is not uploaded again.
    await panel.getByRole('button', { name: 'Delete view “Newest”' }).click();
    await panel.locator('[data-view="Newest"]').waitFor({ state: 'detached' });
    await page.reload();
    const after = await openViews(page, GROUPS);
    await expect.poll(() => viewNames(after)).toEqual(['Big groups']);
  }, 120_000);
});
