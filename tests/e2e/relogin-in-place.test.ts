import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { docsScreenshot, errorToasts, loginElsewhere, openInApp, rowCommand, useHarness } from './harness.js';

/*
 * A second login of the same account elsewhere ends this page's session at the backend. The page
 * keeps what was typed and offers a login dialog over it; logging in there (without leaving or
 * reloading the page) keeps the typed values, and the save then succeeds.
 */
const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });

const rows = (page: Page) => page.locator('[data-testid="list-table"] tbody tr');
const form = (page: Page) => page.getByTestId('form-dialog');
const relogin = (page: Page) => page.getByTestId('relogin-dialog');

/** Opens another screen inside the page (no reload): its first call meets the backend's refusal. */
async function callAfterTheSessionEnded(page: Page, path = '/sensitivewords'): Promise<void> {
  await openInApp(page, path);
}

describe('logging in again in place after the session ended', () => {
  it('keeps an edit form’s typed values through a second login elsewhere, and the save then succeeds', async () => {
    const { page } = await h.pageAs('admin', { width: 1280, height: 900 });
    await page.goto('/homelist');
    await rows(page).first().waitFor();
    // An entry of its own, with a link the form accepts.
    const title = `Relogin ${Date.now() % 1_000_000}`;
    await page.getByTestId('list-create').click();
    await form(page).getByLabel('Title').fill(title);
    await form(page).getByLabel('Link').fill('https://news.example.com/relogin');
    await form(page).getByRole('button', { name: 'Save' }).click();
    await form(page).waitFor({ state: 'detached' });
    await page.getByTestId('list-keyword').fill(title);
    const row = rows(page).filter({ hasText: title });
    await row.waitFor();
    // Marks the document: a reload would lose it.
    await page.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));
    await rowCommand(row, '[data-command="edit"]');
    const typed = `${title} typed before`;
    await form(page).getByLabel('Title').fill(typed);

    // The same account logs in on another device: the backend drops this page's token.
    expect(await loginElsewhere(h.url, 'admin')).toBe(200);

    // The page learns it from the Save's refused call or from its event stream, whichever comes
    // first; once the stream has opened the dialog, the form under it takes no pointer, so the
    // Save is pressed as a script would, and its refusal changes nothing.
    await form(page).getByRole('button', { name: 'Save' }).dispatchEvent('click');
    const dialog = relogin(page);
    await dialog.waitFor();
    expect(await dialog.getByRole('heading').textContent()).toBe('Logged out');
    // The form, with the login page's fields; the account is the one that logged in here.
    const password = dialog.getByLabel('Password', { exact: true });
    await password.waitFor();
    expect(await dialog.getByLabel('Account').inputValue()).toBe('admin');
    await expect.poll(() => password.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await dialog.getByLabel('Authenticator code').count()).toBe(1);
    await docsScreenshot(page, 'login-in-place-1280.png');

    // Focus stays in the dialog: Tab past its last control comes back to its first.
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="relogin-dialog"]'))).toBe(true);
    }
    // Escape does not close it.
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);

    // A wrong password is told in the dialog, which stays.
    await password.fill('not-the-password');
    await dialog.getByTestId('relogin-submit').click();
    await dialog.getByTestId('login-error').waitFor();

    await password.fill('admin123');
    await password.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.locator('[data-toast="success"]', { hasText: 'Logged in again' }).waitFor();

    // Same document, same form, same typed value.
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    expect(await form(page).getByLabel('Title').inputValue()).toBe(typed);
    await form(page).getByRole('button', { name: 'Save' }).click();
    await form(page).waitFor({ state: 'detached' });
    await rows(page).filter({ hasText: typed }).waitFor();
    expect(await errorToasts(page)).toEqual([]);
  }, 120_000);

  it('speaks the page’s language, and the close button still resets the session as before', async () => {
    const { page } = await h.pageAs('admin', { width: 1280, height: 900 });
    await page.goto('/homelist');
    await rows(page).first().waitFor();
    for (const [language, title, submit] of [
      ['zh', '重新登录', '登录并继续'],
      ['es', 'Volver a iniciar sesión', 'Iniciar sesión y continuar'],
      ['ja', '再ログイン', 'ログインして続ける'],
    ] as const) {
      await page.evaluate((lang) => localStorage.setItem('console.language', JSON.stringify(lang)), language);
      await page.goto('/homelist');
      await rows(page).first().waitFor();
      // Logged in from outside the browser: a browser per login kept four Chromiums polling
      // beside this page, enough on a busy machine to keep its list from loading in time.
      expect(await loginElsewhere(h.url, 'admin')).toBe(200);
      await callAfterTheSessionEnded(page);
      const dialog = relogin(page);
      await dialog.getByTestId('relogin-form').waitFor();
      expect(await dialog.getByTestId('relogin-form').getAttribute('aria-label')).toBe(title);
      expect(await dialog.getByTestId('relogin-submit').textContent()).toBe(submit);
      const password = dialog.locator('input[name="password"]');
      await password.fill('admin123');
      await dialog.getByTestId('relogin-submit').click();
      await dialog.waitFor({ state: 'detached' });
    }
    // Closing instead: the session is reset and the login page shown, as before. The screen opened
    // is one this document has not shown yet: a list it already holds (/homelist) may still be
    // fresh, and then no call would meet the refusal.
    expect(await loginElsewhere(h.url, 'admin')).toBe(200);
    await callAfterTheSessionEnded(page, '/invitationcode');
    await relogin(page).getByTestId('relogin-close').click();
    await page.waitForURL((u) => u.pathname === '/login');
  }, 180_000);
});
