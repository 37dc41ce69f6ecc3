/**
 * A screen that breaks while it is drawn shows the error in its own place, with the menu and the
 * header still there, and is drawn again on “Try again” or when its address changes.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openInApp, useHarness } from './harness.js';

const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });

/**
 * Makes every number the page formats from now on throw (`true`), or format again (`false`). A
 * list's cells format their numbers as they are drawn, so a list drawn meanwhile breaks.
 */
async function breakNumbers(page: Page, broken: boolean): Promise<void> {
  await page.evaluate((on) => {
    const w = window as unknown as { numbersBroken?: boolean; numbersFormat?: PropertyDescriptor };
    if (!w.numbersFormat) {
      const own = Object.getOwnPropertyDescriptor(Intl.NumberFormat.prototype, 'format')!;
      w.numbersFormat = own;
      Object.defineProperty(Intl.NumberFormat.prototype, 'format', {
        configurable: true,
        get(this: Intl.NumberFormat) {
          if (w.numbersBroken) throw new Error('numbers cannot be formatted');
          return own.get!.call(this);
        },
      });
    }
    w.numbersBroken = on;
  }, broken);
}

const groupRows = (page: Page) =>
  page.locator('[data-testid="list-screen"][data-resource="groups"] [data-testid="list-table"] tbody tr[data-row-id]');
const screenError = (page: Page) => page.getByRole('alert').filter({ hasText: 'Something went wrong on this page' });

describe('a screen that breaks', () => {
  it('shows its error in its own place, and is drawn again on “Try again”', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    await openInApp(page, '/userpage/userset');
    await page.locator('[data-testid="list-table"] tbody tr[data-row-id]').first().waitFor();

    await breakNumbers(page, true);
    await openInApp(page, '/groupset');
    await screenError(page).waitFor();
    expect(await screenError(page).textContent()).toContain('numbers cannot be formatted');
    // The rest of the console stands: the menu still leads elsewhere.
    expect(await page.locator('aside a[href="/userpage/userset"]').isVisible()).toBe(true);

    await breakNumbers(page, false);
    await screenError(page).getByRole('button', { name: 'Try again' }).click();
    await groupRows(page).first().waitFor();
    expect(await screenError(page).count()).toBe(0);
  });

  it('is drawn again when its address changes', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    await openInApp(page, '/groupset');
    await groupRows(page).first().waitFor();

    await breakNumbers(page, true);
    await openInApp(page, '/groupset?pageSize=10');
    await screenError(page).waitFor();

    await breakNumbers(page, false);
    await openInApp(page, '/groupset?pageSize=20');
    await groupRows(page).first().waitFor();
    expect(await screenError(page).count()).toBe(0);
    expect(await groupRows(page).count()).toBe(20);
  });
});
