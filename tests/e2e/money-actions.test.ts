import type { IncomingMessage } from 'node:http';
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../server/contract/index.js';
import { formatMoneyIn } from '../../web/engine/shared/money.js';
import en from '../../web/i18n/resources/en.js';
import { errorToasts, useHarness } from './harness.js';

/*
 * Withdrawal review, the actions that move money: confirmed naming the record, sent once however
 * often the button is pressed, run over a selection row by row with a summary, and the list
 * offering what arrived while it was open. No sandbox timer: every new application is the test's;
 * a short gateway poll so the badge follows the sandbox quickly.
 */
const h = useHarness({ pollMs: 300, events: { heartbeatMs: 1_000, retryMs: 500 }, sandbox: { withdrawalTickMs: 0 } });
const store = () => h.sandbox.app.sandbox;
const REVIEW = PERMISSIONS.cashWithdrawalCheck;

const rows = (p: Page) => p.locator('[data-testid="list-table"] tbody tr');
const confirm = (p: Page) => p.getByTestId('confirm-dialog');

/** The POSTs the sandbox backend itself received for one action: what the gateway really sent on. */
let received: string[] = [];
const listen = (req: IncomingMessage) => {
  if (req.method === 'POST' && req.url?.startsWith(`${REVIEW}/`)) received.push(req.url);
};
const calls = (name: string) => received.filter((u) => u === `${REVIEW}/${name}`).length;

/** An amount as the questions write it: the sandbox's currency (CNY), the English way. */
const money = (cents: number) => `¥${formatMoneyIn(cents, 'en')}`;
const method = (value: string) => (en as Record<string, string>)[`option.method.${value}`];

let page: Page;
beforeAll(async () => {
  h.sandbox.app.server.on('request', listen);
  page = (await h.pageAs('admin')).page;
});
afterEach(() => {
  received = [];
});

async function openPending(p: Page) {
  await p.goto('/WithDrawMoneyCheck?state=pending&sort=-createTime');
  await rows(p).first().waitFor();
}

describe('money actions on withdrawal review', () => {
  it('confirms an approval naming amount, user and payee account, and a double click sends it once', async () => {
    await openPending(page);
    const id = Number(await rows(page).first().getAttribute('data-row-id'));
    const record = store().withdrawals.get(id)!;

    // One click (or two) only asks: nothing reaches the backend before the confirmation.
    await rows(page).first().locator('[data-action="approve"]').dblclick();
    await confirm(page).waitFor();
    expect(calls('approve')).toBe(0);
    // As a person would ask it: how much, to whom, how.
    expect(await confirm(page).getByRole('heading').textContent()).toBe(
      `Approve ${money(record.amount)} to ${record.userAccount} (${method(record.method)})?`,
    );
    const summary = confirm(page).getByTestId('record-summary');
    expect(await summary.locator('[data-record-field="userAccount"]').textContent()).toBe(record.userAccount);
    // Written as the question writes it: one way in one dialog.
    expect(await summary.locator('[data-record-field="amount"]').textContent()).toBe(money(record.amount));
    expect(await summary.locator('[data-record-field="accountInfo"]').textContent()).toBe(record.accountInfo);

    await confirm(page).getByRole('button', { name: 'Approve' }).dblclick();
    await confirm(page).waitFor({ state: 'detached' });
    await page.locator('[data-toast="success"]', { hasText: `“Approve” done: ${record.userAccount}` }).waitFor();
    expect(calls('approve')).toBe(1);
    expect(store().withdrawals.get(id)!.state).toBe('approved');
    expect(await errorToasts(page)).toEqual([]);
  });

  // The two guards against a second approval, each on its own: the call in flight is remembered
  // synchronously (a second click in the same frame, before the button can be disabled, is
  // dropped), and the confirming button is disabled until the answer comes.
  it('drops a second click that lands before the button is disabled: the in-flight guard alone sends once', async () => {
    await openPending(page);
    const id = Number(await rows(page).first().getAttribute('data-row-id'));
    const record = store().withdrawals.get(id)!;
    await rows(page).first().locator('[data-action="approve"]').click();
    // Two clicks in one task: React has not drawn the busy button between them, so the second
    // reaches the handler as the first did, and only the in-flight record can stop it.
    const disabledBetween = await confirm(page)
      .getByTestId('confirm-yes')
      .evaluate((button: HTMLButtonElement) => {
        button.click();
        const disabled = button.disabled;
        button.click();
        return disabled;
      });
    expect(disabledBetween).toBe(false);
    await confirm(page).waitFor({ state: 'detached' });
    await page.locator('[data-toast="success"]', { hasText: `“Approve” done: ${record.userAccount}` }).waitFor();
    expect(calls('approve')).toBe(1);
    expect(store().withdrawals.get(id)!.state).toBe('approved');
    expect(await errorToasts(page)).toEqual([]);
  });

  it('disables the confirming button, and Cancel, while the approval is on its way', async () => {
    await openPending(page);
    const id = Number(await rows(page).first().getAttribute('data-row-id'));
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let sent = 0;
    await page.route(`**${REVIEW}/approve`, async (route) => {
      sent++;
      await released;
      await route.continue();
    });
    try {
      await rows(page).first().locator('[data-action="approve"]').click();
      const yes = confirm(page).getByTestId('confirm-yes');
      await yes.click();
      await expect.poll(() => sent).toBe(1);
      // Held at the browser: the backend has nothing yet, and the dialog waits, its buttons disabled.
      expect(calls('approve')).toBe(0);
      await expect.poll(() => yes.isDisabled()).toBe(true);
      expect(await yes.textContent()).toBe('Running…');
      expect(await confirm(page).getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true);
      expect(await confirm(page).getAttribute('aria-busy')).toBe('true');
      release();
      await confirm(page).waitFor({ state: 'detached' });
    } finally {
      release();
      await page.unroute(`**${REVIEW}/approve`);
    }
    expect(sent).toBe(1);
    expect(calls('approve')).toBe(1);
    expect(store().withdrawals.get(id)!.state).toBe('approved');
  });

  it('cancelling the confirmation sends nothing', async () => {
    await openPending(page);
    const id = Number(await rows(page).first().getAttribute('data-row-id'));
    await rows(page).first().locator('[data-action="approve"]').click();
    await confirm(page).getByRole('button', { name: 'Cancel' }).click();
    await confirm(page).waitFor({ state: 'detached' });
    expect(calls('approve')).toBe(0);
    expect(store().withdrawals.get(id)!.state).toBe('pending');
  });

  it('rejects with a reason after naming the record, and a double-pressed Reject sends once', async () => {
    await openPending(page);
    const id = Number(await rows(page).first().getAttribute('data-row-id'));
    const record = store().withdrawals.get(id)!;
    await rows(page).first().locator('[data-action="reject"]').click();
    const form = page.getByTestId('form-dialog');
    expect(await form.getByRole('heading').textContent()).toBe(`Reject: ${record.userAccount}`);
    expect(await form.textContent()).toContain(
      `Reject the withdrawal of ${money(record.amount)} to ${record.userAccount} (${method(record.method)})?`,
    );
    expect(await form.locator('[data-record-field="accountInfo"]').textContent()).toBe(record.accountInfo);
    await form.getByLabel('Reason').fill('Payee account closed');
    await form.getByRole('button', { name: 'Reject' }).dblclick();
    await form.waitFor({ state: 'detached' });
    expect(calls('reject')).toBe(1);
    expect(store().withdrawals.get(id)).toMatchObject({ state: 'rejected', reason: 'Payee account closed' });
  });

  it('approves a selection row by row and reports what went through and what was refused, and why', async () => {
    await openPending(page);
    const ids = await rows(page).evaluateAll((trs) =>
      trs.slice(0, 3).map((tr) => Number(tr.getAttribute('data-row-id'))),
    );
    expect(ids).toHaveLength(3);
    for (const id of ids) await page.locator(`tr[data-row-id="${id}"] input[type="checkbox"]`).check();
    // Another administrator reviews one of them meanwhile: the backend will refuse it.
    const taken = store().withdrawals.get(ids[1]!)!;
    taken.state = 'approved';

    await page.locator('[data-bulk-action="approve"]').click();
    const accounts = ids.map((id) => store().withdrawals.get(id)!.userAccount).join(', ');
    const total = ids.reduce((sum, id) => sum + store().withdrawals.get(id)!.amount, 0);
    expect(await confirm(page).getByRole('heading').textContent()).toBe(
      `Approve 3 withdrawals totalling ${money(total)}: ${accounts}?`,
    );
    expect(await confirm(page).locator('[data-record-id]').count()).toBe(3);
    await confirm(page).getByRole('button', { name: 'Approve' }).click();
    // Those approved named in one toast, the refused one in another with the backend's own reason.
    const refused = page.locator('[data-toast="warning"]', { hasText: 'refused' });
    await refused.waitFor();
    expect(await refused.locator('span').first().textContent()).toBe(
      `1 refused: ${taken.userAccount}: approve does not apply to withdrawalReview record ${ids[1]} (state is approved)`,
    );
    const approved = [ids[0]!, ids[2]!].map((id) => store().withdrawals.get(id)!.userAccount).join(', ');
    expect(
      await page.locator('[data-toast="success"]', { hasText: approved }).locator('span').first().textContent(),
    ).toContain(approved);
    expect(calls('approve')).toBe(3);
    expect(store().withdrawals.get(ids[0]!)!.state).toBe('approved');
    expect(store().withdrawals.get(ids[2]!)!.state).toBe('approved');
    expect(await errorToasts(page)).toEqual([]);
  });

  it('offers "N new: show" when applications arrive while the list is open, and shows them', async () => {
    await openPending(page);
    // The badge has its first count, so a later rise is one the test made.
    await expect
      .poll(() => page.getByTestId('withdrawal-badge').first().getAttribute('data-count'), { timeout: 10_000 })
      .toBe(String(store().pendingWithdrawalCount()));
    const before = store().pendingWithdrawalCount();
    expect(await page.getByTestId('new-records').count()).toBe(0);
    const added = [store().addPendingWithdrawal(), store().addPendingWithdrawal()];
    const bar = page.getByTestId('new-records');
    await bar.waitFor({ timeout: 10_000 });
    expect(await bar.textContent()).toContain('2 new records');
    // Nothing refreshed behind the administrator's back: the new rows wait for the click.
    expect(await page.locator(`tr[data-row-id="${added[0]!.id}"]`).count()).toBe(0);
    await bar.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => page.getByTestId('list-total').textContent()).toBe(`${before + 2} in total`);
    await page.locator(`tr[data-row-id="${added[1]!.id}"]`).waitFor();
    expect(await page.getByTestId('new-records').count()).toBe(0);
  });
});
