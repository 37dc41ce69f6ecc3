import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });

describe('list pagination', () => {
  it('goes to the last page, jumps to a typed page and reaches a number by keyboard, all kept in the URL', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/userpage/userset?pageSize=20');
    await page.locator('[data-testid="list-table"] tbody tr').first().waitFor();
    const total = h.sandbox.app.sandbox.users.all().length;
    const pages = Math.ceil(total / 20);
    expect(await page.getByTestId('list-total').textContent()).toBe(`${total} in total`);
    const current = () => page.getByTestId('page-numbers').locator('[aria-current="page"]').textContent();
    expect(await current()).toBe('1');

    await page.getByRole('button', { name: 'Last page' }).click();
    await page.waitForURL((u) => u.searchParams.get('pageNum') === String(pages));
    await expect.poll(current).toBe(String(pages));
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);

    await page.getByTestId('page-jump').fill('3');
    await page.getByTestId('page-jump').press('Enter');
    await page.waitForURL((u) => u.searchParams.get('pageNum') === '3');
    await expect.poll(current).toBe('3');
    // The first, the last and two either side of the current one.
    expect(await page.getByTestId('page-numbers').locator('[data-page]').allTextContents()).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      String(pages),
    ]);

    await page.getByRole('button', { name: 'Page 5' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.searchParams.get('pageNum') === '5');
    await page.reload();
    await expect.poll(current).toBe('5');

    // A typed page past the end goes to the last one.
    await page.getByTestId('page-jump').fill(String(pages + 10));
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get('pageNum') === String(pages));
  }, 90_000);
});
