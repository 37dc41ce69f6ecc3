import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });

describe('an administrator and their own row', () => {
  it('cannot disable or delete their own account from the list, and is told why; another account still can be', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/system/admins');
    const rows = page.locator('[data-testid="list-table"] tbody tr');
    await rows.first().waitFor();
    const own = rows.filter({ has: page.locator('[data-col="account"]', { hasText: /^admin$/ }) });
    await own.getByTestId('row-more').click();
    const menu = page.getByTestId('row-menu');
    for (const selector of ['[data-action="disable"]', '[data-command="remove"]']) {
      const item = menu.locator(selector);
      expect(await item.getAttribute('aria-disabled'), selector).toBe('true');
      expect(await item.textContent(), selector).toContain('Not on your own account');
    }
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });

    const other = rows
      .filter({ has: page.locator('[data-col="status"]', { hasText: 'Enabled' }) })
      .filter({ hasNot: page.locator('[data-col="account"]', { hasText: /^admin$/ }) })
      .first();
    await other.getByTestId('row-more').click();
    expect(await menu.locator('[data-action="disable"]').getAttribute('aria-disabled')).toBeNull();
    expect(await menu.locator('[data-action="disable"]').textContent()).toBe('Disable');
  }, 90_000);
});
