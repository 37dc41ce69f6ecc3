import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LEAF_ROUTES } from '../../web/app/routes.js';
import { errorToasts, useHarness } from './harness.js';

/*
 * Every list screen on a phone held upright (390 px): cards instead of a table, nothing wider
 * than the screen, the record's main field in view, and the dialogs' buttons within reach.
 */
const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });
const WIDTH = 390;
const HEIGHT = 844;

const LISTS = LEAF_ROUTES.filter((r) => r.screen?.kind === 'list');

/** How far the page reaches past the right edge of the window (0: no sideways scroll). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Whether the element lies wholly inside the window. */
async function inView(page: Page, selector: ReturnType<Page['locator']>): Promise<boolean> {
  const box = await selector.boundingBox();
  return !!box && box.x >= 0 && box.y >= 0 && box.x + box.width <= WIDTH + 0.5 && box.y + box.height <= HEIGHT + 0.5;
}

describe('list screens at 390 px', () => {
  it('leave out what a phone cannot use: the j/k keys hint and the full-screen button, both shown at 1440 px', async () => {
    const { page } = await h.pageAs('admin', { width: WIDTH, height: HEIGHT });
    await page.goto('/WithDrawMoneyCheck?state=pending');
    await page.getByTestId('list-card').first().waitFor();
    expect(await page.getByTestId('list-keys-hint').isVisible()).toBe(false);
    expect(await page.getByTestId('fullscreen-toggle').isVisible()).toBe(false);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByTestId('list-keys-hint').waitFor({ state: 'visible' });
    await page.getByTestId('fullscreen-toggle').waitFor({ state: 'visible' });
  });

  it('draw cards with the main field in view and never scroll sideways', async () => {
    const { page } = await h.pageAs('admin', { width: WIDTH, height: HEIGHT });
    const problems: string[] = [];
    expect(LISTS.length).toBeGreaterThan(15);
    for (const { path } of LISTS) {
      await page.goto(path);
      const card = page.getByTestId('list-card').first();
      try {
        await card.waitFor({ timeout: 10_000 });
      } catch {
        problems.push(`${path}: no card (${(await errorToasts(page)).join('; ')})`);
        continue;
      }
      if ((await page.getByTestId('list-table').count()) > 0) problems.push(`${path}: a table beside the cards`);
      const sideways = await overflow(page);
      if (sideways > 0) problems.push(`${path}: ${sideways} px sideways`);
      const main = card.locator('[data-main-field]');
      if (!(await main.textContent())?.trim()) problems.push(`${path}: empty main field`);
      if (!(await inView(page, main))) problems.push(`${path}: main field out of view`);
    }
    expect(problems).toEqual([]);
  }, 240_000);

  it('leaves the breadcrumb out of the narrow header and names the page in its heading', async () => {
    const { page } = await h.pageAs('admin', { width: WIDTH, height: HEIGHT });
    await page.goto('/userpage/userset');
    await page.getByTestId('list-card').first().waitFor();
    expect(await page.getByTestId('breadcrumb').isVisible()).toBe(false);
    const heading = page.getByRole('heading', { level: 1 });
    expect(await heading.textContent()).toBe('User management');
    expect(await heading.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  });

  it('offers a row’s commands behind "⋯", and the create dialog’s Save and the record’s page fit', async () => {
    const { page } = await h.pageAs('admin', { width: WIDTH, height: HEIGHT });
    await page.goto('/userpage/userset');
    const card = page.getByTestId('list-card').first();
    await card.waitFor();
    const account = (await card.locator('[data-main-field]').textContent())!;
    await card.getByRole('button', { name: `More actions for ${account}` }).click();
    const menu = page.getByTestId('row-menu');
    await menu.waitFor();
    for (const name of ['Details', 'Edit', 'Reset password']) {
      const item = menu.getByRole('menuitem', { name });
      expect(await inView(page, item), name).toBe(true);
    }
    await menu.getByRole('menuitem', { name: 'Details' }).click();
    const record = page.getByTestId('record-page');
    await page.getByTestId('record-fields').waitFor();
    const box = (await record.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(WIDTH + 0.5);
    expect(await inView(page, page.getByTestId('record-back'))).toBe(true);
    expect(await overflow(page)).toBe(0);

    // The longest create form: its buttons stay in view below a scrolling body.
    await page.goto('/versionupdate/appupdate');
    await page.getByTestId('list-create').click();
    const form = page.getByTestId('form-dialog');
    await form.waitFor();
    expect(await inView(page, form.getByRole('button', { name: 'Save' }))).toBe(true);
    expect(await inView(page, form.getByRole('button', { name: 'Cancel' }))).toBe(true);
    expect(await overflow(page)).toBe(0);
  }, 90_000);

  it('sorts by the phone’s select and keeps it in the URL', async () => {
    const { page } = await h.pageAs('admin', { width: WIDTH, height: HEIGHT });
    await page.goto('/userpage/userset');
    await page.getByTestId('list-card').first().waitFor();
    await page.getByTestId('card-sort').selectOption('balance');
    await page.waitForURL((u) => u.searchParams.get('sort') === 'balance');
    // The cards of the new order, once drawn: ascending balances.
    const balances = async () =>
      (await page.locator('[data-testid="list-cards"]:not([aria-busy]) [data-col="balance"]').allTextContents()).map(
        (b) => Number(b.replaceAll(',', '')),
      );
    await expect
      .poll(async () => {
        const values = await balances();
        return values.length > 1 && values.every((v, k) => k === 0 || values[k - 1]! <= v);
      })
      .toBe(true);
    expect(await page.locator('[data-testid="list-cards"]').getAttribute('aria-busy')).toBeNull();
  }, 90_000);
});
