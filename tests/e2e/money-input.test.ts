import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { storePreference, useHarness } from './harness.js';

// Amounts typed into the withdrawal settings, as administrators of each language type them, and
// what the sandbox then holds in the smallest unit.
const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });
const stored = () => h.sandbox.app.sandbox.settings.withdrawalConfig!;

const form = (page: Page) => page.getByTestId('settings-form');
const amount = (page: Page, key: string) => form(page).locator(`input[data-field="${key}"]`);
const problem = (page: Page, key: string) => form(page).locator(`[data-error-for="${key}"]`);

async function openConfig(language: string): Promise<Page> {
  const { page } = await h.pageAs('admin');
  await storePreference(page, 'language', language);
  await page.goto('/WithdrawMoneyConfig');
  await amount(page, 'minAmount').waitFor();
  // The form is filled from the backend's answer before anything is typed over it.
  await expect.poll(() => amount(page, 'minAmount').inputValue()).not.toBe('');
  return page;
}

describe('amounts typed the way the reader writes numbers', () => {
  it('saves 1,50 in Spanish as 1.50 (150 in the smallest unit), shown back in Spanish once it leaves focus', async () => {
    const page = await openConfig('es');
    await amount(page, 'minAmount').fill('1,50');
    await amount(page, 'maxAmount').fill('2.500');
    await amount(page, 'maxAmount').press('Tab');
    // What will be saved, in the reader's form, before saving.
    expect(await amount(page, 'minAmount').inputValue()).toBe('1,50');
    expect(await amount(page, 'maxAmount').inputValue()).toBe('2500,00');
    await form(page).getByRole('button', { name: 'Guardar' }).click();
    await page.locator('[data-toast="success"]').first().waitFor();
    expect(stored().minAmount).toBe(150);
    expect(stored().maxAmount).toBe(250000);
  });

  it('refuses 2,50 in English and says how to write it, saving nothing', async () => {
    const page = await openConfig('en');
    const before = { ...stored() };
    await amount(page, 'minAmount').fill('2,50');
    await amount(page, 'minAmount').press('Tab');
    // Shown as soon as the amount leaves focus, quoting the reading the decimal point gives.
    expect(await problem(page, 'minAmount').textContent()).toBe('Write the decimals with a point: 2.50');
    expect(await amount(page, 'minAmount').getAttribute('aria-invalid')).toBe('true');
    await form(page).getByRole('button', { name: 'Save' }).click();
    expect(await problem(page, 'minAmount').textContent()).toBe('Write the decimals with a point: 2.50');
    expect(stored()).toEqual(before);

    // Text that could mean two amounts is refused with what was typed and the form to use.
    await amount(page, 'minAmount').fill('1.500,25');
    await amount(page, 'minAmount').press('Tab');
    expect(await problem(page, 'minAmount').textContent()).toBe(
      '“1.500,25” could mean more than one amount. Write it like 1,234,567.89',
    );
    expect(stored()).toEqual(before);

    // A thousands separator in its place is read, and the amount written back in full.
    await amount(page, 'minAmount').fill('1,500.2');
    await amount(page, 'minAmount').press('Tab');
    expect(await amount(page, 'minAmount').inputValue()).toBe('1,500.20');
    expect(await problem(page, 'minAmount').count()).toBe(0);
    await amount(page, 'maxAmount').fill('2000');
    await form(page).getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-toast="success"]').first().waitFor();
    expect(stored().minAmount).toBe(150020);
  });
});
