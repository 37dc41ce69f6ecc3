import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { WithdrawalRecord } from '../../server/contract/index.js';
import { formatMoneyIn } from '../../web/engine/shared/money.js';
import { formatCurrency } from '../../web/lib/currency.js';
import { seriousViolations } from '../support/axe.js';
import { errorToasts, rowCommand, storePreference, useHarness } from './harness.js';

/*
 * The approve and reject dialogs of the withdrawal review, beside their row, on a laptop
 * (1440x900) and a phone (390x844): the question stays in view, the reviewer's facts are read
 * without a short box to scroll on the laptop, and an amount is written one way in one dialog.
 */
const h = useHarness({ sandbox: { withdrawalTickMs: 0 }, env: { DUAL_CONTROL_ABOVE: '10000' } });
const store = () => h.sandbox.app.sandbox;

const LAPTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const FACTS = ['amount', 'fee', 'net', 'currency', 'account-age', 'last-30-days', 'balance', 'same-payee'];
const money = (cents: number) => formatCurrency(cents, 'en', 'CNY');

function applyWithdrawal(amount: number, userIndex: number): WithdrawalRecord {
  const user = store()
    .users.all()
    .filter((u) => u.status === 'normal')[userIndex]!;
  if (user.balance < amount) store().ledger.post(user, 'recharge', amount, Date.now(), 'Online recharge');
  return store().ledger.applyWithdrawal(user, amount, Date.now());
}

/** Whether a person sees the element: in the window, and on top where its middle is (not scrolled away in its box, not covered). */
async function inView(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    if (r.top < 0 || r.left < 0 || r.bottom > window.innerHeight || r.right > window.innerWidth) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  });
}

/** The facts shown once every look-up has answered. */
async function factsLoaded(dialog: Locator): Promise<void> {
  for (const name of FACTS) {
    await expect.poll(() => dialog.locator(`[data-review="${name}"]`).textContent()).not.toMatch(/^$|Loading…/);
  }
}

/** Every amount in the dialog's text written as `money` writes it: none bare, none as a code. */
function amountWrittenOneWay(text: string, cents: number): void {
  const figure = formatMoneyIn(cents, 'en');
  const each = text.split(figure).length - 1;
  expect(each).toBeGreaterThan(1);
  expect(text.split(money(cents)).length - 1).toBe(each);
  expect(text).not.toMatch(/CNY\s?\d/);
}

async function openQueueAs(size: { width: number; height: number }): Promise<Page> {
  const { page } = await h.pageAs('admin', size);
  await page.goto('/WithDrawMoneyCheck?sort=-createTime');
  await page.locator('[data-row-id]').first().waitFor();
  return page;
}

describe('the review dialogs beside their row', { timeout: 90_000 }, () => {
  it('at 1440x900 show the question, the record and every fact at once, the amount one way', async () => {
    const page = await openQueueAs(LAPTOP);
    // A row a little above the window's middle, where a dialog beside it has the least room.
    const row = page.locator('[data-testid="list-table"] tbody tr').nth(5);
    const record = store().withdrawals.get(Number(await row.getAttribute('data-row-id')))!;
    await page.evaluate((id) => {
      const el = document.querySelector(`tr[data-row-id="${id}"]`)!;
      window.scrollBy(0, el.getBoundingClientRect().top - 380);
    }, record.id);
    await expect.poll(() => row.evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBe(380);

    await row.locator('[data-action="approve"]').click();
    const dialog = page.getByTestId('confirm-dialog');
    await factsLoaded(dialog);
    expect(await inView(dialog.getByRole('heading'))).toBe(true);
    for (const name of FACTS) expect(await inView(dialog.locator(`[data-review="${name}"]`)), name).toBe(true);
    for (const field of ['userAccount', 'amount', 'method', 'accountInfo'])
      expect(await inView(dialog.locator(`[data-record-field="${field}"]`)), field).toBe(true);
    expect(await inView(dialog.getByRole('button', { name: 'Approve' }))).toBe(true);
    // Nothing of it waits in a box to scroll.
    const body = dialog.getByTestId('dialog-body');
    expect(await body.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeLessThanOrEqual(1);
    amountWrittenOneWay((await dialog.textContent())!, record.amount);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Rejecting: the question stays in view while the reason is typed.
    await row.locator('[data-action="reject"]').click();
    const form = page.getByTestId('form-dialog');
    await factsLoaded(form);
    await form.getByLabel('Reason').fill('The payee name does not match the account holder');
    const question = form.getByTestId('dialog-question');
    expect(await question.textContent()).toContain(`Reject the withdrawal of ${money(record.amount)}`);
    expect(await inView(question)).toBe(true);
    for (const name of FACTS) expect(await inView(form.locator(`[data-review="${name}"]`)), name).toBe(true);
    expect(await inView(form.getByRole('button', { name: 'Reject' }))).toBe(true);
    amountWrittenOneWay((await form.textContent())!, record.amount);
    expect(store().withdrawals.get(record.id)!.state).toBe('pending');
    expect(await errorToasts(page)).toEqual([]);
  });

  it('at 390 px keep the question and the buttons in view while the facts scroll', async () => {
    const record = applyWithdrawal(123_456, 6);
    const page = await openQueueAs(PHONE);
    // In the dark, where the note's colours must read as well.
    await storePreference(page, 'colorScheme', 'dark');
    await page.reload();
    const card = page.locator(`[data-testid="list-cards"] [data-row-id="${record.id}"]`);
    await card.waitFor();

    await rowCommand(card, '[data-action="approve"]');
    const dialog = page.getByTestId('confirm-dialog');
    await factsLoaded(dialog);
    // Read to the end: the last fact comes into view, the question and the answer stay.
    await dialog.locator('[data-review="same-payee"]').scrollIntoViewIfNeeded();
    await expect.poll(() => inView(dialog.locator('[data-review="same-payee"]'))).toBe(true);
    expect(await inView(dialog.getByRole('heading'))).toBe(true);
    expect(await inView(dialog.getByTestId('needs-second-approver'))).toBe(true);
    expect(await inView(dialog.getByRole('button', { name: 'Approve' }))).toBe(true);
    amountWrittenOneWay((await dialog.textContent())!, record.amount);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    await rowCommand(card, '[data-action="reject"]');
    const form = page.getByTestId('form-dialog');
    await factsLoaded(form);
    await form.getByLabel('Reason').fill('The payee name does not match the account holder');
    expect(await inView(form.getByTestId('dialog-question'))).toBe(true);
    expect(await inView(form.getByLabel('Reason'))).toBe(true);
    expect(await inView(form.getByRole('button', { name: 'Reject' }))).toBe(true);
    expect(await errorToasts(page)).toEqual([]);
  });
});
