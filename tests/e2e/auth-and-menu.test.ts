import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const h = useHarness();

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

describe('console shell: login, guards and menus', () => {
  it('sends a guest to login with the redirect and returns there after login', async () => {
    const { page } = await h.newPage();
    await page.goto('/BillingRecords');
    await page.waitForURL((u) => u.pathname === '/login');
    expect(pathOf(page.url())).toBe('/login?redirect=%2FBillingRecords');
    await page.getByLabel('Account').fill('  admin  ');
    await page.getByLabel('Password', { exact: true }).fill('admin123');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((u) => u.pathname === '/BillingRecords');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Billing records');
    await expect.poll(() => page.title()).toMatch(/^Billing records - .*后台$/);
    // Logged in, /login goes to the root, which is the dashboard.
    await page.goto('/login');
    await page.waitForURL((u) => u.pathname === '/dashboard');
  });

  it("loads only the login page's stylesheet before the login, and the whole UI's before the frame is drawn", async () => {
    const { page } = await h.newPage();
    // The linked stylesheets, by name without their hash (inline <style> elements are not counted).
    const sheets = () =>
      page.evaluate(() =>
        [...document.styleSheets].flatMap((s) =>
          s.href ? [new URL(s.href).pathname.replace(/-[^/]+\.css$/, '')] : [],
        ),
      );
    await page.goto('/login');
    await page.getByLabel('Account').waitFor();
    expect(await sheets()).toEqual(['/assets/login']);
    // The login form is styled by it: its button carries the theme colour, not the browser's grey.
    const fill = await page
      .getByRole('button', { name: 'Log in' })
      .evaluate((b) => getComputedStyle(b).backgroundColor);
    expect(fill).not.toMatch(/^rgba?\(0, 0, 0, 0\)$|^rgb\(239, 239, 239\)$/);
    await page.getByLabel('Account').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('admin123');
    await page.getByRole('button', { name: 'Log in' }).click();
    const sidebar = page.locator('aside').first();
    await sidebar.waitFor();
    // The frame is first drawn with the whole stylesheet in: the sidebar is already a fixed dark column.
    expect(await sheets()).toEqual(['/assets/login', '/assets/styles']);
    expect(await sidebar.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
  });

  it('shows a wrong password in the page language and stays on login', async () => {
    const { page } = await h.newPage();
    await page.goto('/login');
    await page.getByLabel('Account').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByTestId('login-error').waitFor();
    expect(await page.getByTestId('login-error').textContent()).toMatch(/^Login failed/);
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('builds the menu from the permissions of each account', async () => {
    const admin = (await h.pageAs('admin')).page;
    const adminGroups = await admin
      .locator('[data-menu-group]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-menu-group')));
    expect(adminGroups).toEqual(
      expect.arrayContaining(['/deployconfig', '/system', '/userpage', '/siteconfig', '/operation', '/finance']),
    );
    // The sandbox seeds pending withdrawals; the badge arrives over /api/events.
    await admin.getByTestId('withdrawal-badge').first().waitFor();
    expect(Number(await admin.getByTestId('withdrawal-badge').first().getAttribute('data-count'))).toBeGreaterThan(0);

    // The avatar carries the initial of the account that logged in.
    expect(await admin.getByTestId('avatar').textContent()).toBe('A');
    const operator = (await h.pageAs('operator')).page;
    expect(await operator.getByTestId('avatar').textContent()).toBe('O');
    const groups = await operator
      .locator('[data-menu-group]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-menu-group')));
    expect(groups).toContain('/userpage');
    expect(groups).not.toContain('/finance');
    expect(groups).not.toContain('/deployconfig');
    expect(groups).not.toContain('/siteconfig');
    const leaves = await operator
      .locator('[data-menu-path]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-menu-path')));
    expect(leaves).toEqual(expect.arrayContaining(['/dashboard', '/sensitivewords', '/BillingRecords']));
    expect(leaves).not.toContain('/finance/OnlineRecharge');
    expect(await operator.getByTestId('withdrawal-badge').count()).toBe(0);
    // A screen outside the operator's permissions is refused, not shown.
    await operator.goto('/finance/OnlineRecharge');
    await operator.getByTestId('error-401').waitFor();
  });

  it('sends an unknown path to 404 and a wrong case to the known path', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/no/such/screen');
    await page.waitForURL((u) => u.pathname === '/404');
    await page.getByTestId('error-404').waitFor();
    // It names the address that was asked for, and offers the way back.
    expect(await page.getByTestId('error-404-address').textContent()).toBe('Address asked for: /no/such/screen');
    await page.getByRole('button', { name: 'Go back' }).waitFor();
    await page.goto('/withdrawmoneycheck');
    await page.waitForURL((u) => u.pathname === '/WithDrawMoneyCheck');
  });

  it('logs out to the login page with the current path as redirect', async () => {
    const { page } = await h.pageAs('admin', { loginPath: '/login?redirect=%2FSignInConfig' });
    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(pathOf(page.url())).toBe('/login?redirect=%2FSignInConfig');
  });
});
