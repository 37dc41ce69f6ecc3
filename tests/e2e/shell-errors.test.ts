import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { ErrorLogEntry, ErrorLogPage } from '../../server/contract/index.js';
import { loginElsewhere, sessionLoggedIn, useHarness } from './harness.js';

/** The uncaught errors this suite raises on purpose; any other page error fails the run. */
const h = useHarness({ plantedErrors: ['e2e-boom', 'e2e-rejected'] });

const UNSUPPORTED = 'Your browser does not support full screen';

/** The error log as the gateway keeps it, read with the page's own session cookies. */
async function errorLog(page: Page): Promise<ErrorLogEntry[]> {
  const res = await page.request.get('/api/error-log?pageSize=50');
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { code: number; data: ErrorLogPage };
  expect(body.code).toBe(200);
  return body.data.list;
}

describe('console shell: uncaught errors and the full-screen toggle', () => {
  it('sends a thrown error and an unhandled rejection to the error log, which the log screen lists and clears', async () => {
    const { page } = await h.pageAs('admin', { loginPath: '/login?redirect=%2FBillingRecords' });
    await page.waitForURL((u) => u.pathname === '/BillingRecords');
    const where = page.url();
    expect(await errorLog(page)).toEqual([]);

    await page.evaluate(() => {
      // The browser's benign resize warning arrives first and must stay out of the log.
      window.dispatchEvent(
        new ErrorEvent('error', { message: 'ResizeObserver loop completed with undelivered notifications.' }),
      );
      setTimeout(() => {
        throw new Error('e2e-boom');
      });
      void Promise.reject(new Error('e2e-rejected'));
    });

    await expect
      .poll(async () => (await errorLog(page)).map((e) => e.message).sort(), { timeout: 10_000 })
      .toEqual(['Error: e2e-boom', 'Error: e2e-rejected']);
    const entries = await errorLog(page);
    for (const entry of entries) {
      expect(entry.url).toBe(where);
      expect(entry.userId).toBeTruthy();
      expect(entry.stack).toContain(entry.message.replace(/^Error: /, ''));
    }
    expect(entries.find((e) => e.message.endsWith('e2e-rejected'))?.info).toBe('unhandledrejection');

    await page.goto('/error-log/log');
    const table = page.getByRole('table');
    await table.waitFor();
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    const text = await table.textContent();
    expect(text).toContain('Error: e2e-boom');
    expect(text).toContain('Error: e2e-rejected');
    expect(text).toContain(where);

    // The keyword filter narrows the list and lands in the URL.
    await page.getByLabel('Keyword').fill('boom');
    await page.getByRole('search', { name: 'Filters' }).getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((u) => u.searchParams.get('keyword') === 'boom');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('e2e-boom');
    await page.goto('/error-log/log');
    await expect.poll(() => rows.count()).toBe(2);

    // Clearing asks first; cancelling keeps every entry.
    await page.getByRole('button', { name: 'Clear log' }).click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('Delete every entry you can see in the error log');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await errorLog(page)).toHaveLength(2);

    await page.getByRole('button', { name: 'Clear log' }).click();
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('No errors recorded').waitFor();
    await page.getByText('Error log cleared').waitFor();
    expect(await errorLog(page)).toEqual([]);
  });

  // The toggle has three outcomes; each is driven where it happens. Headless Chromium grants full
  // screen to a real click, so the first runs in the plain browser; the two refusals are imitated
  // before the app starts, as the browsers that give them answer.

  it('enters full screen on a click and leaves it on the next, without a warning', async () => {
    const { page } = await h.pageAs('admin');
    const toggle = page.getByTestId('fullscreen-toggle');
    expect(await toggle.getAttribute('aria-label')).toBe('Full screen');
    await toggle.click();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement === document.documentElement)).toBe(true);
    await expect.poll(() => toggle.getAttribute('aria-label')).toBe('Exit full screen');

    await toggle.click();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement === null)).toBe(true);
    await expect.poll(() => toggle.getAttribute('aria-label')).toBe('Full screen');
    expect(await page.locator('[data-toast="warning"]').count()).toBe(0);
  });

  it('warns instead of failing silently when the browser has no full screen', async () => {
    // A browser without the Fullscreen API (old WebViews, locked-down kiosks).
    const { page } = await h.pageAs('admin', {
      initScript: () => {
        Object.defineProperty(Document.prototype, 'fullscreenEnabled', { get: () => false });
      },
    });
    await page.getByTestId('fullscreen-toggle').click();
    await page.locator('[data-toast="warning"]', { hasText: UNSUPPORTED }).waitFor();
    expect(await page.evaluate(() => document.fullscreenElement)).toBeNull();
    expect(await page.getByTestId('fullscreen-toggle').getAttribute('aria-label')).toBe('Full screen');
  });

  it('warns when the browser refuses the request', async () => {
    // Chromium rejects requestFullscreen with this TypeError when its permission check fails
    // (a policy, a dialog in the way); the app must say so instead of doing nothing.
    const { page } = await h.pageAs('admin', {
      initScript: () => {
        Element.prototype.requestFullscreen = () => Promise.reject(new TypeError('Permissions check failed'));
      },
    });
    await page.getByTestId('fullscreen-toggle').click();
    await page.locator('[data-toast="warning"]', { hasText: UNSUPPORTED }).waitFor();
    expect(await page.evaluate(() => document.fullscreenElement)).toBeNull();
    expect(await page.getByTestId('fullscreen-toggle').getAttribute('aria-label')).toBe('Full screen');
  });

  // Last in the file: the second login replaces the admin token that earlier tests' pages hold.
  it('sends a reload with a session replaced elsewhere to login, with the reason shown', async () => {
    const { page } = await h.pageAs('admin', { loginPath: '/login?redirect=%2FSignInConfig' });
    await page.waitForURL((u) => u.pathname === '/SignInConfig');

    expect(await loginElsewhere(h.url, 'admin')).toBe(200);

    // Reloading loads the permission list with the dead token: the console logs out, shows
    // the failure text and keeps the wanted path as the redirect.
    await page.reload();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/SignInConfig');
    await page.locator('[data-toast="error"]', { hasText: 'logged in elsewhere' }).waitFor();
    expect(await sessionLoggedIn(page)).toBe(false);
  });
});
