import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { WITHDRAWAL_CONFIG, resourceCalls } from '../../server/contract/index.js';
import { storePreference, useHarness } from './harness.js';

/*
 * The form's own checks of issue 35 (points 2, 4, 5 and two polish items), at a phone's and a
 * laptop's width: rules between fields in the reader's language, a length counter that counts what
 * the reader sees and never cuts, decimals written with the reader's mark, required values that
 * spaces do not fill, and what a checker is told of a held save that would break a rule.
 */

const h = useHarness({ env: { DUAL_CONTROL_SETTINGS: 'withdrawalConfig' } });
const store = () => h.sandbox.app.sandbox;
const dialog = (page: Page) => page.getByTestId('form-dialog');
const FAMILY = '👨‍👩‍👧‍👦';
const SIZES = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
] as const;

describe.each(SIZES)('forms at $width px', (size) => {
  it('refuses in Spanish a minimum withdrawal over the maximum, under the field, and sends nothing', async () => {
    const before = { ...store().settings.withdrawalConfig! };
    const { page } = await h.pageAs('admin', size);
    await storePreference(page, 'language', 'es');
    await page.goto('/WithdrawMoneyConfig');
    const form = page.getByTestId('settings-form');
    await form.locator('input[data-field="minAmount"]').fill('60.000,00');
    await form.locator('input[data-field="maxAmount"]').fill('50.000,00');
    await form.getByRole('button', { name: 'Guardar' }).click();
    const error = form.locator('[data-error-for="minAmount"]');
    expect(await error.textContent()).toBe('No puede ser mayor que Importe máximo');
    expect(await form.locator('[data-error-for="maxAmount"]').count()).toBe(0);
    expect(await page.getByTestId('held-approvals').count()).toBe(0);
    expect(store().settings.withdrawalConfig).toEqual(before);
  });

  it('counts a nickname in the characters it shows, refuses 33 families without cutting them, takes 32', async () => {
    const { page } = await h.pageAs('admin', size);
    await page.goto('/system/admins');
    await page.getByTestId('list-create').click();
    const nickname = dialog(page).locator('input[data-field="nickname"]');
    const counter = dialog(page).locator('[data-counter-for="nickname"]');
    await nickname.fill(FAMILY.repeat(33));
    await expect.poll(() => counter.textContent()).toBe('33 of 32 characters');
    expect(await counter.getAttribute('data-over')).toBe('');
    // Nothing is cut: the input holds all 33.
    expect(await nickname.inputValue()).toBe(FAMILY.repeat(33));
    await dialog(page).getByTestId('form-submit').click();
    expect(await dialog(page).locator('[data-error-for="nickname"]').textContent()).toBe('Too long');

    await nickname.fill(FAMILY.repeat(32));
    await expect.poll(() => counter.textContent()).toBe('32 of 32 characters');
    expect(await counter.getAttribute('data-over')).toBeNull();
    await dialog(page).getByTestId('form-submit').click();
    await dialog(page).locator('[data-error-for="account"]').waitFor();
    expect(await dialog(page).locator('[data-error-for="nickname"]').count()).toBe(0);
  });

  it('takes a fee of 1,5 % in Spanish', async () => {
    const { page } = await h.pageAs('admin', size);
    await storePreference(page, 'language', 'es');
    await page.goto('/finance/OnlineRecharge');
    await page.getByTestId('list-create').click();
    const name = `Canal ${size.width}`;
    await dialog(page).locator('input[data-field="name"]').fill(name);
    await dialog(page).locator('select[data-field="method"]').selectOption('alipay');
    await dialog(page).locator('input[data-field="minAmount"]').fill('10,00');
    await dialog(page).locator('input[data-field="maxAmount"]').fill('5.000,00');
    await dialog(page).locator('input[data-field="feePercent"]').fill('1,5');
    await dialog(page).getByTestId('form-submit').click();
    await dialog(page).waitFor({ state: 'detached' });
    const saved = store()
      .rechargeChannels.all()
      .find((r) => r.name === name);
    expect(saved).toMatchObject({ feePercent: 1.5, minAmount: 1_000, maxAmount: 500_000 });
  });

  it('asks a default avatar for its name and order; spaces are no name', async () => {
    const { page } = await h.pageAs('admin', size);
    await page.goto('/defaultavatar');
    await page.getByTestId('list-create').click();
    const image = String(store().defaultAvatars.all()[0]!.image);
    await dialog(page).locator('input[data-field="image"]').fill(image);
    await dialog(page).locator('input[data-field="name"]').fill('   ');
    await dialog(page).getByTestId('form-submit').click();
    expect(await dialog(page).locator('[data-error-for="name"]').textContent()).toBe('This field is required');
    expect(await dialog(page).locator('[data-error-for="sort"]').textContent()).toBe('This field is required');
    const count = store().defaultAvatars.all().length;
    await dialog(page).locator('input[data-field="name"]').fill(`Fox ${size.width}`);
    await dialog(page).locator('input[data-field="sort"]').fill('5');
    await dialog(page).getByTestId('form-submit').click();
    await dialog(page).waitFor({ state: 'detached' });
    expect(store().defaultAvatars.all().length).toBe(count + 1);
  });
});

describe('a required reason', () => {
  it('is not filled by spaces: the reject dialog refuses them and sends nothing', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    await page.goto('/WithDrawMoneyCheck');
    const row = page.locator('[data-testid="list-table"] tbody tr').first();
    const id = Number(await row.getAttribute('data-row-id'));
    await row.locator('[data-action="reject"]').click();
    await dialog(page).getByLabel('Reason').fill('   ');
    await dialog(page).getByTestId('form-submit').click();
    expect(await dialog(page).locator('[data-error-for="reason"]').textContent()).toBe('This field is required');
    expect(store().withdrawals.get(id)!.state).toBe('pending');
  });
});

describe('a held settings save', () => {
  it('names to the checker the rule it would break on the settings as they are now', async () => {
    const admin = (await h.pageAs('admin')).page;
    await admin.goto('/WithdrawMoneyConfig');
    await admin.getByTestId('settings-form').waitFor();
    // Only the maximum, below the stored minimum: the gateway cannot see the rule in the call alone.
    const minimum = store().settings.withdrawalConfig!.minAmount as number;
    const held = await admin.evaluate(
      async ({ url, max }) => {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ maxAmount: max }),
        });
        return (await res.json()) as { data?: { held?: boolean } };
      },
      { url: resourceCalls(WITHDRAWAL_CONFIG).config, max: minimum - 100 },
    );
    expect(held.data?.held).toBe(true);

    for (const size of SIZES) {
      const checker = (await h.pageAs('checker', size)).page;
      await checker.goto('/WithdrawMoneyConfig');
      await checker.getByTestId('held-confirm').click();
      const warning = checker.getByTestId('confirm-dialog').getByTestId('held-rule-warning');
      expect(await warning.textContent()).toBe(
        'Warning: with this change, Minimum amount would be more than Maximum amount.',
      );
    }
  });
});
