import { describe, expect, it } from 'vitest';
import { LEAF_ROUTES } from '../../web/app/routes.js';
import { errorToasts, useHarness } from './harness.js';
import { SCREEN_READY, screenProblems, sortUsersByBalanceAndTurnPage } from './screen-walk.js';

// This suite has never checked the pages' uncaught errors; the harness still collects them.
const h = useHarness();

describe('every engine screen as the full account', () => {
  it('shows rows, a chart or a filled form, with no error toast', async () => {
    const { page } = await h.pageAs('admin');
    const problems: string[] = [];
    for (const { path, screen: decl } of LEAF_ROUTES) {
      if (!decl) continue;
      problems.push(...(await screenProblems(page, path, decl)));
    }
    expect(problems).toEqual([]);
  }, 240_000);

  it('keeps paging and sorting in the URL across a reload', async () => {
    const { page } = await h.pageAs('admin');
    const settled = await sortUsersByBalanceAndTurnPage(page);
    const firstId = await settled.getAttribute('data-row-id');
    await page.reload();
    await settled.waitFor();
    expect(await settled.getAttribute('data-row-id')).toBe(firstId);
    expect(await page.locator('th[aria-sort="ascending"]').textContent()).toContain('Balance');
  }, 90_000);

  it('filters by keyword, debounced into the URL', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/sensitivewords');
    await page.locator('[data-testid="list-table"] tbody tr').first().waitFor();
    const word = (await page
      .locator('[data-testid="list-table"] tbody tr [data-col="word"]')
      .first()
      .textContent())!.trim();
    await page.getByTestId('list-keyword').fill(word);
    await expect.poll(() => new URL(page.url()).searchParams.get('keyword')).toBe(word);
    await expect
      .poll(async () =>
        (await page.locator('[data-testid="list-table"] tbody tr [data-col="word"]').allTextContents()).every((w) =>
          w.includes(word),
        ),
      )
      .toBe(true);
  }, 90_000);
});

describe('the limited operator account', () => {
  it('opens its own screens and is refused the others', async () => {
    const { page } = await h.pageAs('operator');
    await page.goto('/userpage/userset');
    await page.locator(SCREEN_READY.list).first().waitFor();
    expect(await errorToasts(page)).toEqual([]);
    for (const path of ['/siteconfig/function', '/WithDrawMoneyCheck', '/dataclean']) {
      await page.goto(path);
      await page.getByTestId('error-401').waitFor();
      expect(await page.locator('[data-screen]').count()).toBe(0);
    }
  }, 90_000);
});
