import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { storePreference, useHarness } from './harness.js';

const h = useHarness();

const rows = (page: Page) => page.locator('[data-testid="list-table"] tbody tr');
const dialog = (page: Page) => page.getByTestId('form-dialog');
const fieldError = (page: Page, key: string) => dialog(page).locator(`[data-error-for="${key}"]`);

/** The messages of the account and password policy, of too many decimals and of a bad link, per language. */
const MESSAGES = {
  en: {
    account: '3 to 32 characters: a-z, 0-9, _ . -',
    password: 'At least 10 characters, with letters and digits',
    save: 'Save',
    link: 'Enter a full link starting with https://',
  },
  zh: {
    account: '账号须为 3-32 位小写字母、数字或 _ . -',
    password: '密码至少 10 位，且须同时包含字母和数字',
    save: '保存',
    link: '链接格式错误，请输入以 https:// 开头的完整链接',
  },
  es: {
    account: 'De 3 a 32 caracteres: a-z, 0-9, _ . -',
    password: 'Al menos 10 caracteres, con letras y números',
    save: 'Guardar',
    link: null,
  },
  ja: {
    account: '3〜32文字の a-z、0-9、_ . - で入力してください',
    password: '10文字以上で、英字と数字を含めてください',
    save: '保存',
    link: null,
  },
} as const;

describe('form rules', () => {
  it.each(Object.keys(MESSAGES) as (keyof typeof MESSAGES)[])(
    'holds a new administrator to the account and password policy, with live hints, in %s',
    async (language) => {
      const text = MESSAGES[language];
      const { page } = await h.pageAs('admin');
      await storePreference(page, 'language', language);
      await page.goto('/system/admins');
      await rows(page).first().waitFor();
      await page.getByTestId('list-create').click();
      const account = dialog(page).locator('input[data-field="account"]');
      const password = dialog(page).locator('input[data-field="password"]');
      const accountHint = dialog(page).locator('[data-policy]').first();
      const passwordHint = dialog(page).locator('[data-policy]').nth(1);

      await account.fill('Ops Lead');
      await password.fill('short1');
      // The rules show as the administrator types, before any save.
      expect(await accountHint.getAttribute('data-policy')).toBe('unmet');
      expect(await accountHint.textContent()).toContain(text.account);
      expect(await passwordHint.getAttribute('data-policy')).toBe('unmet');
      await dialog(page).getByRole('button', { name: text.save }).click();
      expect(await fieldError(page, 'account').textContent()).toBe(text.account);
      expect(await fieldError(page, 'password').textContent()).toBe(text.password);

      await account.fill('ops.lead');
      await password.fill('long-enough-7');
      await expect.poll(() => accountHint.getAttribute('data-policy')).toBe('met');
      expect(await passwordHint.getAttribute('data-policy')).toBe('met');
    },
    60_000,
  );

  it('refuses an amount with three decimals with its own message, and saves one with two', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/SignInConfig');
    const reward = page.locator('[data-testid="settings-form"] input[data-field="dailyReward"]');
    await reward.waitFor();
    await reward.fill('1.234');
    await page.getByTestId('settings-form').getByRole('button', { name: 'Save' }).click();
    expect(await page.locator('[data-error-for="dailyReward"]').textContent()).toBe('At most two decimals');
    await reward.fill('1.23');
    await page.getByTestId('settings-form').getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-toast="success"]').first().waitFor();
    expect(h.sandbox.app.sandbox.settings.signInConfig!.dailyReward).toBe(123);
  });

  it('refuses an ftp:// link with 链接格式错误 and what a link needs', async () => {
    const { page } = await h.pageAs('admin');
    await storePreference(page, 'language', 'zh');
    await page.goto('/versionupdate/appupdate');
    await rows(page).first().waitFor();
    await page.getByTestId('list-create').click();
    await dialog(page).locator('input[data-field="downloadUrl"]').fill('ftp://dl.example.com/app.apk');
    await dialog(page).getByRole('button', { name: MESSAGES.zh.save }).click();
    expect(await fieldError(page, 'downloadUrl').textContent()).toBe(MESSAGES.zh.link);
  });

  it('asks “Discard your changes?” before a dialog with typed work closes, by Escape or Cancel, and keeps the work when told to', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/sensitivewords');
    await rows(page).first().waitFor();
    await page.getByTestId('list-create').click();
    const word = dialog(page).locator('input[data-field="word"]');
    await word.fill('typed-work');
    const leave = page.getByTestId('leave-dialog');

    await page.keyboard.press('Escape');
    await leave.waitFor();
    // Closing a dialog leaves no page: the question is about the dialog.
    expect(await leave.getByRole('heading').textContent()).toBe('Discard your changes?');
    expect(await leave.textContent()).not.toContain('Leave this page');
    await leave.getByRole('button', { name: 'Keep editing' }).click();
    await leave.waitFor({ state: 'detached' });
    expect(await word.inputValue()).toBe('typed-work');

    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    await leave.waitFor();
    await leave.getByRole('button', { name: 'Keep editing' }).click();
    expect(await word.inputValue()).toBe('typed-work');

    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    await leave.getByRole('button', { name: 'Discard' }).click();
    await dialog(page).waitFor({ state: 'detached' });

    // Leaving the page with the dialog's typed work still asks about the page.
    await page.getByTestId('list-create').click();
    await word.fill('typed-work');
    await page.evaluate(() => history.pushState(null, '', '/dashboard'));
    await leave.waitFor();
    expect(await leave.getByRole('heading').textContent()).toBe('Unsaved changes');
    await leave.getByRole('button', { name: 'Stay' }).click();
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    await leave.getByRole('button', { name: 'Discard' }).click();
    await dialog(page).waitFor({ state: 'detached' });

    // Nothing typed: Escape closes at once.
    await page.getByTestId('list-create').click();
    await word.waitFor();
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });
    expect(await leave.count()).toBe(0);
  });

  it('keeps a settings form with typed work through a size change, without asking to leave', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/SignInConfig');
    const reward = page.locator('[data-testid="settings-form"] input[data-field="dailyReward"]');
    await reward.waitFor();
    await reward.fill('7.77');
    await page.getByTestId('size-select').click();
    await page.locator('[data-size="small"]').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('size-small'))).toBe(true);
    expect(await page.getByTestId('leave-dialog').count()).toBe(0);
    expect(await reward.inputValue()).toBe('7.77');
  });

  it('cannot save an edit that changes nothing', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/homelist');
    await rows(page).first().waitFor();
    await rows(page).first().getByRole('button', { name: 'Edit' }).click();
    const save = dialog(page).getByTestId('form-submit');
    expect(await save.isDisabled()).toBe(true);
    await dialog(page).getByLabel('Title').fill('A changed title');
    expect(await save.isDisabled()).toBe(false);
  });
});
