import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useHarness } from './harness.js';

const h = useHarness();

/** What has focus, and whether it is drawn with a visible indicator (an outline or a ring). */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { none: true, testId: null, text: '', visible: false, top: 0, path: null };
    const style = getComputedStyle(el);
    const visible = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
    return {
      none: false,
      testId: el.getAttribute('data-testid'),
      text: (el.textContent ?? '').trim(),
      visible,
      top: el.getBoundingClientRect().top,
      path: el.getAttribute('data-menu-path'),
    };
  });
}

async function tabUntil(page: Page, wanted: (f: Awaited<ReturnType<typeof focused>>) => boolean, limit = 60) {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (wanted(now)) return now;
  }
  throw new Error('the wanted control was never reached with Tab');
}

describe('keyboard only', () => {
  it('reaches the menu with a visible focus ring and opens a screen with Enter', async () => {
    const { page } = await h.pageAs('admin');
    const entry = await tabUntil(page, (f) => f.path === '/userpage/userset' || f.text === 'Users');
    expect(entry.visible).toBe(true);
    await page.keyboard.press('Enter');
    const leaf = await tabUntil(page, (f) => f.path === '/userpage/userset');
    expect(leaf.visible).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/userpage/userset');
  });

  it('opens the settings drawer, closes it with Escape, and gives focus back to its button', async () => {
    const { page } = await h.pageAs('admin');
    const button = await tabUntil(page, (f) => f.testId === 'settings-toggle');
    expect(button.visible).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByTestId('settings-drawer').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('settings-drawer').waitFor({ state: 'detached' });
    expect((await focused(page)).testId).toBe('settings-toggle');
  });

  it('searches the screens from the header and goes to one with Enter', async () => {
    const { page } = await h.pageAs('admin');
    await tabUntil(page, (f) => f.testId === 'header-search-toggle');
    await page.keyboard.press('Enter');
    // Typed only once the opened field has focus: keys sent before would go nowhere.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('header-search-input');
    await page.keyboard.type('sensitive');
    // The list settles on the whole word before ArrowDown picks its first entry (a list still
    // showing the results of "se" would take another screen).
    await expect
      .poll(() => page.locator('[data-search-path]').first().getAttribute('data-search-path'))
      .toBe('/sensitivewords');
    await expect.poll(() => page.getByTestId('header-search-input').inputValue()).toBe('sensitive');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/sensitivewords');
  });

  it('walks a list and its create dialog: focus stays in the dialog, Escape closes it, focus returns', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/homelist');
    await page.locator('[data-testid="list-table"] tbody tr').first().waitFor();
    const create = await tabUntil(page, (f) => f.testId === 'list-create');
    expect(create.visible).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByTestId('form-dialog').waitFor();
    // Tabbing through the whole dialog never leaves it.
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="form-dialog"]'))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await page.getByTestId('form-dialog').waitFor({ state: 'detached' });
    expect((await focused(page)).testId).toBe('list-create');
  });

  it('opens a row\'s "⋯" menu with Enter, moves with the arrows, Home and End, and gives focus back on Escape', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/userpage/userset');
    const more = page.locator('[data-testid="list-table"] tbody tr').first().getByTestId('row-more');
    await more.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByTestId('row-menu');
    await menu.waitFor();
    expect(await more.getAttribute('aria-expanded')).toBe('true');
    const items = await menu.getByRole('menuitem').allTextContents();
    const current = () =>
      page.evaluate(() =>
        document.activeElement?.getAttribute('role') === 'menuitem' ? document.activeElement.textContent : null,
      );
    expect(await current()).toBe(items[0]);
    await page.keyboard.press('ArrowDown');
    expect(await current()).toBe(items[1]);
    await page.keyboard.press('End');
    expect(await current()).toBe(items[items.length - 1]);
    await page.keyboard.press('ArrowDown');
    expect(await current()).toBe(items[0]);
    await page.keyboard.press('ArrowUp');
    expect(await current()).toBe(items[items.length - 1]);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('row-more');
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    // ArrowUp on the button opens on the last item.
    await page.keyboard.press('ArrowUp');
    await menu.waitFor();
    expect(await current()).toBe(items[items.length - 1]);
    await page.keyboard.press('Tab');
    await menu.waitFor({ state: 'detached' });
  });

  it('keeps a focused control below the fixed header when tabbing back up a long page', async () => {
    const { page } = await h.pageAs('admin', { height: 600 });
    await page.goto('/homelist');
    await page.locator('[data-testid="list-table"] tbody tr').first().waitFor();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const header = await page.getByTestId('header').boundingBox();
    // Shift+Tab walks back up through the rows: every focused control shows below the header.
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('Shift+Tab');
      const f = await focused(page);
      if (f.none) continue;
      expect(f.top, `${f.text} sits under the header`).toBeGreaterThanOrEqual(header!.y + header!.height - 1);
    }
  });
});
