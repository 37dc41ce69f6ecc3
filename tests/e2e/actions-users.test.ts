import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PERMISSIONS } from '../../server/contract/index.js';
import { loginForm } from '../support/login.js';
import { totp } from '../../sandbox/lib/totp.js';
import { errorToasts, useHarness, rowCommand } from './harness.js';

const h = useHarness();
const store = () => h.sandbox.app.sandbox;

const rows = (p: Page) => p.locator('[data-testid="list-table"] tbody tr');
const dialog = (p: Page) => p.getByTestId('form-dialog');
const menuLeaves = (p: Page) =>
  p.locator('[data-menu-path]').evaluateAll((els) => els.map((e) => e.getAttribute('data-menu-path')));

/** One logged-in administrator page for the whole file; other accounts get pages of their own. */
let page: Page;
beforeAll(async () => {
  page = (await h.pageAs('admin')).page;
});

/** Sends the login form with any account; resolves once the form answered one way or the other. */
async function submitLoginAs(p: Page, account: string, password: string): Promise<'in' | 'refused'> {
  await p.goto('/login');
  const form = loginForm(p);
  await form.account.fill(account);
  await form.password.fill(password);
  await form.submit.click();
  return Promise.race([
    p
      .getByTestId('layout')
      .waitFor()
      .then(() => 'in' as const),
    p
      .getByTestId('login-error')
      .waitFor()
      .then(() => 'refused' as const),
  ]);
}

describe('administrators: permissions and passwords', () => {
  it('creates an administrator who sees exactly the granted screens, logs in with a reset password and follows a permission change', async () => {
    await page.goto('/system/admins');
    await rows(page).first().waitFor();
    await page.getByTestId('list-create').click();
    await dialog(page).getByLabel('Account').fill('e2e_auditor');
    await dialog(page).getByLabel('Nickname').fill('E2E Auditor');
    await dialog(page).getByLabel('Password').fill('first-pass-1');
    for (const name of ['Sensitive words', 'Daily statistics', 'Withdrawal review'])
      await dialog(page).getByLabel(name, { exact: true }).check();
    await dialog(page).getByLabel('Status').selectOption('enabled');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    const created = store().accounts.find((a) => a.account === 'e2e_auditor')!;
    expect(created).toMatchObject({ nickname: 'E2E Auditor', status: 'enabled', googleBound: false });
    expect([...created.permissions].sort()).toEqual(
      [PERMISSIONS.sensitiveWord, PERMISSIONS.dailyStatistics, PERMISSIONS.cashWithdrawalCheck].sort(),
    );

    const auditor = (await h.newPage()).page;
    expect(await submitLoginAs(auditor, 'e2e_auditor', 'first-pass-1')).toBe('in');
    // The granted screens, the pages every account has, and nothing else.
    expect(await menuLeaves(auditor)).toEqual([
      '/dashboard',
      '/sensitivewords',
      '/operation/statistics',
      '/WithDrawMoneyCheck',
      '/error-log/log',
    ]);
    await auditor.goto('/sensitivewords');
    await rows(auditor).first().waitFor();
    await auditor.goto('/userpage/userset');
    await auditor.getByTestId('error-401').waitFor();
    expect(await auditor.locator('[data-screen]').count()).toBe(0);

    // A new password: the old one no longer logs in, the new one does.
    await page.getByTestId('list-keyword').fill('e2e_auditor');
    const row = page.locator(`[data-testid="list-table"] tbody tr[data-row-id="${created.id}"]`);
    await expect.poll(() => rows(page).count()).toBe(1);
    await rowCommand(row, '[data-action="resetPassword"]');
    expect(await dialog(page).textContent()).toContain('Run “Reset password” on e2e_auditor?');
    await dialog(page).getByLabel('Password').fill('second-pass-2');
    await dialog(page).getByRole('button', { name: 'Reset password' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    await page.locator('[data-toast="success"]', { hasText: '“Reset password” done: e2e_auditor' }).waitFor();

    const again = (await h.newPage()).page;
    expect(await submitLoginAs(again, 'e2e_auditor', 'first-pass-1')).toBe('refused');
    expect(await submitLoginAs(again, 'e2e_auditor', 'second-pass-2')).toBe('in');
    expect(await menuLeaves(again)).toContain('/operation/statistics');

    // Permissions changed on the existing account: the next load of its console follows them.
    await rowCommand(row, '[data-command="edit"]');
    expect(await dialog(page).getByLabel('Daily statistics', { exact: true }).isChecked()).toBe(true);
    await dialog(page).getByLabel('Daily statistics', { exact: true }).uncheck();
    await dialog(page).getByLabel('Billing records', { exact: true }).check();
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    expect([...store().accounts.get(created.id)!.permissions].sort()).toEqual(
      [PERMISSIONS.sensitiveWord, PERMISSIONS.cashWithdrawalCheck, PERMISSIONS.billRecord].sort(),
    );
    await again.reload();
    await again.getByTestId('layout').waitFor();
    expect(await menuLeaves(again)).toEqual([
      '/dashboard',
      '/sensitivewords',
      '/WithDrawMoneyCheck',
      '/BillingRecords',
      '/error-log/log',
    ]);
    await again.goto('/operation/statistics');
    await again.getByTestId('error-401').waitFor();
    expect(await errorToasts(page)).toEqual([]);
  });

  it('opens /error/401 directly inside the console frame, though no menu lists it', async () => {
    await page.goto('/error/401');
    await page.getByTestId('layout').waitFor();
    const shown = page.getByTestId('error-401');
    await shown.waitFor();
    expect(await shown.getByRole('heading', { level: 1 }).textContent()).toBe('No permission');
    expect(await page.locator('[data-menu-path^="/error/"]').count()).toBe(0);
    await shown.getByRole('link', { name: 'Back to home' }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard');
  });

  it('binds an authenticator from its QR code once one code proves it, the secret the backend keeps', async () => {
    await page.goto('/system/googleverify?googleBound=false');
    await rows(page).first().waitFor();
    const id = Number(await rows(page).first().getAttribute('data-row-id'));
    expect(store().accounts.get(id)!.googleBound).toBe(false);
    await rowCommand(rows(page).first(), '[data-action="bind"]');
    const result = page.getByTestId('result-dialog');
    const secret = (await result.locator('[data-result-key="secret"]').textContent())!;
    expect(await result.textContent()).toContain('Shown only once');
    // Scanned, not yet bound: the QR code carries the otpauth link of that very secret.
    await result.getByTestId('otpauth-qr').waitFor();
    expect(store().accounts.get(id)).toMatchObject({ googleBound: false, googlePendingSecret: secret });
    const codeInput = result.locator('input[data-field="otpCode"]');
    await codeInput.fill('12');
    await result.getByRole('button', { name: 'Confirm binding' }).click();
    expect(await result.getByTestId('authenticator-problem').textContent()).toBe(
      'Enter the 6 digits the authenticator shows',
    );
    await codeInput.fill(totp(secret, Date.now() + 10 * 60_000));
    await result.getByRole('button', { name: 'Confirm binding' }).click();
    await result.getByTestId('authenticator-problem').filter({ hasText: '验证码错误' }).waitFor();
    expect(store().accounts.get(id)!.googleBound).toBe(false);
    await codeInput.fill(totp(secret, Date.now()));
    await result.getByRole('button', { name: 'Confirm binding' }).click();
    await result.getByTestId('authenticator-bound').waitFor();
    expect(store().accounts.get(id)).toMatchObject({
      googleBound: true,
      googleSecret: secret,
      googlePendingSecret: null,
    });
    await result.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.locator(`tr[data-row-id="${id}"]`).count()).toBe(0);
  });
});

describe('chat users: a confirmed action with a result, and a bulk action', () => {
  it('resets a user password after the confirmation, shows it once and ends the user sessions', async () => {
    const user = store().users.find((u) => u.online && u.status === 'normal')!;
    expect(store().onlineSessions.get(user.id)).toBeDefined();
    await page.goto(`/userpage/userset?keyword=${encodeURIComponent(user.account)}`);
    const row = page.locator(`[data-testid="list-table"] tbody tr[data-row-id="${user.id}"]`);
    await rowCommand(row, '[data-action="resetPassword"]');
    const confirm = page.getByTestId('confirm-dialog');
    expect(await confirm.textContent()).toContain(`Run “Reset password” on ${user.account}?`);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    const result = page.getByTestId('result-dialog');
    expect(await result.locator('[data-result-key="password"]').textContent()).toMatch(/^\S{10}$/);
    expect(await result.textContent()).toContain('Shown only once');
    expect(store().onlineSessions.get(user.id)).toBeUndefined();
    expect(user.online).toBe(false);
    await result.getByRole('button', { name: 'Close' }).click();
    await result.waitFor({ state: 'detached' });
  });

  it('bans the selected users with one reason, without a confirmation, and offers to undo it', async () => {
    await page.goto('/userpage/userset?status=normal');
    await rows(page).first().waitFor();
    const ids = await rows(page).evaluateAll((trs) =>
      trs.slice(0, 3).map((tr) => Number(tr.getAttribute('data-row-id'))),
    );
    for (const id of ids) await page.getByLabel(`Select row ${id}`, { exact: true }).check();
    expect(await page.getByTestId('selection-count').textContent()).toBe('3 selected');

    await page.locator('[data-bulk-action="ban"]').click();
    // The reason is asked; whether to ban is not: the toast's Undo takes it back.
    expect(await dialog(page).textContent()).not.toContain('Run “Ban”');
    await dialog(page).getByLabel('Reason').fill('Coordinated spam, found by the e2e test');
    await dialog(page).getByRole('button', { name: 'Ban' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    const accounts = ids.map((id) => store().users.get(id)!.account);
    const toast = page.locator('[data-toast="success"]', { hasText: `Banned ${accounts.join(', ')}` });
    await toast.waitFor();
    expect(await toast.locator('[data-toast-action]').textContent()).toBe('Undo');
    for (const id of ids)
      expect(store().users.get(id)).toMatchObject({
        status: 'banned',
        banReason: 'Coordinated spam, found by the e2e test',
      });
    // The selection is gone with the rows it named.
    expect(await page.getByTestId('selection-count').count()).toBe(0);
    for (const id of ids) await expect.poll(() => page.locator(`tr[data-row-id="${id}"]`).count()).toBe(0);
  });
});
