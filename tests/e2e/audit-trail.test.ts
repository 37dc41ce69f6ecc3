import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CALLS, RESOURCES, resourceCalls } from '../../server/contract/index.js';
import { errorToasts, rowCommand, storePreference, useHarness } from './harness.js';

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
    // The record by its name as well as its id, and the ban as the change it made.
    expect(await entry.locator(`[data-target="${user.id}"]`).textContent()).toBe(`${user.account} #${user.id}`);
    await entry.getByRole('button', { name: 'Details' }).click();
    const details = page.getByTestId('audit-details');
    expect(await details.locator('[data-change="status"] [data-before]').textContent()).toBe('Normal');
    expect(await details.locator('[data-change="status"] [data-after]').textContent()).toBe('Banned');
    expect(await details.locator('[data-change="status"]').textContent()).toBe('StatusNormal → Banned');
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

/** How far the page reaches past the right edge of the window (0: no sideways scroll). */
const overflow = (p: Page) =>
  p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** A call as the screens make it, from the page (its session cookie, its origin). */
const send = (p: Page, method: 'GET' | 'POST', url: string, body?: unknown) =>
  p.evaluate(
    async ({ method, url, body }) => {
      const response = await fetch(url, {
        method,
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as { code: unknown; data?: Record<string, unknown> };
    },
    { method, url, body },
  );

describe('the audit trail on any screen', () => {
  const config = resourceCalls(RESOURCES.find((r) => r.id === 'siteFunctions')!).config;
  /** The longest link the console takes, as one long token: what widened the page. */
  const longLink = `https://help.example.com/${'a'.repeat(2048 - 25)}`;

  beforeAll(async () => {
    const current = await send(page, 'GET', config);
    expect(await send(page, 'POST', config, { ...current.data, customerServiceUrl: longLink })).toMatchObject({
      code: 200,
    });
    // A failed login, from a browser of its own (a failed login ends the session it arrives with).
    const { page: stranger } = await h.newPage();
    await stranger.goto('/login');
    await send(stranger, 'POST', CALLS.login, { account: 'admin', password: 'not-the-password', code: '' });
  });

  /** The trail filtered to the site functions' saves, the newest one's details open. */
  async function openLongEntry(p: Page) {
    await p.goto('/system/audit?resource=siteFunctions&action=saveConfig');
    const entry = p.locator('[data-audit-action="saveConfig"]').first();
    await entry.waitFor();
    await entry.getByRole('button', { name: 'Details' }).click();
    const details = p.getByTestId('audit-details');
    await details.waitFor();
    return details;
  }

  for (const [width, height, form] of [
    [390, 844, 'audit-cards'],
    [1440, 900, 'audit-table'],
  ] as const) {
    it(`never scrolls sideways at ${width} px, a long link shortened with Show all and Copy`, async () => {
      const { page: p } = await h.pageAs('admin', { width, height });
      const details = await openLongEntry(p);
      expect(await p.getByTestId(form).count()).toBe(1);
      // Every column of the entry is on the screen: on a phone as a card, not a table cut off.
      if (width === 390) expect(await p.getByTestId('audit-table').count()).toBe(0);
      const change = details.locator('[data-change="customerServiceUrl"] [data-after]');
      expect(await change.locator('[data-long-value]').getAttribute('data-long-value')).toBe('short');
      expect(await overflow(p)).toBe(0);

      await change.getByRole('button', { name: /Show all/ }).click();
      await expect.poll(() => change.locator('[data-long-value]').getAttribute('data-long-value')).toBe('open');
      expect((await change.textContent())!.length).toBeGreaterThan(400);
      // Shown whole, it wraps inside its box: still nothing past the window's edge.
      expect(await overflow(p)).toBe(0);
      expect(await change.getByRole('button', { name: 'Copy' }).count()).toBe(1);
      expect(await errorToasts(p)).toEqual([]);
    });
  }

  it('reads a failed login in words, with its code beside', async () => {
    // A page of its own: each login as admin above may have ended the shared page's session.
    const { page: p } = await h.pageAs('admin');
    await p.goto('/system/audit?kind=login');
    const failed = p.locator('[data-testid="audit-table"] tr[data-audit-action="login"]', {
      hasText: 'Failed login',
    });
    await failed.first().waitFor();
    const outcome = await failed.first().locator('[data-col="outcome"]').textContent();
    expect(outcome).toBe('RefusedCode 1001');
  });

  it('offers the actions by their names in the reader’s language, no untranslated placeholder', async () => {
    const { page: p } = await h.pageAs('admin', { width: 1440, height: 900 });
    await storePreference(p, 'language', 'zh');
    await p.goto('/system/audit');
    const filter = p.locator('[data-filter="action"]');
    await filter.waitFor();
    expect(await filter.getAttribute('placeholder')).toBeNull();
    const ban = await filter.locator('option[value="ban"]').textContent();
    expect(ban).not.toBe('ban');
    await filter.selectOption('ban');
    await p.getByRole('search').getByRole('button').first().click();
    await p.waitForURL((u) => u.searchParams.get('action') === 'ban');
  });
});
