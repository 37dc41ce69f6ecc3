import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { errorToasts, rowCommand, useHarness } from './harness.js';

/**
 * The audit trail as administrators meet it: a ban with its reason shows in the user's history and
 * on the Audit trail screen, a review names its reviewer on the withdrawal list, and an
 * administrator's activity is one command away from the administrators list.
 */

// No sandbox timer adding withdrawals: the review queue changes only by this file.
const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });
const store = () => h.sandbox.app.sandbox;

const rows = (p: Page) => p.locator('[data-testid="list-table"] tbody tr');
const row = (p: Page, id: number) => p.locator(`[data-testid="list-table"] tbody tr[data-row-id="${id}"]`);
const trailRows = (p: Page) => p.locator('[data-testid="audit-table"] tbody tr[data-audit-seq]');

let page: Page;
beforeAll(async () => {
  page = (await h.pageAs('admin')).page;
});

describe('the audit trail', () => {
  /** The user the first tests ban and rename, and its name before. */
  let user: { id: number; account: string };
  let oldName: string;

  it("bans a user with a reason, then shows the ban with its author, time and reason in the user's history", async () => {
    const found = store().users.find((u) => u.status === 'normal' && !!u.phone)!;
    user = { id: found.id, account: found.account };
    oldName = found.nickname;
    await page.goto(`/userpage/userset?keyword=${encodeURIComponent(user.account)}`);
    await row(page, user.id).waitFor();
    await rowCommand(row(page, user.id), '[data-action="ban"]');
    const form = page.getByTestId('form-dialog');
    await form.getByLabel('Reason').fill('Posting phishing links');
    await form.getByRole('button', { name: 'Ban' }).click();
    await form.waitFor({ state: 'detached' });
    await page.locator('[data-toast="success"]', { hasText: `Banned ${user.account}` }).waitFor();
    await expect.poll(() => store().users.get(user.id)!.status).toBe('banned');

    // The user's page (list path plus id) shows the history beside the record.
    await rowCommand(row(page, user.id), '[data-command="detail"]');
    await page.waitForURL((u) => u.pathname === `/userpage/userset/${user.id}`);
    const ban = page.locator('[data-testid="record-history"] li[data-history-action="ban"]').first();
    await ban.waitFor();
    const text = await ban.textContent();
    expect(text).toContain('Ban');
    expect(text).toContain('by admin');
    expect(text).toContain('Reason: Posting phishing links');
    expect(await ban.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("shows an edit in the user's history with the value before and after", async () => {
    await page.goto(`/userpage/userset?keyword=${encodeURIComponent(user.account)}`);
    await row(page, user.id).waitFor();
    await rowCommand(row(page, user.id), '[data-command="edit"]');
    const form = page.getByTestId('form-dialog');
    await form.getByLabel('Nickname').fill('Renamed by audit test');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await rowCommand(row(page, user.id), '[data-command="detail"]');
    await page.waitForURL((u) => u.pathname === `/userpage/userset/${user.id}`);
    const edit = page.locator('[data-testid="record-history"] li[data-history-action="update"]').first();
    await edit.waitFor();
    expect(await edit.locator('[data-change="nickname"] [data-before]').textContent()).toBe(oldName);
    expect(await edit.locator('[data-change="nickname"] [data-after]').textContent()).toBe('Renamed by audit test');
  });

  it('lists the ban on the Audit trail screen, filtered by its record, with its details', async () => {
    await page.goto('/system/audit');
    await page.getByTestId('audit-table').waitFor();
    expect(await page.getByTestId('breadcrumb').textContent()).toContain('Audit trail');
    await page.locator('[data-filter="target"]').fill(String(user.id));
    await page.getByRole('search', { name: 'Filters' }).getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((u) => u.searchParams.get('target') === String(user.id));
    await expect.poll(() => trailRows(page).count()).toBe(2);
    const entry = page.locator('[data-testid="audit-table"] tr[data-audit-action="ban"]');
    const text = await entry.textContent();
    expect(text).toContain('admin');
    expect(text).toContain('Users · Ban');
    expect(text).toContain('Posting phishing links');
    expect(text).toContain('Done');
    await entry.getByRole('button', { name: 'Details' }).click();
    const details = page.getByTestId('audit-details');
    expect(await details.textContent()).toContain('/manage/user/userProfile/ban');
    expect(await details.textContent()).toMatch(/[0-9a-f]{64}/);
    expect(await errorToasts(page)).toEqual([]);
  });

  it('names who reviewed a withdrawal on the review list', async () => {
    await page.goto('/WithDrawMoneyCheck?state=pending&sort=-createTime');
    await rows(page).first().waitFor();
    const id = Number(await rows(page).first().getAttribute('data-row-id'));
    const record = store().withdrawals.get(id)!;
    await rows(page).first().locator('[data-action="approve"]').click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.getByRole('button', { name: 'Approve' }).click();
    await confirm.waitFor({ state: 'detached' });
    await page.locator('[data-toast="success"]', { hasText: `“Approve” done: ${record.userAccount}` }).waitFor();

    await page.goto('/WithDrawMoneyCheck?state=approved&sort=-createTime');
    await row(page, id).waitFor();
    expect(await page.locator('[data-testid="list-table"] thead').textContent()).toContain('Reviewed by');
    await expect.poll(() => row(page, id).locator('[data-col="reviewedBy"]').textContent()).toBe('admin');
  });

  it("opens an administrator's activity from the administrators list", async () => {
    await page.goto('/system/admins?keyword=admin');
    const admin = store().accounts.find((a) => a.account === 'admin')!;
    await row(page, admin.id).waitFor();
    await rowCommand(row(page, admin.id), '[data-command="link:activity"]');
    await page.waitForURL((u) => u.pathname === '/system/audit' && u.searchParams.get('actor') === 'admin');
    await trailRows(page).first().waitFor();
    expect(await page.locator('[data-filter="actor"]').inputValue()).toBe('admin');
    const actors = await page
      .locator('[data-testid="audit-table"] tr[data-audit-seq] td:nth-child(2)')
      .allTextContents();
    expect(actors.length).toBeGreaterThan(0);
    expect(new Set(actors)).toEqual(new Set(['admin']));
  });
});
