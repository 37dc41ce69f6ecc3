import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe.js';
import { useHarness } from './harness.js';

/*
 * The header search finds records beside the pages, in Chromium at 1440 and 390 px: a user by
 * phone, id or name, a group, a withdrawal; Ctrl+K opens it; the keyboard alone reaches a record;
 * and an administrator never searches a list they may not open.
 */
const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });
const store = () => h.sandbox.app.sandbox;

const LAPTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

const input = (page: Page) => page.getByTestId('header-search-input');
const results = (page: Page) => page.getByTestId('header-search-results');
const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));

/** Opens the search with Ctrl+K and types `text` key by key; resolves once every group has answered for it. */
async function search(page: Page, text: string): Promise<void> {
  await page.keyboard.press('Control+k');
  await expect.poll(() => focusedTestId(page)).toBe('header-search-input');
  await page.keyboard.type(text);
  await page.locator(`[data-testid="header-search-results"][data-settled="${text}"]`).waitFor();
}

const records = (page: Page, group: string) =>
  results(page).locator(`[data-search-group="${group}"] [data-search-kind="record"]`);

describe('header search at 1440 px', () => {
  it('finds a user by phone, by id and by account name, each opening the user’s page', async () => {
    const user = store()
      .users.all()
      .find((u) => typeof u.phone === 'string' && u.phone.length > 8)!;
    const { page } = await h.pageAs('admin', LAPTOP);
    for (const text of [user.phone, String(user.id), user.account]) {
      await search(page, text);
      // The record typed in full comes first in its group.
      await expect
        .poll(() => records(page, 'users').first().getAttribute('data-search-path'))
        .toBe(`/userpage/userset/${user.id}`);
      await records(page, 'users').first().click();
      await page.waitForURL((u) => u.pathname === `/userpage/userset/${user.id}`);
      await expect.poll(() => page.getByTestId('record-title').textContent()).toBe(user.account);
    }
  }, 90_000);

  it('groups pages and records by kind, and opens a group and a withdrawal', async () => {
    const group = store().groups.all()[5]!;
    const withdrawal = store().withdrawals.all()[3]!;
    const { page } = await h.pageAs('admin', LAPTOP);

    await search(page, group.name);
    await results(page).locator(`[data-search-path="/groupset/${group.id}"]`).click();
    await page.waitForURL((u) => u.pathname === `/groupset/${group.id}`);

    await search(page, String(withdrawal.id));
    await results(page).locator(`[data-search-path="/WithDrawMoneyCheck/${withdrawal.id}"]`).click();
    await page.waitForURL((u) => u.pathname === `/WithDrawMoneyCheck/${withdrawal.id}`);

    // Letters in screens' titles and users' names alike: pages first, then the users, each under its heading.
    await search(page, 'li');
    const groups = await results(page)
      .locator('[data-search-group]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-search-group')));
    expect(groups[0]).toBe('pages');
    expect(groups).toContain('users');
    expect(await results(page).locator('[data-search-group="pages"]').getAttribute('aria-label')).toBe('Pages');
    expect(await results(page).locator('[data-search-group="users"]').getAttribute('aria-label')).toBe('Users');

    // Axe finds nothing serious in these open results, an option highlighted.
    await page.keyboard.press('ArrowDown');
    await results(page).locator('[data-search-path][data-focus]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  }, 90_000);

  it('is reached, walked and left with the keyboard alone', async () => {
    const user = store().users.all()[7]!;
    const { page } = await h.pageAs('admin', LAPTOP);
    await search(page, user.account);
    // Down to the user among the results, Enter opens it.
    const target = `/userpage/userset/${user.id}`;
    for (let i = 0; i < 20; i++) {
      const active = await results(page).locator('[data-search-path][data-focus]').getAttribute('data-search-path');
      if (active === target) break;
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === target);

    // Ctrl+K again, Escape on the empty field closes the search and gives the focus to its button.
    await page.keyboard.press('Control+k');
    await expect.poll(() => focusedTestId(page)).toBe('header-search-input');
    await page.keyboard.press('Escape');
    await expect.poll(() => focusedTestId(page)).toBe('header-search-toggle');
    expect(await input(page).count()).toBe(0);
  }, 90_000);

  it('says when nothing matches, and searches no list the administrator may not open', async () => {
    const withdrawal = store().withdrawals.all()[0]!;
    const { page } = await h.pageAs('operator', LAPTOP);
    await search(page, 'zzqqxxnothing');
    expect(await results(page).textContent()).toBe('No matches');

    await page.keyboard.press('Control+a');
    await page.keyboard.type(withdrawal.userAccount);
    await page.locator(`[data-settled="${withdrawal.userAccount}"]`).waitFor();
    expect(await results(page).locator('[data-search-group="withdrawalReview"]').count()).toBe(0);
    expect(await results(page).locator('[data-search-path^="/WithDrawMoneyCheck"]').count()).toBe(0);
  }, 90_000);
});

describe('header search at 390 px', () => {
  it('covers the header, lists the results under it and opens a user found by phone', async () => {
    const user = store()
      .users.all()
      .find((u) => typeof u.phone === 'string' && u.phone.length > 8 && u.id % 3 === 0)!;
    const { page } = await h.pageAs('admin', PHONE);
    await search(page, user.phone);
    const box = (await results(page).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await records(page, 'users').first().click();
    await page.waitForURL((u) => u.pathname === `/userpage/userset/${user.id}`);
    await expect.poll(() => page.getByTestId('record-title').textContent()).toBe(user.account);
    // The search is closed again: the header shows its buttons.
    expect(await input(page).count()).toBe(0);
    await page.getByTestId('header-search-toggle').click();
    await page.getByTestId('header-search-close').click();
    expect(await input(page).count()).toBe(0);
  }, 90_000);
});
