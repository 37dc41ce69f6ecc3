import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

/*
 * The column chooser and saved views of a list: a choice kept per browser and in the URL, and a
 * view (filters, sort, columns) that a link restores in a browser that never saw it.
 */
const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });
const USERS = '/userpage/userset';

/** The columns of the table's first row, in order. */
const tableColumns = (page: Page) =>
  page
    .locator('[data-testid="list-table"] tbody tr')
    .first()
    .locator('td[data-col]')
    .evaluateAll((tds) => tds.map((td) => td.getAttribute('data-col')));

async function openChooser(page: Page) {
  const panel = page.getByTestId('column-chooser');
  if (!(await panel.isVisible())) await page.getByTestId('columns-button').click();
  await panel.waitFor();
  return panel;
}

async function openViews(page: Page) {
  const panel = page.getByTestId('saved-views');
  if (!(await panel.isVisible())) await page.getByTestId('views-button').click();
  await panel.waitFor();
  return panel;
}

describe('list columns and saved views', () => {
  it('hides a column for good, reorders by keyboard and goes back to the default', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    await page.goto(USERS);
    await page.locator('[data-testid="list-table"] tbody tr').first().waitFor();
    const initial = await tableColumns(page);
    expect(initial).toContain('phone');

    // By keyboard: Enter opens the chooser, Tab walks into it and Space hides the first column.
    await page.getByTestId('columns-button').focus();
    await page.keyboard.press('Enter');
    const chooser = page.getByTestId('column-chooser');
    await chooser.waitFor();
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(() => document.activeElement?.closest('[data-column]')?.getAttribute('data-column')),
    ).toBe(initial[0]);
    await page.keyboard.press('Space');
    await expect.poll(() => tableColumns(page)).toEqual(initial.slice(1));
    await page.keyboard.press('Space');
    await expect.poll(() => tableColumns(page)).toEqual(initial);
    await page.keyboard.press('Escape');
    await chooser.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('columns-button');

    // A selection survives a change of columns: no row changed.
    await page.locator('[data-testid="list-table"] tbody tr').first().locator('input[type="checkbox"]').check();
    await expect.poll(() => page.getByTestId('selection-count').textContent()).toBe('1 selected');
    await (await openChooser(page)).locator('[data-column="phone"] input[type="checkbox"]').uncheck();
    await expect.poll(() => tableColumns(page)).toEqual(initial.filter((k) => k !== 'phone'));
    await page.waitForURL((u) => u.searchParams.get('cols') === initial.filter((k) => k !== 'phone').join(','));
    expect(await page.getByTestId('selection-count').textContent()).toBe('1 selected');
    await page.getByRole('button', { name: 'Clear selection' }).click();
    expect(await page.locator('thead').textContent()).not.toContain('Phone');

    // Kept by the browser: a reload, and the plain address from the menu, still leave it out.
    await page.reload();
    await expect.poll(() => tableColumns(page)).toEqual(initial.filter((k) => k !== 'phone'));
    await page.goto(USERS);
    await expect.poll(() => tableColumns(page)).toEqual(initial.filter((k) => k !== 'phone'));

    // Balance one place up, by keyboard alone.
    await openChooser(page);
    await page.getByRole('button', { name: 'Move Balance up' }).focus();
    await page.keyboard.press('Enter');
    const expected = initial.filter((k) => k !== 'phone');
    const b = expected.indexOf('balance');
    [expected[b - 1], expected[b]] = [expected[b]!, expected[b - 1]!];
    await expect.poll(() => tableColumns(page)).toEqual(expected);
    const headers = await page.locator('[data-testid="list-table"] thead th[scope="col"]').allTextContents();
    expect(headers.findIndex((x) => x.startsWith('Balance'))).toBeLessThan(
      headers.findIndex((x) => x.startsWith('Privileged')),
    );
    // Focus stays on the moved column's button, so it can be moved again.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-key'))).toBe('balance');

    // The last visible column cannot be hidden.
    for (const key of expected.slice(1))
      await (await openChooser(page)).locator(`[data-column="${key}"] input`).uncheck();
    await expect.poll(() => tableColumns(page)).toEqual([expected[0]]);
    expect(await (await openChooser(page)).locator(`[data-column="${expected[0]}"] input`).isDisabled()).toBe(true);

    await page.getByTestId('columns-reset').click();
    await expect.poll(() => tableColumns(page)).toEqual(initial);
    await page.waitForURL((u) => !u.searchParams.has('cols'));
    await page.reload();
    await expect.poll(() => tableColumns(page)).toEqual(initial);
  }, 90_000);

  it('saves a view, applies it, copies its link, deletes it with undo, and restores it from the link in a new browser', async () => {
    const { page, context } = await h.pageAs('admin', { width: 1440, height: 900 });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.url });
    await page.goto(`${USERS}?status=normal&sort=balance&pageSize=50`);
    await page.locator('[data-testid="list-table"] tbody tr').first().waitFor();
    await (await openChooser(page)).locator('[data-column="channel"] input').uncheck();
    await page.waitForURL((u) => u.searchParams.has('cols'));
    const viewColumns = await tableColumns(page);
    expect(viewColumns).not.toContain('channel');

    const views = await openViews(page);
    await views.getByTestId('view-name').fill('Normal by balance');
    await views.getByTestId('view-name').press('Enter');
    const link = views.locator('[data-view="Normal by balance"] a');
    await link.waitFor();
    expect(await link.getAttribute('aria-current')).toBe('true');
    const href = (await link.getAttribute('href'))!;
    const shared = new URL(href, h.url);
    expect(shared.pathname).toBe(USERS);
    expect(Object.fromEntries(shared.searchParams)).toEqual({
      status: 'normal',
      sort: 'balance',
      pageSize: '50',
      cols: viewColumns.join(','),
    });

    // Elsewhere: the default view with every column, then the saved one applied.
    await page.goto(USERS);
    await page.locator('[data-testid="list-table"] tbody tr').first().waitFor();
    await page.getByTestId('columns-button').click();
    await page.getByTestId('columns-reset').click();
    await expect.poll(() => tableColumns(page)).toContain('channel');
    await (await openViews(page)).locator('[data-view="Normal by balance"] a').click();
    await page.waitForURL((u) => u.searchParams.get('status') === 'normal' && u.searchParams.get('sort') === 'balance');
    await expect.poll(() => tableColumns(page)).toEqual(viewColumns);
    expect(await page.locator('[data-filter="status"]').inputValue()).toBe('normal');
    expect(await page.locator('th[aria-sort="ascending"]').textContent()).toContain('Balance');
    await expect
      .poll(() => page.locator('[data-testid="list-table"] tbody td[data-col="status"]').allTextContents())
      .not.toContain('Banned');

    await (await openViews(page)).getByRole('button', { name: 'Copy the link of “Normal by balance”' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(shared.href);
    await page.keyboard.press('Escape');

    // Deleting offers an undo; the view survives a reload only when undone.
    const panel = await openViews(page);
    await panel.getByRole('button', { name: 'Delete view “Normal by balance”' }).click();
    await panel.locator('[data-view]').first().waitFor({ state: 'detached' });
    await panel.getByRole('button', { name: 'Undo' }).click();
    await panel.locator('[data-view="Normal by balance"]').waitFor();
    await page.reload();
    await (await openViews(page)).locator('[data-view="Normal by balance"]').waitFor();
    await page.getByRole('button', { name: 'Delete view “Normal by balance”' }).click();
    // Gone from the menu once the gateway has deleted it.
    await page.locator('[data-view="Normal by balance"]').waitFor({ state: 'detached' });
    await page.reload();
    await (await openViews(page)).getByText('No saved views yet').waitFor();
    // A browser that never saw the view opens its link and shows the same (signing in there ends
    // this page's session, so it comes last).
    const other = await h.pageAs('admin', { width: 1440, height: 900 });
    await other.page.goto(href);
    await other.page.locator('[data-testid="list-table"] tbody tr').first().waitFor();
    await expect.poll(() => tableColumns(other.page)).toEqual(viewColumns);
    expect(await other.page.locator('[data-filter="status"]').inputValue()).toBe('normal');
    expect(await other.page.locator('th[aria-sort="ascending"]').textContent()).toContain('Balance');
    expect(await other.page.getByRole('combobox', { name: 'Rows per page' }).inputValue()).toBe('50');
  }, 120_000);

  it('keeps the controls in reach at 390 px, cards follow the chosen columns, nothing scrolls sideways', async () => {
    const { page } = await h.pageAs('admin', { width: 390, height: 844 });
    await page.goto(USERS);
    const card = page.getByTestId('list-card').first();
    await card.waitFor();
    expect(await card.locator('[data-col="phone"]').count()).toBe(1);
    for (const id of ['columns-button', 'views-button']) {
      const box = (await page.getByTestId(id).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    const chooser = await openChooser(page);
    const panelBox = (await chooser.boundingBox())!;
    expect(panelBox.x).toBeGreaterThanOrEqual(0);
    expect(panelBox.x + panelBox.width).toBeLessThanOrEqual(390);
    await chooser.locator('[data-column="phone"] input').uncheck();
    await chooser.locator('[data-column="account"] input').uncheck();
    await expect.poll(() => card.locator('[data-col="phone"]').count()).toBe(0);
    // The card keeps its heading, the record's name, even with that column hidden.
    expect((await card.locator('[data-main-field]').textContent())?.trim()).toBeTruthy();
    await page.keyboard.press('Escape');
    const views = await openViews(page);
    const viewsBox = (await views.boundingBox())!;
    expect(viewsBox.x + viewsBox.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
      0,
    );
  }, 90_000);
});
