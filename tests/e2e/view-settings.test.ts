import { describe, expect, it } from 'vitest';
import { storePreference, useHarness } from './harness.js';

const h = useHarness();

describe('console shell: search and view settings', () => {
  it('jumps to a screen from the header search', async () => {
    const { page } = await h.pageAs('admin');
    await page.getByTestId('header-search-toggle').click();
    await page.getByTestId('header-search-input').fill('sensitive');
    await page.locator('[data-search-path="/sensitivewords"]').click();
    await page.waitForURL((u) => u.pathname === '/sensitivewords');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sensitive words');
  });

  it('switches the size with a message and keeps it after a reload', async () => {
    const { page } = await h.pageAs('admin', { loginPath: '/login?redirect=%2FBillingRecords' });
    await page.getByTestId('size-select').click();
    await page.locator('[data-size="small"]').click();
    await page.getByText('Size switched').waitFor();
    await expect.poll(() => page.evaluate(() => document.documentElement.className)).toContain('size-small');
    expect(new URL(page.url()).pathname).toBe('/BillingRecords');
    await page.reload();
    await page.getByTestId('layout').waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('size-small'))).toBe(true);
  });

  it('switches the language, follows it in <html lang> and keeps it', async () => {
    const { page } = await h.pageAs('admin');
    await page.getByTestId('language-select').click();
    await page.locator('[data-lang="zh"]').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('zh');
    await expect.poll(() => page.locator('[data-menu-path="/dashboard"]').textContent()).toBe('首页');
    // The tab title and the sandbox banner follow the switch itself, not the one after it.
    await expect.poll(() => page.title()).toBe('首页 - Nimbus Chat后台');
    expect(await page.getByTestId('sandbox-banner').textContent()).toContain('沙盒模式');
    // The dashboard's own messages, fetched after the login, follow too.
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await expect.poll(() => page.getByText('用户总数', { exact: true }).count()).toBe(1);
    await page.getByTestId('language-select').click();
    await page.locator('[data-lang="ja"]').click();
    await expect.poll(() => page.title()).toBe('ホーム - Nimbus Chat后台');
    await expect.poll(() => page.getByTestId('sandbox-banner').textContent()).toContain('サンドボックスモード');
    await page.getByTestId('language-select').click();
    await page.locator('[data-lang="zh"]').click();
    await expect.poll(() => page.title()).toBe('首页 - Nimbus Chat后台');
    await page.reload();
    await page.getByTestId('layout').waitFor();
    await expect.poll(() => page.locator('[data-menu-path="/dashboard"]').textContent()).toBe('首页');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh');
  });

  it('switches to the dark scheme from the settings drawer, keeps it, and can follow the system', async () => {
    const { page } = await h.pageAs('admin');
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    expect(await isDark()).toBe(false);
    await page.getByTestId('settings-toggle').click();
    const schemes = page.getByTestId('setting-color-scheme');
    await schemes.getByRole('radio', { name: 'Dark' }).click();
    await expect.poll(isDark).toBe(true);
    // Drawn with a primary shade that reads on dark surfaces, and dark text on primary fills.
    expect(
      await page.evaluate(() =>
        getComputedStyle(document.documentElement).getPropertyValue('--color-on-primary').trim(),
      ),
    ).toBe('#0f172a');
    await page.keyboard.press('Escape');
    await page.reload();
    await page.getByTestId('layout').waitFor();
    expect(await isDark()).toBe(true);

    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByTestId('settings-toggle').click();
    await page.getByTestId('setting-color-scheme').getByRole('radio', { name: 'Follow the system' }).click();
    await expect.poll(isDark).toBe(false);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(isDark).toBe(true);
  });

  it('shows the sandbox banner without making a short page scroll, wide or on a phone', async () => {
    for (const width of [1440, 390]) {
      const { page } = await h.newPage({ width, height: 800 });
      for (const path of ['/login', '/404']) {
        await page.goto(path);
        await page.getByTestId('sandbox-banner').waitFor();
        await page.locator('main, [data-testid="error-404"]').first().waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
        expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(0);
      }
    }
  });

  it('keeps status badges and chips on one line in Chinese and Japanese at 1440 and 1366 px', async () => {
    for (const width of [1440, 1366]) {
      const { page } = await h.pageAs('admin', { width });
      for (const language of ['zh', 'ja']) {
        await storePreference(page, 'language', language);
        for (const path of ['/userpage/userset', '/system/admins', '/system/googleverify']) {
          await page.goto(path);
          await page.locator('[data-testid="list-table"] tbody tr').first().waitFor();
          const tall = await page
            .locator(
              // Badges and chips: a picture's stand-in (role img) is a box of its own size, not text.
              '[data-testid="list-table"] tbody td span.rounded-full, [data-testid="list-table"] tbody td span.rounded:not([role="img"])',
            )
            .evaluateAll((els) =>
              els
                .filter((e) => e.getBoundingClientRect().height > parseFloat(getComputedStyle(e).lineHeight) * 1.5)
                .map((e) => e.textContent),
            );
          expect(tall, `${path} in ${language} at ${width} px`).toEqual([]);
        }
      }
    }
  }, 90_000);

  it('takes the browser language when nothing is saved', async () => {
    const { page } = await h.newPage({ locale: 'ja-JP' });
    await page.goto('/login');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ja');
    await page.getByLabel('アカウント').waitFor();
  });

  it('collapses the sidebar, remembers it in a cookie, and closes it on a phone', async () => {
    const { page, context } = await h.pageAs('admin');
    const sidebar = page.getByTestId('sidebar');
    expect(await sidebar.getAttribute('data-state')).toBe('open');
    await page.getByTestId('hamburger').click();
    await expect.poll(() => sidebar.getAttribute('data-state')).toBe('collapsed');
    const cookie = (await context.cookies()).find((c) => c.name === 'sidebarStatus');
    expect(cookie?.value).toBe('0');
    await page.reload();
    await page.getByTestId('layout').waitFor();
    expect(await sidebar.getAttribute('data-state')).toBe('collapsed');
    await page.getByTestId('hamburger').click();
    await expect.poll(() => sidebar.getAttribute('data-state')).toBe('open');

    await page.setViewportSize({ width: 800, height: 900 });
    await expect.poll(() => sidebar.getAttribute('data-state')).toBe('hidden');
    await page.getByTestId('hamburger').click();
    await expect.poll(() => sidebar.getAttribute('data-state')).toBe('open');
    await page.getByTestId('sidebar-backdrop').click({ position: { x: 700, y: 400 } });
    await expect.poll(() => sidebar.getAttribute('data-state')).toBe('hidden');
  });
});
