import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe.js';
import { docsScreenshot, openInApp, useHarness } from './harness.js';

const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });

const bar = (page: Page) => page.getByTestId('tags-view');
const tabs = (page: Page) =>
  bar(page)
    .locator('li[data-tag-path]')
    .evaluateAll((items) => items.map((li) => li.getAttribute('data-tag-path')));
const activeTab = (page: Page) => bar(page).locator('li[data-active]').getAttribute('data-tag-path');
const tabLink = (page: Page, path: string) => bar(page).locator(`li[data-tag-path="${path}"] a`);
const here = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};
/** A list screen's rows are drawn: the screen is done, not on its way. */
const rowsDrawn = (page: Page) => page.locator('[data-testid="list-table"] tbody tr[data-row-id]').first().waitFor();

/** The tab bar is off by default: an administrator turns it on in the page settings. */
async function turnOn(page: Page): Promise<void> {
  await page.getByTestId('settings-toggle').click();
  const toggle = page.getByTestId('setting-tags-view');
  await toggle.click();
  expect(await toggle.getAttribute('aria-checked')).toBe('true');
  await page.keyboard.press('Escape');
  await page.getByTestId('settings-drawer').waitFor({ state: 'detached' });
  await bar(page).waitFor();
}

describe('tab bar (tagsView)', () => {
  it('keeps a tab per page opened, each going back to where it was left; closes by button, menu and keyboard', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    expect(await bar(page).count()).toBe(0);
    await turnOn(page);
    // The dashboard is fixed: first, current, and without a close button.
    expect(await tabs(page)).toEqual(['/dashboard']);
    expect(await activeTab(page)).toBe('/dashboard');
    // A control scrolled into view by the keyboard stops below the (sticky) header, now taller by the bar.
    const room = await page.evaluate(() => ({
      padding: parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop),
      header: document.querySelector('[data-testid="header"]')!.getBoundingClientRect().height,
    }));
    expect(room.padding).toBeGreaterThanOrEqual(room.header);
    expect(await bar(page).locator('li[data-tag-path="/dashboard"] [data-tag-close]').count()).toBe(0);

    // Pages opened from the menu get their tabs, in order.
    await page.getByTestId('menu').getByRole('button', { name: 'Users', exact: true }).click();
    await page.locator('aside a[href="/userpage/userset"]').click();
    await rowsDrawn(page);
    await page.locator('[data-testid="list-screen"] [data-page-step="next"]').click();
    await page.waitForURL((u) => u.searchParams.get('pageNum') === '2');
    await page.locator('aside a[href="/groupset"]').click();
    await page.waitForURL((u) => u.pathname === '/groupset');
    await rowsDrawn(page);
    await expect.poll(() => tabs(page)).toEqual(['/dashboard', '/userpage/userset', '/groupset']);
    expect(await activeTab(page)).toBe('/groupset');
    expect(await tabLink(page, '/groupset').getAttribute('aria-current')).toBe('page');

    // The users tab goes back to the list's second page, not its first.
    await tabLink(page, '/userpage/userset').click();
    await page.waitForURL((u) => u.pathname === '/userpage/userset' && u.searchParams.get('pageNum') === '2');
    await rowsDrawn(page);

    // A record's tab is named after the record once its page has read it.
    const user = h.sandbox.app.sandbox.users.all()[0]!;
    const recordPath = `/userpage/userset/${user.id}`;
    await openInApp(page, recordPath);
    await page.waitForURL((u) => u.pathname === recordPath);
    await expect
      .poll(() => bar(page).locator(`li[data-tag-path="${recordPath}"]`).innerText())
      .toBe(`User management · ${user.account}`);

    // The tab bar passes the accessibility checks, at the page's top.
    expect(await seriousViolations(page)).toEqual([]);
    await docsScreenshot(page, 'tags-view-1440.png');

    // Closing a tab that is not current leaves the page where it is.
    await bar(page).locator('li[data-tag-path="/groupset"] [data-tag-close]').click();
    await expect.poll(() => tabs(page)).toEqual(['/dashboard', '/userpage/userset', recordPath]);
    expect(new URL(page.url()).pathname).toBe(recordPath);

    // Closing the current tab opens its neighbour (the one on its left, being last), and the
    // focus stays in the bar.
    await bar(page).locator(`li[data-tag-path="${recordPath}"] [data-tag-close]`).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/userpage/userset' && u.searchParams.get('pageNum') === '2');
    await expect.poll(() => tabs(page)).toEqual(['/dashboard', '/userpage/userset']);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('li')?.getAttribute('data-tag-path')))
      .toBe('/userpage/userset');

    // The context menu from the keyboard (Shift+F10 on a tab): Refresh asks the list again and
    // comes back to the same address.
    await rowsDrawn(page);
    const before = here(page);
    const listCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/manage/user/userProfile/list')) listCalls.push(r.url());
    });
    await tabLink(page, '/userpage/userset').focus();
    await page.keyboard.press('Shift+F10');
    const menu = page.getByTestId('tags-menu');
    await menu.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-tag-action'))).toBe('refresh');
    await page.keyboard.press('Enter');
    await expect.poll(() => listCalls.length).toBeGreaterThan(0);
    await page.waitForURL((u) => u.pathname + u.search === before);
    await rowsDrawn(page);

    // Escape closes the menu and gives the focus back to its tab.
    await tabLink(page, '/userpage/userset').click({ button: 'right' });
    await menu.waitFor();
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.closest('li')?.getAttribute('data-tag-path'))).toBe(
      '/userpage/userset',
    );

    // Close others, on another tab than the current one, opens that tab.
    await page.locator('aside a[href="/groupset"]').click();
    await page.waitForURL((u) => u.pathname === '/groupset');
    await expect.poll(() => tabs(page)).toEqual(['/dashboard', '/userpage/userset', '/groupset']);
    await tabLink(page, '/userpage/userset').click({ button: 'right' });
    await menu.locator('[data-tag-action="close-others"]').click();
    await page.waitForURL((u) => u.pathname === '/userpage/userset');
    await expect.poll(() => tabs(page)).toEqual(['/dashboard', '/userpage/userset']);

    // The tabs outlive a reload of the browser tab; Close all goes home, the fixed tab staying.
    await page.reload();
    await bar(page).waitFor();
    await expect.poll(() => tabs(page)).toEqual(['/dashboard', '/userpage/userset']);
    await tabLink(page, '/userpage/userset').focus();
    await page.keyboard.press('Shift+F10');
    await menu.waitFor();
    await page.keyboard.press('End');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-tag-action'))).toBe('close-all');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === '/dashboard');
    await expect.poll(() => tabs(page)).toEqual(['/dashboard']);
    // The keyboard's place is kept: on the tab that is left.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('li')?.getAttribute('data-tag-path')))
      .toBe('/dashboard');
    // The fixed tab's menu offers no Close.
    await tabLink(page, '/dashboard').click({ button: 'right' });
    await menu.waitFor();
    expect(
      await menu.locator('[data-tag-action]').evaluateAll((b) => b.map((x) => x.getAttribute('data-tag-action'))),
    ).toEqual(['refresh', 'close-others', 'close-all']);
    await page.keyboard.press('Escape');

    // An error page's tab is not kept once another page opens.
    await openInApp(page, '/error/404');
    await expect.poll(() => tabs(page)).toEqual(['/dashboard', '/error/404']);
    await page.locator('aside a[href="/groupset"]').click();
    await expect.poll(() => tabs(page)).toEqual(['/dashboard', '/groupset']);
    expect(h.pageErrors).toEqual([]);
  }, 120_000);

  it('with the header not fixed, still scrolls the bar to the current tab', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    await turnOn(page);
    // The header then is not the tabs' positioned ancestor: the sidebar's width must not count.
    await page.getByTestId('settings-toggle').click();
    await page.getByTestId('setting-fixed-header').click();
    await page.keyboard.press('Escape');
    await page.getByTestId('settings-drawer').waitFor({ state: 'detached' });
    const opened = ['/userpage/userset', '/groupset', '/system/record', '/system/admins', '/sensitivewords'];
    opened.push('/invitationcode', '/BlackList', '/onlineuser', '/loginuser', '/WithDrawMoneyCheck', '/BillingRecords');
    for (const to of [...opened, '/userpage/userset']) {
      await openInApp(page, to);
      await page.waitForURL((u) => u.pathname === to);
      await expect.poll(() => activeTab(page)).toBe(to);
    }
    const shown = await page.evaluate(() => {
      const list = document.querySelector('[data-testid="tags-view"] ul')!;
      const a = list.querySelector('li[data-active]')!.getBoundingClientRect();
      const l = list.getBoundingClientRect();
      return {
        activeInView: a.left >= l.left - 1 && a.right <= l.right + 1,
        listScrolls: list.scrollWidth > list.clientWidth,
      };
    });
    expect(shown).toEqual({ activeInView: true, listScrolls: true });
  }, 90_000);

  it('on a phone, scrolls sideways within itself to the current tab, never the page', async () => {
    const { page } = await h.pageAs('admin', { width: 390, height: 844 });
    await turnOn(page);
    for (const to of ['/userpage/userset', '/groupset', '/system/record', '/userpage/userset?pageNum=2']) {
      await openInApp(page, to);
      await page.waitForURL((u) => u.pathname + u.search === to);
    }
    await expect.poll(() => tabs(page)).toEqual(['/dashboard', '/userpage/userset', '/groupset', '/system/record']);
    const boxes = await page.evaluate(() => {
      const list = document.querySelector('[data-testid="tags-view"] ul')!;
      const active = list.querySelector('li[data-active]')!;
      const a = active.getBoundingClientRect();
      const l = list.getBoundingClientRect();
      return {
        activeInView: a.left >= l.left - 1 && a.right <= l.right + 1,
        listScrolls: list.scrollWidth > list.clientWidth,
        pageWidth: document.documentElement.scrollWidth,
      };
    });
    expect(boxes).toEqual({ activeInView: true, listScrolls: true, pageWidth: 390 });
    // The phone's list draws cards: the screenshot waits for them.
    await page.locator('[data-testid="list-screen"] [data-row-id]').first().waitFor();
    await docsScreenshot(page, 'tags-view-390.png');
  }, 90_000);
});
