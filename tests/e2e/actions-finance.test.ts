import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatAmount } from '../../web/lib/format.js';
import { formatMoneyIn } from '../../web/engine/shared/money.js';
import { errorToasts, useHarness, rowCommand, downloadedText } from './harness.js';
import { parseCsv } from '../support/csv.js';

// No sandbox timer adding withdrawals: every change of the review queue is one a test made.
const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });
const store = () => h.sandbox.app.sandbox;

const rows = (p: Page) => p.locator('[data-testid="list-table"] tbody tr');
const dialog = (p: Page) => p.getByTestId('form-dialog');

/** One logged-in page for the whole file: a browser and a login per test would cost more than the tests. */
let page: Page;
beforeAll(async () => {
  page = (await h.pageAs('admin')).page;
});

describe('finance screens: their own actions', () => {
  it('exports a filtered billing list as CSV with the rows and the total the sandbox holds', async () => {
    await page.goto('/BillingRecords');
    await rows(page).first().waitFor();
    await page.locator('[data-filter="type"]').selectOption('withdraw');
    await page.waitForURL((u) => u.searchParams.get('type') === 'withdraw');
    // A start date inside the seeded history, so the range filter takes part too.
    const all = store()
      .bills.all()
      .filter((b) => b.type === 'withdraw');
    const days = [...new Set(all.map((b) => b.createTime.slice(0, 10)))].sort();
    const from = days[Math.floor(days.length / 3)]!;
    await page.locator('[data-filter="createTimeFrom"]').fill(from);
    await page.waitForURL((u) => u.searchParams.get('createTimeFrom') === from);

    const expected = all.filter((b) => b.createTime.slice(0, 10) >= from);
    const sum = expected.reduce((s, b) => s + b.amount, 0);
    // More rows than one page of the table: the export is the whole filtered set, not the view.
    expect(expected.length).toBeGreaterThan(20);
    expect(expected.length).toBeLessThan(all.length);
    await expect.poll(() => page.getByTestId('list-total').textContent()).toBe(`${expected.length} in total`);
    expect(await page.locator('[data-total="amount"]').textContent()).toBe(formatMoneyIn(sum, 'en'));

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^billingRecords-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await downloadedText(download);
    expect(text.startsWith('\uFEFF')).toBe(true);
    const [header, ...lines] = parseCsv(text.slice(1));
    expect(header).toEqual(['ID', 'User account', 'Type', 'Amount', 'Balance after', 'Remark', 'Created at']);
    const byId = new Map(expected.map((b) => [String(b.id), b]));
    // An account such as +8613… is a number to a spreadsheet, not a formula: written as it is.
    expect(expected.some((b) => b.userAccount.startsWith('+'))).toBe(true);
    expect(lines.map((l) => l[0]).sort()).toEqual([...byId.keys()].sort());
    for (const [id, account, type, amount, , , created] of lines) {
      const bill = byId.get(id!)!;
      expect([account, type, amount]).toEqual([bill.userAccount, 'Withdrawal', formatAmount(bill.amount)]);
      // Times in ISO 8601, the same instant whatever the reader's time zone.
      expect(created).toBe(new Date(bill.createTime).toISOString());
    }
    const csvCents = lines.reduce((s, l) => s + Math.round(Number(l[3]) * 100), 0);
    expect(csvCents).toBe(sum);
    await page.locator('[data-toast="success"]', { hasText: `Exported ${expected.length} rows` }).waitFor();
  });

  it('rejects a withdrawal only with a reason, refunds it, then syncs the waiting applications', async () => {
    await page.goto('/WithDrawMoneyCheck?state=pending');
    await rows(page).first().waitFor();
    const id = Number(await rows(page).first().getAttribute('data-row-id'));
    const record = store().withdrawals.get(id)!;
    const user = store().users.get(record.userId)!;
    const balanceBefore = user.balance;

    await rowCommand(rows(page).first(), '[data-action="reject"]');
    // The question names the application: whose it is, how much, and where the money would go.
    expect(await dialog(page).textContent()).toContain(
      `Reject the withdrawal of ¥${formatMoneyIn(record.amount, 'en')} to ${record.userAccount} (`,
    );
    expect(await dialog(page).locator('[data-record-field="amount"]').textContent()).toBe(
      `¥${formatMoneyIn(record.amount, 'en')}`,
    );
    expect(await dialog(page).locator('[data-record-field="accountInfo"]').textContent()).toBe(record.accountInfo);
    await dialog(page).getByRole('button', { name: 'Reject' }).click();
    expect(await dialog(page).locator('[data-error-for="reason"]').textContent()).toBe('This field is required');
    expect(store().withdrawals.get(id)!.state).toBe('pending');
    await dialog(page).getByLabel('Reason').fill('Payee name does not match the account');
    await dialog(page).getByRole('button', { name: 'Reject' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    await page.locator('[data-toast="success"]', { hasText: `“Reject” done: ${record.userAccount}` }).waitFor();
    expect(store().withdrawals.get(id)).toMatchObject({
      state: 'rejected',
      reason: 'Payee name does not match the account',
      reviewer: 'admin',
    });
    expect(user.balance).toBe(balanceBefore + record.amount);
    await expect.poll(() => page.locator(`tr[data-row-id="${id}"]`).count()).toBe(0);

    // Applications the payment side holds come in with the sync, and the answer says how many.
    const waiting = store().counters.unsyncedWithdrawals;
    expect(waiting).toBeGreaterThan(0);
    const pending = store().pendingWithdrawalCount();
    await page.locator('[data-action="syncCashWithdrawal"]').click();
    const result = page.getByTestId('result-dialog');
    expect(await result.locator('[data-result-key="synced"]').textContent()).toBe(String(waiting));
    expect(store().pendingWithdrawalCount()).toBe(pending + waiting);
    expect(store().counters.unsyncedWithdrawals).toBe(0);
    await result.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByTestId('list-total').textContent()).toBe(`${pending + waiting} in total`);
    expect(await errorToasts(page)).toEqual([]);
  });

  it('keeps a settings form that breaks a rule between its fields, then saves it and shows the saved values after a reload', async () => {
    await page.goto('/WithdrawMoneyConfig');
    const form = page.getByTestId('settings-form');
    await form.waitFor();
    const before = { ...store().settings.withdrawalConfig };
    await form.getByLabel('Minimum amount').fill('60000');
    await form.getByLabel('Maximum amount').fill('500.00');
    await form.getByRole('button', { name: 'Save' }).click();
    // The contract's rule (minimum <= maximum) is checked in the form, under the field, before anything is sent.
    expect(await form.locator('[data-error-for="minAmount"]').textContent()).toBe(
      'Must not be more than Maximum amount',
    );
    expect(store().settings.withdrawalConfig).toEqual(before);
    await page.getByTestId('unsaved').waitFor();
    // Discarding goes back to what the backend holds.
    await form.getByRole('button', { name: 'Discard changes' }).click();
    expect(await form.getByLabel('Minimum amount').inputValue()).toBe(formatAmount(before.minAmount as number));
    expect(await page.getByTestId('unsaved').count()).toBe(0);
    expect(await form.getByTestId('form-server-error').count()).toBe(0);

    await form.getByLabel('Maximum amount').fill('500.00');
    await form.getByLabel('Minimum amount').fill('150.5');
    await form.getByLabel('Notice').fill('Reviewed within one working day.');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-toast="success"]', { hasText: 'Saved' }).waitFor();
    expect(store().settings.withdrawalConfig).toEqual({
      ...before,
      minAmount: 15050,
      maxAmount: 50000,
      notice: 'Reviewed within one working day.',
    });
    expect(await page.getByTestId('unsaved').count()).toBe(0);

    await page.reload();
    const again = page.getByTestId('settings-form');
    await expect.poll(() => again.getByLabel('Minimum amount').inputValue()).toBe('150.50');
    expect(await again.getByLabel('Maximum amount').inputValue()).toBe('500.00');
    expect(await again.getByLabel('Notice').inputValue()).toBe('Reviewed within one working day.');
  });
});
