import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { userDetail } from '../../sandbox/routes/bindings/users.js';
import { formatCurrency } from '../../web/lib/currency.js';
import { RELATED_ROWS } from '../../web/engine/record/related.js';
import { errorToasts, storePreference, useHarness, rowCommand, rowOffers } from './harness.js';

// This suite has never checked the pages' uncaught errors; the harness still collects them.
// No sandbox timer adding withdrawals: every change of the pending count is one a test made.
const POLL_MS = 5_000;
const h = useHarness({ pollMs: POLL_MS, sandbox: { withdrawalTickMs: 0 } });
const store = () => h.sandbox.app.sandbox;

const rows = (page: Page) => page.locator('[data-testid="list-table"] tbody tr');
const dialog = (page: Page) => page.getByTestId('form-dialog');

interface BadgeLogEntry {
  kind: 'event' | 'badge';
  count: number;
}

/**
 * Runs in the page before the app: logs, in the order they happen, every withdrawal-count event
 * the event stream delivers (logged before the app's own listener sees it) and every value the
 * badge shows.
 */
function recordBadgeAndEvents(): void {
  const log: BadgeLogEntry[] = [];
  (window as unknown as { __badgeLog: BadgeLogEntry[] }).__badgeLog = log;
  const Original = window.EventSource;
  window.EventSource = class extends Original {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init);
      this.addEventListener('withdrawal-count', (event) => {
        log.push({
          kind: 'event',
          count: (JSON.parse((event as MessageEvent<string>).data) as { count: number }).count,
        });
      });
    }
  };
  let shown: number | null = null;
  new MutationObserver(() => {
    const text = document.querySelector('[data-testid="withdrawal-badge"]')?.getAttribute('data-count');
    const count = text == null ? 0 : Number(text);
    if (count !== shown) log.push({ kind: 'badge', count: (shown = count) });
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-count'] });
}

const badgeLog = (page: Page) =>
  page.evaluate(() => [...(window as unknown as { __badgeLog: BadgeLogEntry[] }).__badgeLog]);

describe('list screen end to end', () => {
  it('creates, refuses a bad link, edits and deletes a discover entry', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/homelist');
    await rows(page).first().waitFor();
    const title = `E2E entry ${Date.now()}`;

    await page.getByTestId('list-create').click();
    await dialog(page).getByLabel('Title').fill(title);
    await dialog(page).getByLabel('Link').fill('news.example.com');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    expect(await dialog(page).locator('[data-error-for="url"]').textContent()).toBe(
      'Enter a full link starting with https://',
    );

    await dialog(page).getByLabel('Link').fill('https://news.example.com/e2e');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    await page.locator('[data-toast="success"]', { hasText: 'Created' }).waitFor();

    await page.getByTestId('list-keyword').fill(title);
    const row = rows(page).filter({ hasText: title });
    await row.waitFor();

    await rowCommand(row, '[data-command="edit"]');
    await dialog(page).getByLabel('Title').fill(`${title} edited`);
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    await rows(page)
      .filter({ hasText: `${title} edited` })
      .waitFor();

    await rowCommand(rows(page).filter({ hasText: title }), '[data-command="remove"]');
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.locator('[data-toast="success"]', { hasText: 'Deleted' }).waitFor();
    await page.getByTestId('list-empty').waitFor();
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);

  it('bans a user once the reason is given, without a confirmation, and names the user', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/userpage/userset?status=normal');
    await rows(page).first().waitFor();
    const first = rows(page).first();
    const id = await first.getAttribute('data-row-id');

    await rowCommand(first, '[data-action="ban"]');
    // Only the reason is asked: a ban is undone from its toast rather than confirmed beforehand.
    expect(await dialog(page).textContent()).not.toContain('Run “Ban”');
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    await dialog(page).waitFor({ state: 'detached' });

    await rowCommand(first, '[data-action="ban"]');
    await dialog(page).getByRole('button', { name: 'Ban' }).click();
    expect(await dialog(page).locator('[data-error-for="reason"]').textContent()).toBe('This field is required');
    await dialog(page).getByLabel('Reason').fill('Spam from the e2e test');
    await dialog(page).getByRole('button', { name: 'Ban' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    await page
      .locator('[data-toast="success"]', { hasText: `Banned ${store().users.get(Number(id))!.account}` })
      .waitFor();

    await page.goto(`/userpage/userset?keyword=${id}`);
    const banned = page.locator(`[data-testid="list-table"] tbody tr[data-row-id="${id}"]`);
    await banned.waitFor();
    expect(await rowOffers(banned, '[data-action="unban"]')).toBe(true);
    expect(await rowOffers(banned, '[data-action="ban"]')).toBe(false);
    expect(await banned.locator('[data-col="status"]').textContent()).toBe('Banned');
  }, 90_000);

  it('forces a user offline after the confirm dialog', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/onlineuser');
    await rows(page).first().waitFor();
    const id = await rows(page).first().getAttribute('data-row-id');
    await rowCommand(rows(page).first(), '[data-action="forceLogout"]');
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.locator(`tr[data-row-id="${id}"]`).count()).toBe(1);
    await rowCommand(rows(page).first(), '[data-action="forceLogout"]');
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.locator(`tr[data-row-id="${id}"]`).count()).toBe(0);
  }, 90_000);

  it("opens the user's page from Details, with the wallet and logins the backend holds for that user", async () => {
    // A user with pending and approved withdrawals and logins, so every figure and row is one to check.
    const user = [...store().users.all()].find((u) => {
      const withdrawals = store()
        .withdrawals.all()
        .filter((w) => w.userId === u.id);
      return (
        store().loginsOf(u.id).length >= 2 &&
        withdrawals.some((w) => w.state === 'pending') &&
        withdrawals.some((w) => w.state === 'approved')
      );
    })!;
    expect(user).toBeDefined();
    const expected = userDetail(store(), user, Date.now());
    const { page } = await h.pageAs('admin');
    await page.goto(`/userpage/userset?keyword=${user.id}`);
    const row = page.locator(`[data-testid="list-table"] tbody tr[data-row-id="${user.id}"]`);
    await row.waitFor();
    await rowCommand(row, '[data-command="detail"]');
    await page.waitForURL((u) => u.pathname === `/userpage/userset/${user.id}`);

    const wallet = page.getByTestId('user-wallet');
    await wallet.waitFor();
    const figures = await wallet
      .locator('div')
      .evaluateAll((cards) =>
        cards.map((c) => [c.querySelector('dt')?.textContent, c.querySelector('dd')?.textContent]),
      );
    expect(figures).toEqual([
      // Money as the reader's language writes it, with its currency and digit groups.
      ['Balance', formatCurrency(expected.wallet.balance, 'en', 'CNY')],
      ['Frozen', formatCurrency(expected.wallet.frozen, 'en', 'CNY')],
      ['Total recharged', formatCurrency(expected.wallet.totalRecharge, 'en', 'CNY')],
      ['Total withdrawn', formatCurrency(expected.wallet.totalWithdraw, 'en', 'CNY')],
    ]);
    expect(expected.wallet.frozen).toBeGreaterThan(0);
    expect(expected.wallet.totalWithdraw).toBeGreaterThan(0);

    // The logins are the login records list, filtered by this user: as many rows as the backend holds (up to a page).
    const logins = page.locator('[data-related="loginRecords"] tbody tr');
    await logins.first().waitFor();
    await expect.poll(() => logins.count()).toBe(Math.min(store().loginsOf(user.id).length, RELATED_ROWS));
  }, 90_000);
});

describe('withdrawal review', () => {
  it('approves one pending application: the list changes and the badge falls before the next poll confirms it', async () => {
    const { page } = await h.pageAs('admin', { initScript: recordBadgeAndEvents });
    await page.goto('/WithDrawMoneyCheck?state=pending');
    await rows(page).first().waitFor();
    const badge = page.getByTestId('withdrawal-badge').first();
    await expect.poll(async () => Number(await badge.getAttribute('data-count'))).toBeGreaterThan(0);

    // A new application shows when the gateway's poll finds it: that event marks a poll, and the
    // next one is a whole poll period (POLL_MS) away, far longer than approving takes.
    const seen = await badgeLog(page);
    const polled = h.sandbox.app.sandbox.pendingWithdrawalCount() + 1;
    h.sandbox.app.sandbox.addPendingWithdrawal();
    await expect
      .poll(async () => (await badgeLog(page)).slice(seen.length), { timeout: 30_000 })
      .toContainEqual({ kind: 'event', count: polled });
    const mark = (await badgeLog(page)).length;

    const id = await rows(page).first().getAttribute('data-row-id');
    expect(await page.getByTestId('list-totals').count()).toBe(1);
    await rowCommand(rows(page).first(), '[data-action="approve"]');
    // Money never moves on one click: the approval is confirmed first.
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Approve' }).click();
    await page.locator('[data-toast="success"]').waitFor();
    await expect.poll(() => page.locator(`tr[data-row-id="${id}"]`).count()).toBe(0);
    // The next poll confirms the lower count...
    await expect
      .poll(async () => (await badgeLog(page)).slice(mark), { timeout: 30_000 })
      .toContainEqual({ kind: 'event', count: polled - 1 });
    // ...after the badge had already fallen by itself: the decrement came first.
    expect((await badgeLog(page)).slice(mark)[0]).toEqual({ kind: 'badge', count: polled - 1 });
  }, 90_000);
});

describe('validation messages in Chinese', () => {
  it('shows 下载链接不能为空 and 链接格式错误 on an app version', async () => {
    const { page } = await h.pageAs('admin');
    await storePreference(page, 'language', 'zh');
    await page.goto('/versionupdate/appupdate');
    await rows(page).first().waitFor();
    await page.getByTestId('list-create').click();
    await dialog(page).getByRole('button', { name: '保存' }).click();
    expect(await dialog(page).locator('[data-error-for="downloadUrl"]').textContent()).toBe('下载链接不能为空');
    await dialog(page).getByRole('textbox', { name: '下载链接' }).fill('dl.example.com/app.apk');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    expect(await dialog(page).locator('[data-error-for="downloadUrl"]').textContent()).toBe(
      '链接格式错误，请输入以 https:// 开头的完整链接',
    );
  }, 90_000);

  it('refuses a bad link on a settings form and warns before leaving it', async () => {
    const { page } = await h.pageAs('admin');
    await storePreference(page, 'language', 'zh');
    await page.goto('/siteconfig/function');
    const form = page.getByTestId('settings-form');
    await form.waitFor();
    await form.getByLabel('客服链接').fill('not a link');
    await form.getByRole('button', { name: '保存' }).click();
    expect(await form.locator('[data-error-for="customerServiceUrl"]').textContent()).toBe(
      '链接格式错误，请输入以 https:// 开头的完整链接',
    );
    await page.getByTestId('unsaved').waitFor();
    // In-app navigation asks first; staying keeps the typing.
    await page.locator('[data-menu-path="/dashboard"]').first().click();
    await page.getByTestId('leave-dialog').waitFor();
    await page.getByTestId('leave-dialog').getByRole('button', { name: '留下' }).click();
    expect(new URL(page.url()).pathname).toBe('/siteconfig/function');
    expect(await form.getByLabel('客服链接').inputValue()).toBe('not a link');
  }, 90_000);

  it('asks before Back or logging out drops unsaved changes', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/dashboard');
    await page.getByTestId('layout').waitFor();
    // An in-app step, so that Back stays in the page.
    await page.evaluate(() => history.pushState(null, '', '/siteconfig/function'));
    const form = page.getByTestId('settings-form');
    await form.getByLabel('Customer service link').fill('https://help.example.com/new');
    await page.getByTestId('unsaved').waitFor();

    await page.goBack();
    await page.getByTestId('leave-dialog').getByRole('button', { name: 'Stay' }).click();
    expect(new URL(page.url()).pathname).toBe('/siteconfig/function');
    expect(await form.getByLabel('Customer service link').inputValue()).toBe('https://help.example.com/new');

    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await page.getByTestId('leave-dialog').getByRole('button', { name: 'Stay' }).click();
    expect(new URL(page.url()).pathname).toBe('/siteconfig/function');

    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await page.getByTestId('leave-dialog').getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
  }, 90_000);
});

describe('settings and operations', () => {
  it('saves a money setting in the smallest unit', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/SignInConfig');
    const form = page.getByTestId('settings-form');
    await form.waitFor();
    await form.getByLabel('Daily reward').fill('12.34');
    const saved = page.waitForRequest((r) => r.url().endsWith('/config') && r.method() === 'POST');
    await form.getByRole('button', { name: 'Save' }).click();
    expect((await saved).postDataJSON().dailyReward).toBe(1234);
    await page.locator('[data-toast="success"]', { hasText: 'Saved' }).waitFor();
    await page.reload();
    await expect.poll(() => page.getByTestId('settings-form').getByLabel('Daily reward').inputValue()).toBe('12.34');
  }, 90_000);

  it('will not run the data clean-up without the typed confirmation, and removes what it previewed with it', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/dataclean');
    const form = page.getByTestId('operation-form');
    await form.getByLabel('What to clean').selectOption('loginRecords');
    await form.getByLabel('Older than (days)').fill('90');
    await page.getByTestId('operation-preview').click();
    // Older than 90 days: before the UTC midnight 90 days back, as the backend counts.
    const cutoff = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 - 90 * 86_400_000).toISOString();
    const records = h.sandbox.app.sandbox.loginRecords;
    const old = records.count((r) => r.time < cutoff);
    expect(old).toBeGreaterThan(0);
    expect(await page.getByTestId('operation-preview-result').locator('[data-result-key="count"]').textContent()).toBe(
      String(old),
    );
    const run = page.getByTestId('operation-run');
    expect(await run.isDisabled()).toBe(true);
    await page.getByTestId('operation-confirm').fill('delete');
    expect(await run.isDisabled()).toBe(true);
    await page.getByTestId('operation-confirm').fill('DELETE');
    expect(await run.isDisabled()).toBe(false);
    const sent = page.waitForRequest((r) => r.url().endsWith('/clean'));
    await run.click();
    expect((await sent).postDataJSON()).toMatchObject({ target: 'loginRecords', olderThanDays: 90, confirm: 'DELETE' });
    expect(await page.getByTestId('operation-result').locator('[data-result-key="removed"]').textContent()).toBe(
      String(old),
    );
    expect(records.count((r) => r.time < cutoff)).toBe(0);
  }, 90_000);
});
