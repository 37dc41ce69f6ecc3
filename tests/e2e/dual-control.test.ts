import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { WithdrawalRecord } from '../../server/contract/index.js';
import { maskAccounts } from '../../web/lib/account-mask.js';
import { formatCurrency } from '../../web/lib/currency.js';
import { formatDay } from '../../web/lib/format.js';
import { seriousViolations } from '../support/axe.js';
import { errorToasts, storePreference, useHarness } from './harness.js';

/*
 * Two-person approval in the browser, against the sandbox: DUAL_CONTROL_ABOVE=10000 (100.00) and
 * the withdrawal settings held too. The first administrator (admin) and the second (checker) each
 * have a browser of their own; the sandbox's data says what reached the backend and when.
 */
const h = useHarness({
  sandbox: { withdrawalTickMs: 0 },
  env: { DUAL_CONTROL_ABOVE: '10000', DUAL_CONTROL_SETTINGS: 'withdrawalConfig' },
});
const store = () => h.sandbox.app.sandbox;

const rows = (p: Page) => p.locator('[data-testid="list-table"] tbody tr');
const row = (p: Page, id: number) => p.locator(`tr[data-row-id="${id}"]`);
const confirm = (p: Page) => p.getByTestId('confirm-dialog');
// One way of writing an amount in every dialog and panel: the symbol of the record's currency.
const money = (cents: number) => formatCurrency(cents, 'en', 'CNY');
/** What a held approval names: "Approve #459 · ¥1,013.00 to Santander ...8759". */
const subject = (record: WithdrawalRecord) =>
  `Approve #${record.id} · ${money(record.amount)} to ${maskAccounts(record.accountInfo, record.payeeAccount)}`;

/** A new pending application, by a user topped up first when needed (so each test has its own). */
function applyWithdrawal(amount: number, userIndex = 0): WithdrawalRecord {
  const users = store()
    .users.all()
    .filter((u) => u.status === 'normal');
  const user = users[userIndex]!;
  if (user.balance < amount) store().ledger.post(user, 'recharge', amount, Date.now(), 'Online recharge');
  return store().ledger.applyWithdrawal(user, amount, Date.now());
}

async function openQueue(p: Page) {
  await p.goto('/WithDrawMoneyCheck');
  await rows(p).first().waitFor();
}

// Two browsers at once in some tests, on a shared 2-core machine: more time than one page needs.
describe('dual control', { timeout: 90_000 }, () => {
  it('holds a large approval until a second administrator, in another browser, confirms it', async () => {
    const record = applyWithdrawal(500_000);
    const admin = (await h.pageAs('admin')).page;
    await openQueue(admin);
    // The queue opens on what still waits.
    expect(new URL(admin.url()).search).toBe('');
    expect(await admin.locator('[data-filter="state"]').inputValue()).toBe('pending');

    await row(admin, record.id).locator('[data-action="approve"]').click();
    await confirm(admin).getByTestId('review-context').waitFor();
    await confirm(admin).getByRole('button', { name: 'Approve' }).click();
    await admin
      .locator('[data-toast="info"]', { hasText: `${subject(record)}: waits for a second approver` })
      .waitFor();
    await row(admin, record.id).getByTestId('held-chip').waitFor();
    expect(await row(admin, record.id).getByTestId('held-chip').textContent()).toBe('Waiting for a second approver');
    // The first approver's own approve button waits, saying why.
    expect(await row(admin, record.id).locator('[data-action="approve"]').isDisabled()).toBe(true);
    const mine = admin.locator('[data-testid="held-approvals"] li[data-mine]');
    expect(await mine.getByTestId('held-meta').textContent()).toContain('Requested by you');
    expect(await mine.getByTestId('held-confirm').count()).toBe(0);
    expect(store().withdrawals.get(record.id)!.state).toBe('pending');

    const checker = (await h.pageAs('checker')).page;
    await openQueue(checker);
    const theirs = checker.locator('[data-testid="held-approvals"] li').filter({ hasText: `#${record.id} ·` });
    expect(await theirs.getByTestId('held-meta').textContent()).toContain('Requested by admin ·');
    expect(await row(checker, record.id).locator('[data-action="approve"]').textContent()).toBe('Confirm approval');
    await theirs.getByTestId('held-confirm').click();
    const dialog = confirm(checker);
    expect(await dialog.getByRole('heading').textContent()).toBe(
      `Confirm “${subject(record)}”, requested by admin? It is sent now, in your name.`,
    );
    expect(await dialog.locator('[data-review="net"]').textContent()).toBe(money(record.actualAmount));
    // The checker holds the finance screens only: the user's profile is not theirs to read.
    expect(await dialog.locator('[data-review="account-age"]').textContent()).toBe(
      'Not available with your permissions',
    );
    // The held row, its line, the panel and the dialog over them are as accessible as the rest of the list.
    expect(await seriousViolations(checker)).toEqual([]);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await checker.locator('[data-toast="success"]', { hasText: `Confirmed and sent: ${subject(record)}` }).waitFor();
    await expect.poll(() => store().withdrawals.get(record.id)!.state).toBe('approved');
    expect(store().withdrawals.get(record.id)!.reviewer).toBe('checker');
    // Approved: gone from the pending queue, and from the held calls.
    await row(checker, record.id).waitFor({ state: 'detached' });
    expect(
      await checker
        .locator(`[data-testid="held-approvals"] li`)
        .filter({ hasText: `#${record.id} ·` })
        .count(),
    ).toBe(0);
    expect(await errorToasts(checker)).toEqual([]);
  });

  it('names what a held approval moves and who asked, says so before the click, and leaves it unreviewed until settled', async () => {
    const small = applyWithdrawal(10_000, 3);
    const large = applyWithdrawal(101_300, 4);
    const admin = (await h.pageAs('admin')).page;
    await openQueue(admin);

    // At or under the line: approved at once, and the dialog says nothing of a second approver.
    await row(admin, small.id).locator('[data-action="approve"]').click();
    await confirm(admin).getByTestId('review-context').waitFor();
    expect(await confirm(admin).getByTestId('needs-second-approver').count()).toBe(0);
    await confirm(admin).getByRole('button', { name: 'Approve' }).click();
    await admin.locator('[data-toast="success"]', { hasText: `“Approve” done: ${small.userAccount}` }).waitFor();

    // Over it: the dialog says, before the click, that the approval will wait.
    await row(admin, large.id).locator('[data-action="approve"]').click();
    const note = confirm(admin).getByTestId('needs-second-approver');
    await note.waitFor();
    expect(await note.textContent()).toBe(
      `Needs a second approver: above ${money(10_000)}, this approval waits until another administrator confirms it.`,
    );
    await confirm(admin).getByRole('button', { name: 'Approve' }).click();
    await admin.locator('[data-toast="info"]', { hasText: `${subject(large)}: waits for a second approver` }).waitFor();

    // The panel names the application, the amount and where it goes, the account masked.
    const mine = admin.locator('[data-testid="held-approvals"] li').filter({ hasText: `#${large.id} ·` });
    expect(await mine.getByTestId('held-subject').textContent()).toBe(subject(large));
    expect(subject(large)).toContain('...');
    expect(await mine.textContent()).not.toContain(large.payeeAccount);

    // Nobody has reviewed the held application yet: its reviewer stays empty while the one
    // approved beside it names admin (both rows drawn from the same look-up of the trail).
    await admin.goto('/WithDrawMoneyCheck?state=&sort=-createTime');
    await expect.poll(() => row(admin, small.id).locator('[data-col="reviewedBy"]').textContent()).toBe('admin');
    expect(await row(admin, large.id).locator('[data-col="reviewedBy"]').textContent()).toBe('—');

    // Settled by the checker: now it has a reviewer, the one who confirmed it.
    const checker = (await h.pageAs('checker')).page;
    await openQueue(checker);
    const theirs = checker.locator('[data-testid="held-approvals"] li').filter({ hasText: `#${large.id} ·` });
    expect(await theirs.getByTestId('held-subject').textContent()).toBe(subject(large));
    expect(await theirs.getByTestId('held-meta').textContent()).toContain('Requested by admin ·');
    await theirs.getByTestId('held-confirm').click();
    await confirm(checker).getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => store().withdrawals.get(large.id)!.state).toBe('approved');
    await checker.goto('/WithDrawMoneyCheck?state=&sort=-createTime');
    await expect.poll(() => row(checker, large.id).locator('[data-col="reviewedBy"]').textContent()).toBe('checker');
    expect(await errorToasts(admin)).toEqual([]);
    expect(await errorToasts(checker)).toEqual([]);
  });

  it('holds a settings change, showing the confirmer each field before and after, and applies it once confirmed', async () => {
    const before = { ...store().settings.withdrawalConfig! };
    const admin = (await h.pageAs('admin')).page;
    await admin.goto('/WithdrawMoneyConfig');
    const form = admin.getByTestId('settings-form');
    await form.waitFor();
    await form.getByLabel('Notice').fill('Large withdrawals take a second look.');
    await form.getByRole('button', { name: 'Save' }).click();
    await admin.locator('[data-toast="info"]', { hasText: 'Saved for a second approver' }).waitFor();
    // The form shows what holds now; the change waits in the panel.
    expect(await form.getByLabel('Notice').inputValue()).toBe(String(before.notice));
    await admin.getByTestId('held-approvals').waitFor();
    expect(store().settings.withdrawalConfig).toEqual(before);

    const checker = (await h.pageAs('checker')).page;
    await checker.goto('/WithdrawMoneyConfig');
    const change = checker.locator('[data-testid="held-approvals"] [data-change="notice"]');
    await change.waitFor();
    expect(await change.locator('[data-before]').textContent()).toBe(String(before.notice));
    expect(await change.locator('[data-after]').textContent()).toBe('Large withdrawals take a second look.');
    await storePreference(checker, 'colorScheme', 'dark');
    await checker.reload();
    await change.waitFor();
    expect(await seriousViolations(checker)).toEqual([]);
    await checker.getByTestId('held-confirm').click();
    await confirm(checker).getByTestId('held-changes').waitFor();
    await confirm(checker).getByRole('button', { name: 'Confirm' }).click();
    await checker.locator('[data-toast="success"]', { hasText: 'Confirmed: the settings are saved' }).waitFor();
    await expect.poll(() => store().settings.withdrawalConfig!.notice).toBe('Large withdrawals take a second look.');
    await expect
      .poll(() => checker.getByTestId('settings-form').getByLabel('Notice').inputValue())
      .toBe('Large withdrawals take a second look.');
    expect(await checker.getByTestId('held-approvals').count()).toBe(0);
  });

  it('moves between rows with j and k, and a and r open the approval and the rejection of the current row', async () => {
    const admin = (await h.pageAs('admin')).page;
    await openQueue(admin);
    await admin.getByTestId('list-keys-hint').waitFor();
    const ids = await rows(admin).evaluateAll((trs) => trs.slice(0, 2).map((tr) => tr.getAttribute('data-row-id')));
    const current = () => admin.locator('tr[data-current]').getAttribute('data-row-id');
    const focused = () => admin.evaluate(() => document.activeElement?.getAttribute('data-row-id') ?? null);

    await admin.keyboard.press('j');
    await expect.poll(current).toBe(ids[0]);
    expect(await focused()).toBe(ids[0]);
    await admin.keyboard.press('j');
    await expect.poll(current).toBe(ids[1]);
    expect(await focused()).toBe(ids[1]);
    await admin.keyboard.press('k');
    await expect.poll(current).toBe(ids[0]);

    const first = store().withdrawals.get(Number(ids[0]))!;
    await admin.keyboard.press('a');
    await confirm(admin).waitFor();
    // The money wording names the amount, the applicant and the method: "Approve ¥270.00 to +34… (USDT)?".
    const approveQuestion = (await confirm(admin).getByRole('heading').textContent())!;
    expect(approveQuestion.startsWith('Approve ')).toBe(true);
    expect(approveQuestion).toContain(` to ${first.userAccount} (`);
    // Keys are the dialog's while it is open.
    await admin.keyboard.press('j');
    await admin.keyboard.press('Escape');
    await confirm(admin).waitFor({ state: 'detached' });
    expect(await current()).toBe(ids[0]);

    await admin.keyboard.press('r');
    const reject = admin.getByTestId('form-dialog');
    await reject.waitFor();
    expect(await reject.textContent()).toContain('Reject the withdrawal of ');
    expect(await reject.textContent()).toContain(` to ${first.userAccount} (`);
    await reject.getByRole('button', { name: 'Cancel' }).click();
    await reject.waitFor({ state: 'detached' });
    expect(store().withdrawals.get(first.id)!.state).toBe('pending');
  });

  it('shows the reviewer the fee, the net amount, the currency and the user behind an application', async () => {
    const record = applyWithdrawal(123_400, 1);
    // Someone else was paid to the same account.
    const other = applyWithdrawal(50_000, 2);
    other.payeeAccount = record.payeeAccount;
    const user = store().users.get(record.userId)!;
    const since = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const recent = store()
      .withdrawals.all()
      .filter((w) => w.userAccount === record.userAccount && w.createTime.slice(0, 10) >= since);

    const admin = (await h.pageAs('admin')).page;
    await openQueue(admin);
    await row(admin, record.id).locator('[data-action="approve"]').click();
    const context = confirm(admin).getByTestId('review-context');
    const fact = (name: string) => context.locator(`[data-review="${name}"]`);
    await context.waitFor();
    expect(await fact('amount').textContent()).toBe(money(123_400));
    expect(await fact('fee').textContent()).toBe(money(record.fee));
    expect(await fact('net').textContent()).toBe(money(123_400 - record.fee));
    expect(await fact('currency').textContent()).toBe('CNY');
    await expect
      .poll(() => fact('account-age').textContent())
      .toContain(`(since ${formatDay(user.registerTime.slice(0, 10), 'en')})`);
    await expect.poll(() => fact('balance').textContent()).toBe(money(user.balance));
    const sum = recent.reduce((total, w) => total + w.amount, 0);
    await expect
      .poll(() => fact('last-30-days').textContent())
      .toBe(`${recent.length} withdrawal${recent.length === 1 ? '' : 's'}, totalling ${money(sum)}`);
    await expect.poll(() => fact('same-payee').textContent()).toBe(`1: ${other.userAccount}`);
    expect(await seriousViolations(admin)).toEqual([]);
    await confirm(admin).getByRole('button', { name: 'Cancel' }).click();

    // Rejecting asks for a reason beside the same figures.
    await row(admin, record.id).locator('[data-action="reject"]').click();
    const reject = admin.getByTestId('form-dialog');
    expect(await reject.locator('[data-review="net"]').textContent()).toBe(money(123_400 - record.fee));
    await reject.getByRole('button', { name: 'Cancel' }).click();
    await reject.waitFor({ state: 'detached' });

    // A selection's confirmation adds them up.
    for (const id of [record.id, other.id]) await row(admin, id).locator('input[type="checkbox"]').check();
    await admin.locator('[data-bulk-action="approve"]').click();
    const total = confirm(admin).getByTestId('review-total');
    expect(await total.locator('[data-review="total-amount"]').textContent()).toBe(money(123_400 + 50_000));
    expect(await total.locator('[data-review="total-net"]').textContent()).toBe(
      money(record.actualAmount + other.actualAmount),
    );
    await confirm(admin).getByRole('button', { name: 'Cancel' }).click();
    expect(await errorToasts(admin)).toEqual([]);
  });
});
