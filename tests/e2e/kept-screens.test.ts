/**
 * A list screen left for another stays mounted, out of the page: going back shows it as it was,
 * without building it again, and nothing of it can be found while another screen is shown.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openInApp, useHarness } from './harness.js';

const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });

const rowsOf = (page: Page, resource: string) =>
  page.locator(
    `[data-testid="list-screen"][data-resource="${resource}"] [data-testid="list-table"] tbody tr[data-row-id]`,
  );
const screensInPage = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('[data-testid="list-screen"]')].map((s) => s.getAttribute('data-resource')),
  );
/** A mark on the screen's own element: still there, the element was kept; gone, it was built again. */
const marked = (page: Page, resource: string) =>
  page.evaluate(
    (r) =>
      document.querySelector<HTMLElement>(`[data-testid="list-screen"][data-resource="${r}"]`)?.dataset.probe ?? null,
    resource,
  );
describe('list screens kept when left', () => {
  it('shows a list left for another as it was, with only the shown screen in the page', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    await openInApp(page, '/userpage/userset?pageNum=2');
    await rowsOf(page, 'users').first().waitFor();
    const firstId = await rowsOf(page, 'users').first().getAttribute('data-row-id');
    await page.getByLabel(`Select row ${firstId}`, { exact: true }).check();
    await page.evaluate(() => {
      document.querySelector<HTMLElement>('[data-testid="list-screen"][data-resource="users"]')!.dataset.probe =
        'users';
    });

    // Another list from the menu: the users list is out of the page, not merely hidden.
    await page.locator('aside a[href="/groupset"]').click();
    await rowsOf(page, 'groups').first().waitFor();
    expect(await screensInPage(page)).toEqual(['groups']);
    // Matched by CSS, which also finds elements hidden by display: none: none of the users list is left.
    expect(await page.locator(`input[aria-label="Select row ${firstId}"]`).count()).toBe(0);
    expect(await page.locator('h1').allInnerTexts()).toEqual(['Group management']);

    // Back: the same element, its page, its row still selected.
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/userpage/userset' && u.searchParams.get('pageNum') === '2');
    await rowsOf(page, 'users').first().waitFor();
    expect(await screensInPage(page)).toEqual(['users']);
    expect(await marked(page, 'users')).toBe('users');
    expect(await page.getByLabel(`Select row ${firstId}`, { exact: true }).isChecked()).toBe(true);

    // The menu goes to the list's first page: other rows, so the selection goes, in the same element.
    await page.locator('aside a[href="/groupset"]').click();
    await rowsOf(page, 'groups').first().waitFor();
    await page.locator('aside a[href="/userpage/userset"]').click();
    await page.waitForURL((u) => u.pathname === '/userpage/userset' && !u.searchParams.has('pageNum'));
    await expect.poll(() => rowsOf(page, 'users').first().getAttribute('data-row-id')).not.toBe(firstId);
    expect(await marked(page, 'users')).toBe('users');
    expect(await page.getByTestId('selection-bar').count()).toBe(0);
  });

  it('shows a list seen moments ago again from what it had, asking the backend nothing', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    await openInApp(page, '/userpage/userset?pageNum=3');
    await rowsOf(page, 'users').first().waitFor();
    const shownId = await rowsOf(page, 'users').first().getAttribute('data-row-id');
    await page.locator('aside a[href="/groupset"]').click();
    await rowsOf(page, 'groups').first().waitFor();

    // Well within the ten seconds a list's page stays fresh: its page was kept with the screen.
    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.endsWith('/list')) asked.push(new URL(r.url()).pathname);
    });
    await page.goBack();
    await rowsOf(page, 'users').first().waitFor();
    expect(await rowsOf(page, 'users').first().getAttribute('data-row-id')).toBe(shownId);
    expect(await page.getByTestId('list-table').getAttribute('aria-busy')).toBe(null);
    // Back to the groups the same way, so the users list has been hidden and shown once more.
    await page.goForward();
    await rowsOf(page, 'groups').first().waitFor();
    expect(asked).toEqual([]);
  });

  it('sends for a list screen’s page as its menu entry is pressed, and the screen asks no second time', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    await openInApp(page, '/userpage/userset');
    await rowsOf(page, 'users').first().waitFor();
    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.endsWith('/groupProfile/list')) asked.push(r.url());
    });

    // Pressed, not yet released: the call goes out before the click that opens the screen.
    await page.locator('aside a[href="/groupset"]').hover();
    const sent = page.waitForRequest((r) => new URL(r.url()).pathname.endsWith('/groupProfile/list'));
    await page.mouse.down();
    await sent;
    expect(new URL(page.url()).pathname).toBe('/userpage/userset');
    await page.mouse.up();
    await rowsOf(page, 'groups').first().waitFor();
    expect(asked).toHaveLength(1);
  });

  it('asks once for the page of a list opened by its address, however slowly the screen is built', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    // A slow machine: the page's answer comes in well before the screen that sent for it is committed.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.endsWith('/list')) asked.push(new URL(r.url()).pathname);
    });
    // The saved views are asked for as the screen is committed, as a second call for the page would be.
    const committed = page.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/api/saved-views/'));
    await page.goto('/userpage/userset');
    await committed;
    await rowsOf(page, 'users').first().waitFor();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    expect(asked).toHaveLength(1);
  });

  it('builds a refreshed list afresh, and a record page leaves no list behind in the page', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    await openInApp(page, '/userpage/userset');
    await rowsOf(page, 'users').first().waitFor();
    await page.evaluate(() => {
      document.querySelector<HTMLElement>('[data-testid="list-screen"][data-resource="users"]')!.dataset.probe =
        'users';
    });

    // A record's page: no list screen in the page; back, the list as it was.
    await rowsOf(page, 'users').first().locator('[data-record-link]').click();
    await page.getByTestId('record-fields').waitFor();
    expect(await screensInPage(page)).toEqual([]);
    await page.goBack();
    await rowsOf(page, 'users').first().waitFor();
    expect(await marked(page, 'users')).toBe('users');

    // A refresh (the tab bar's, or /redirect/…) builds the screen again.
    await openInApp(page, '/redirect/userpage/userset');
    await page.waitForURL((u) => u.pathname === '/userpage/userset');
    await rowsOf(page, 'users').first().waitFor();
    expect(await marked(page, 'users')).toBe(null);
  });
});
