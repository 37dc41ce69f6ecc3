import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { GATEWAY_PATHS } from '../../server/contract/index.js';
import { loginAs, rowCommand, sessionLoggedIn, openInApp, useHarness } from './harness.js';

/*
 * When the gateway refuses the session (logged out in another tab, idle, too old) it answers
 * 401 NOT_LOGGED_IN: the console then goes to the login form with the page it was on as redirect,
 * not to the 'logged in elsewhere' dialog a backend 401 opens, unless a form holds unsaved changes:
 * then that dialog opens over the form, which the login form would throw away. Failed logins past
 * the limit show the wait in the page's language.
 */

const h = useHarness({ pollMs: 500, events: { heartbeatMs: 1_000, retryMs: 500 }, sandbox: { withdrawalTickMs: 0 } });

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

/** Logs the browser's session out from outside the page, as another tab of the same browser would. */
async function logOutBehindThePage(context: BrowserContext, url: string): Promise<void> {
  const cookie = (await context.cookies(url)).map((c) => `${c.name}=${c.value}`).join('; ');
  const answer = await fetch(`${url}${GATEWAY_PATHS.logout}`, { method: 'POST', headers: { cookie, origin: url } });
  expect(answer.status).toBe(204);
}

const noDialog = async (page: Page) => expect(await page.getByRole('dialog').count()).toBe(0);

describe('a session the gateway ended', () => {
  it('sends the next call to the login form with the current path as redirect, then back there', async () => {
    // The operator has no withdrawal badge, so no event stream can tell the page first.
    const { context, page } = await h.pageAs('operator', { loginPath: '/login?redirect=%2FBillingRecords' });
    await page.waitForURL((u) => u.pathname === '/BillingRecords');
    await logOutBehindThePage(context, h.url);

    // The next screen (reached inside the page, no reload) makes a call, which meets 401 NOT_LOGGED_IN.
    await openInApp(page, '/sensitivewords');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(pathOf(page.url())).toBe('/login?redirect=%2Fsensitivewords');
    await page.getByTestId('login-session-ended').waitFor();
    expect(await page.getByTestId('login-session-ended').textContent()).toBe(
      'Your session has ended. Please log in again.',
    );
    await noDialog(page);
    expect(await page.locator('[data-toast="error"]').count()).toBe(0);
    if (process.env.SCREENSHOT_DIR)
      await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/login-session-ended.png` });

    await page.getByLabel('Account').fill('operator');
    await page.getByLabel('Password', { exact: true }).fill('operator123');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((u) => u.pathname === '/sensitivewords');
    await page.getByTestId('layout').waitFor();
  });

  it('ends an idle tab through its event stream when the session is logged out in another tab', async () => {
    const { context, page } = await h.pageAs('admin');
    await page.getByTestId('withdrawal-badge').first().waitFor();
    const second = await context.newPage();
    await second.goto('/dashboard');
    await second.getByTestId('layout').waitFor();

    // The other tab logs out through the user menu; the first tab makes no call of its own.
    await second.getByTestId('user-menu').click();
    await second.getByTestId('logout').click();
    await second.waitForURL((u) => u.pathname === '/login');

    await page.waitForURL((u) => u.pathname === '/login', { timeout: 15_000 });
    expect(pathOf(page.url())).toBe('/login?redirect=%2Fdashboard');
    await page.getByTestId('login-session-ended').waitFor();
    await noDialog(page);
    expect(await sessionLoggedIn(page)).toBe(false);
  });

  it('keeps a form’s unsaved work when the session ends under it, and logs in again over the page', async () => {
    // The administrator has the badge, so the event stream tells the page; the Save's call would
    // tell it as well.
    const { context, page } = await h.pageAs('admin', { width: 1280, height: 900 });
    await page.goto('/homelist');
    const rows = page.locator('[data-testid="list-table"] tbody tr[data-row-id]');
    await rows.first().waitFor();
    const id = await rows.first().getAttribute('data-row-id');
    const form = page.getByTestId('form-dialog');
    await rowCommand(rows.first(), '[data-command="edit"]');
    const typed = `Typed before the logout ${Date.now() % 1_000_000}`;
    await form.getByLabel('Title').fill(typed);
    // The seeded entries open in-app links, which the form asks to be web addresses.
    await form.getByLabel('Link').fill('https://news.example.com/kept');

    await logOutBehindThePage(context, h.url);
    // Not the login form, which would throw the typed title away (and, before, a blank page).
    const relogin = page.getByTestId('relogin-dialog');
    await relogin.getByTestId('relogin-form').waitFor();
    expect(pathOf(page.url())).toBe('/homelist');
    expect(await relogin.locator('#relogin-text').textContent()).toBe('Your session has ended. Please log in again.');
    // Why is said once, by the line above; the next says what logging in keeps.
    await relogin.getByText('Log in again to carry on: what you typed on this page stays.', { exact: true }).waitFor();
    expect(await relogin.getByText('Your session has ended', { exact: false }).count()).toBe(1);
    await relogin.locator('input[name="password"]').fill('admin123');
    await relogin.getByTestId('relogin-submit').click();
    await relogin.waitFor({ state: 'detached' });

    expect(await form.getByLabel('Title').inputValue()).toBe(typed);
    expect(await form.getByLabel('Link').inputValue()).toBe('https://news.example.com/kept');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await page.locator(`tr[data-row-id="${id}"]`, { hasText: typed }).waitFor();
  });
});

describe('login throttling on the login page', () => {
  const waitText = {
    en: /^Too many failed logins\. Try again in \d+:\d\d\.$/,
    zh: /^登录失败次数过多，请在 \d+:\d\d 后重试。$/,
    es: /^Demasiados intentos fallidos\. Vuelva a intentarlo en \d+:\d\d\.$/,
    ja: /^ログインの失敗が多すぎます。\d+:\d\d 後にもう一度お試しください。$/,
  } as const;

  it('shows the wait in all four languages and holds the button until it passes', async () => {
    const { page } = await h.newPage();
    // The page's clock runs as usual until the test moves it past the wait (a real wait is 15 minutes).
    await page.clock.install();
    await page.goto('/login');
    // A seeded administrator whose password nobody here knows: only failures.
    await page.getByLabel('Account').fill('finance_li');
    for (let i = 0; i < 5; i++) {
      await page.getByLabel('Password', { exact: true }).fill(`wrong-${i}`);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByTestId('login-error').waitFor();
      await expect.poll(() => page.getByRole('button', { name: 'Log in' }).isEnabled()).toBe(true);
    }
    await page.getByLabel('Password', { exact: true }).fill('wrong-5');
    await page.getByRole('button', { name: 'Log in' }).click();
    const notice = page.getByTestId('login-throttled');
    await notice.waitFor();
    const visible = () => notice.locator('[aria-hidden="true"]').textContent();
    expect(await visible()).toMatch(waitText.en);
    expect(await page.getByTestId('login-error').count()).toBe(0);
    expect(await page.locator('button[type="submit"]').isDisabled()).toBe(true);
    // Announced once to screen readers, in words.
    expect(await notice.getByRole('alert').textContent()).toMatch(waitText.en);

    // The countdown moves.
    const first = await visible();
    await expect.poll(visible, { timeout: 5_000 }).not.toBe(first);

    for (const language of ['zh', 'es', 'ja'] as const) {
      await page.getByTestId('login-language').selectOption(language);
      await expect.poll(visible).toMatch(waitText[language]);
    }
    // The sandbox banner follows the language too (its messages may load after the switch).
    await expect.poll(() => page.getByTestId('sandbox-banner').textContent()).toMatch(/^サンドボックスモード/);

    if (process.env.SCREENSHOT_DIR) {
      for (const width of [1440, 390]) {
        await page.setViewportSize({ width, height: 860 });
        await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/login-throttled-${width}.png` });
      }
    }

    // Still held a moment before the wait ends; given back, and the notice gone, once it has.
    const submit = page.locator('button[type="submit"]');
    const left = /(\d+):(\d\d)/.exec((await visible()) ?? '')!;
    const secondsLeft = Number(left[1]) * 60 + Number(left[2]);
    // Eight seconds short of the end, whatever real time the test itself took meanwhile.
    expect(secondsLeft).toBeGreaterThan(10);
    await page.clock.fastForward((secondsLeft - 8) * 1000);
    await expect.poll(visible).toMatch(/\b0:0[1-8]\b/);
    expect(await submit.isDisabled()).toBe(true);
    await page.clock.fastForward(9_000);
    await expect.poll(() => submit.isEnabled()).toBe(true);
    expect(await notice.count()).toBe(0);
  });
});

describe('after logging in again', () => {
  it('the redirect login leaves no trace of the old session', async () => {
    const { page } = await h.newPage();
    await loginAs(page, 'operator');
    expect(await sessionLoggedIn(page)).toBe(true);
    expect(await page.getByTestId('login-session-ended').count()).toBe(0);
  });
});
