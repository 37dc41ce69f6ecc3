import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatCurrency } from '../../web/lib/currency.js';
import { formatDateTime } from '../../web/lib/format.js';
import { formatMoneyIn } from '../../web/engine/shared/money.js';
import { seriousViolations } from '../support/axe.js';
import { loginAs, useHarness } from './harness.js';

/*
 * Record pages in Chromium at a laptop's 1440 px and a phone's 390 px: opened from a list row and
 * by URL (after the login form), their related lists, an action run from the page as the sandbox
 * sees it, and the way back to the list as it was left (page, filters, scroll position).
 */
const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });
const store = () => h.sandbox.app.sandbox;

const LAPTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

const title = (page: Page) => page.getByTestId('record-title');
const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));
/** The rows of a list once drawn for its URL (not the previous page's, kept while the next loads). */
const settledRows = (page: Page) => page.locator('[data-testid="list-table"]:not([aria-busy]) tbody tr');
const settledCards = (page: Page) =>
  page.locator('[data-testid="list-cards"]:not([aria-busy]) [data-testid="list-card"]');

/** A user with pending withdrawals, groups and bills: every section of a user's page has rows. */
function busyUser() {
  const counts = new Map<string, number>();
  for (const w of store().withdrawals.all()) counts.set(w.userAccount, (counts.get(w.userAccount) ?? 0) + 1);
  const [account] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
  const user = store().userByAccount(account)!;
  return {
    user,
    withdrawals: store()
      .withdrawals.all()
      .filter((w) => w.userAccount === account),
  };
}

/** Scrolls a row into the middle of the window, and returns where the window stands. */
async function scrollTo(page: Page, row: Locator): Promise<number> {
  await row.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await expect.poll(() => scrollY(page)).toBeGreaterThan(200);
  // Let the scroll settle, then read it once more: that is the position to come back to.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return scrollY(page);
}

describe('record pages at 1440 px', () => {
  it("opens a user's page from its row; back returns to the same page, filters and scroll", async () => {
    const { page } = await h.pageAs('admin', LAPTOP);
    const list = '/userpage/userset?pageNum=2&pageSize=50&status=normal';
    await page.goto(list);
    await expect.poll(() => settledRows(page).count()).toBe(50);
    const row = settledRows(page).nth(40);
    const id = (await row.getAttribute('data-row-id'))!;
    const y = await scrollTo(page, row);

    await row.locator('[data-record-link]').click();
    await page.waitForURL((u) => u.pathname === `/userpage/userset/${id}`);
    const account = store().users.get(Number(id))!.account;
    await expect.poll(() => title(page).textContent()).toBe(account);
    // The page starts at its top, and its breadcrumb ends list > record.
    expect(await scrollY(page)).toBe(0);
    const crumbs = page.getByTestId('breadcrumb');
    expect(await crumbs.locator('[data-crumb-record]').textContent()).toBe(account);
    expect(await crumbs.getByRole('link', { name: 'User management' }).getAttribute('href')).toBe(list);
    expect(await page.getByTestId('record-fields').locator('[data-detail-field="account"]').textContent()).toBe(
      account,
    );

    // The browser's back.
    await page.goBack();
    await page.waitForURL((u) => u.pathname + u.search === list);
    await expect.poll(() => settledRows(page).nth(40).getAttribute('data-row-id')).toBe(id);
    await expect.poll(() => scrollY(page)).toBe(y);

    // The page's own way back, from another row further down.
    const other = settledRows(page).nth(45);
    const otherId = (await other.getAttribute('data-row-id'))!;
    const y2 = await scrollTo(page, other);
    await other.locator('[data-record-link]').click();
    await page.waitForURL((u) => u.pathname === `/userpage/userset/${otherId}`);
    await page.getByTestId('record-back').click();
    await page.waitForURL((u) => u.pathname + u.search === list);
    await expect.poll(() => settledRows(page).nth(45).getAttribute('data-row-id')).toBe(otherId);
    await expect.poll(() => scrollY(page)).toBe(y2);
    expect(await page.locator('[data-filter="status"]').inputValue()).toBe('normal');
  }, 90_000);

  it('opens a record from its row and goes back to the list with the keyboard alone', async () => {
    const { page } = await h.pageAs('admin', LAPTOP);
    await page.goto('/groupset?pageNum=3');
    await expect.poll(() => settledRows(page).count()).toBe(20);
    const active = () =>
      page.evaluate(() => ({
        link: document.activeElement?.getAttribute('data-record-link') ?? null,
        testId: document.activeElement?.getAttribute('data-testid') ?? null,
      }));
    let href: string | null = null;
    for (let i = 0; i < 150 && !href; i++) {
      await page.keyboard.press('Tab');
      href = (await active()).link;
    }
    expect(href).toMatch(/^\/groupset\/\d+$/);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === href);
    await page.getByTestId('record-title').waitFor();
    let back = false;
    for (let i = 0; i < 80 && !back; i++) {
      await page.keyboard.press('Tab');
      back = (await active()).testId === 'record-back';
    }
    expect(back).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname + u.search === '/groupset?pageNum=3');
  }, 90_000);

  it('lands on a record asked for by URL once the login form is done', async () => {
    const { user } = busyUser();
    const { page } = await h.newPage(LAPTOP);
    await loginAs(page, 'admin', `/userpage/userset/${user.id}`);
    await page.waitForURL((u) => u.pathname === `/userpage/userset/${user.id}`);
    await expect.poll(() => title(page).textContent()).toBe(user.account);
    expect(await page.title()).toContain('User management');
  }, 90_000);

  it("lists a user's withdrawals, bills and logins; each opens its own page, and See all its filtered list", async () => {
    const { user, withdrawals } = busyUser();
    const { page } = await h.pageAs('admin', LAPTOP);
    await page.goto(`/userpage/userset/${user.id}`);
    const related = page.locator('[data-related="withdrawalReview"]');
    await expect.poll(() => related.locator('tbody tr').count()).toBe(Math.min(5, withdrawals.length));
    expect(await related.getByTestId('related-total').textContent()).toBe(`${withdrawals.length} in total`);
    const mine = new Set(withdrawals.map((w) => String(w.id)));
    for (const rowId of await related
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-id')))) {
      expect(mine.has(rowId!), `withdrawal ${rowId} is ${user.account}'s`).toBe(true);
    }
    const bills = store()
      .bills.all()
      .filter((b) => b.userAccount === user.account).length;
    await expect
      .poll(() => page.locator('[data-related="billingRecords"] [data-testid="related-total"]').textContent())
      .toBe(`${bills} in total`);
    await page.locator('[data-related="loginRecords"] [data-testid="related-total"]').waitFor();
    // The login records list shows the logins, so the detail's own short list is not repeated.
    expect(await page.getByTestId('user-logins').count()).toBe(0);
    await page.getByTestId('user-wallet').waitFor();
    // The sandbox keeps no contact list: no friends section rather than an empty one.
    expect(await page.getByTestId('user-friends').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await related.getByTestId('related-all').click();
    await page.waitForURL(
      (u) => u.pathname === '/WithDrawMoneyCheck' && u.searchParams.get('userAccount') === user.account,
    );
    await expect.poll(() => settledRows(page).count()).toBe(Math.min(20, withdrawals.length));
    expect(new Set(await settledRows(page).locator('[data-col="userAccount"]').allTextContents())).toEqual(
      new Set([user.account]),
    );
    expect(await page.locator('[data-filter="userAccount"]').inputValue()).toBe(user.account);

    await page.goBack();
    const first = related.locator('tbody tr').first();
    const withdrawalId = (await first.getAttribute('data-row-id'))!;
    await first.locator('[data-record-link]').click();
    await page.waitForURL((u) => u.pathname === `/WithDrawMoneyCheck/${withdrawalId}`);
    await expect.poll(() => title(page).textContent()).toBe(user.account);
    // Beside an application, the applicant's bills.
    await page.locator('[data-related="billingRecords"] [data-testid="related-total"]').waitFor();
  }, 90_000);

  it("goes from a group to a member's page and back to the group from the member's groups", async () => {
    const group = store()
      .groups.all()
      .find((g) => g.status === 'normal' && g.memberCount > 2)!;
    const { page } = await h.pageAs('admin', LAPTOP);
    await page.goto(`/groupset/${group.id}`);
    await expect.poll(() => title(page).textContent()).toBe(group.name);
    const member = page.getByTestId('group-members').locator('[data-record-link]').first();
    const href = (await member.getAttribute('href'))!;
    expect(href).toMatch(/^\/userpage\/userset\/\d+$/);
    await member.click();
    await page.waitForURL((u) => u.pathname === href);
    const back = page.getByTestId('user-groups').locator(`[data-record-link="/groupset/${group.id}"]`);
    await back.click();
    await page.waitForURL((u) => u.pathname === `/groupset/${group.id}`);
  }, 90_000);

  it('bans and unbans a user from the page, with the list rows’ dialog, as the sandbox records it', async () => {
    const user = store()
      .users.all()
      .find((u) => u.status === 'normal')!;
    const { page } = await h.pageAs('admin', LAPTOP);
    await page.goto(`/userpage/userset/${user.id}`);
    const commands = page.getByTestId('record-commands');
    await commands.locator('[data-action="ban"]').click();
    const dialog = page.getByTestId('form-dialog');
    await dialog.getByLabel('Reason').fill('Spam from the record page');
    await dialog.getByRole('button', { name: 'Ban' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => store().users.get(user.id)!.status).toBe('banned');
    // The page reads the record again: it is banned now, and offers the unban.
    await expect
      .poll(() => page.getByTestId('record-fields').locator('[data-detail-field="status"]').textContent())
      .toBe('Banned');
    // Why, when and by whom, as the sandbox recorded the ban.
    const ban = page.getByTestId('user-ban');
    expect(await ban.locator('[data-ban="reason"]').textContent()).toBe('Spam from the record page');
    expect(await ban.locator('[data-ban="by"]').textContent()).toBe('admin');
    expect(store().users.get(user.id)!.bannedBy).toBe('admin');
    // The browser and this test read the time in the same zone (one machine).
    expect(await ban.locator('[data-ban="time"]').textContent()).toBe(
      formatDateTime(store().users.get(user.id)!.banTime!, 'en'),
    );
    await commands.locator('[data-action="unban"]').click();
    await expect.poll(() => store().users.get(user.id)!.status).toBe('normal');
    await commands.locator('[data-action="ban"]').waitFor();
    await expect.poll(() => ban.count()).toBe(0);
  }, 90_000);

  for (const size of [LAPTOP, PHONE]) {
    it(`shows the wallet with digit groups and its currency, and a seeded ban's reason and who, at ${size.width} px`, async () => {
      const user = store()
        .users.all()
        .find((u) => u.status === 'banned' && u.balance >= 100_000)!;
      const { page } = await h.pageAs('admin', size);
      await page.goto(`/userpage/userset/${user.id}`);
      const balance = page.getByTestId('user-wallet').locator('[data-wallet="field.balance"]');
      await expect.poll(() => balance.textContent()).toBe(formatCurrency(user.balance, 'en', 'CNY'));
      expect(await balance.textContent()).toMatch(/^¥\d{1,3}(,\d{3})+\.\d{2}$/);
      const ban = page.getByTestId('user-ban');
      expect(await ban.locator('[data-ban="reason"]').textContent()).toBe(user.banReason);
      expect(await ban.locator('[data-ban="by"]').textContent()).toBe(user.bannedBy);
      expect(await ban.locator('[data-ban="time"]').textContent()).not.toBe('—');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    });
  }

  it('approves a withdrawal from its page only after the confirmation naming it', async () => {
    const pending = store()
      .withdrawals.all()
      .find((w) => w.state === 'pending')!;
    const { page } = await h.pageAs('admin', LAPTOP);
    await page.goto(`/WithDrawMoneyCheck/${pending.id}`);
    await page.getByTestId('record-commands').locator('[data-action="approve"]').click();
    const confirm = page.getByTestId('confirm-dialog');
    expect(await confirm.locator('[data-record-field="amount"]').textContent()).toBe(
      `¥${formatMoneyIn(pending.amount, 'en')}`,
    );
    expect(store().withdrawals.get(pending.id)!.state).toBe('pending');
    await confirm.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => store().withdrawals.get(pending.id)!.state).toBe('approved');
    await expect
      .poll(() => page.getByTestId('record-fields').locator('[data-detail-field="state"]').textContent())
      .toBe('Approved');
    expect(await page.getByTestId('record-commands').count()).toBe(0);
  }, 90_000);

  it("says so when the record does not exist, and keeps another's records to who may list them", async () => {
    const { page } = await h.pageAs('operator', LAPTOP);
    await page.goto('/userpage/userset/987654321');
    await page.getByTestId('record-missing').waitFor();

    const { user } = busyUser();
    await page.goto(`/userpage/userset/${user.id}`);
    await page.locator('[data-related="billingRecords"] [data-testid="related-total"]').waitFor();
    // No withdrawals nor login records for an operator; the detail's recent logins stand in.
    expect(await page.locator('[data-related="withdrawalReview"], [data-related="loginRecords"]').count()).toBe(0);
    await page.getByTestId('user-logins').waitFor();

    await page.goto('/WithDrawMoneyCheck/1');
    await page.getByTestId('error-401').waitFor();
    expect(await page.getByTestId('record-page').count()).toBe(0);
  }, 90_000);
});

describe('record pages at 390 px', () => {
  it('opens a record from its card, shows it to fit the phone, and back returns to the scrolled list', async () => {
    const { page } = await h.pageAs('admin', PHONE);
    const list = '/groupset?pageSize=20&status=normal';
    await page.goto(list);
    await expect.poll(() => settledCards(page).count()).toBe(20);
    const card = settledCards(page).nth(12);
    const id = (await card.getAttribute('data-row-id'))!;
    const y = await scrollTo(page, card);
    await card.locator('[data-record-link]').click();
    await page.waitForURL((u) => u.pathname === `/groupset/${id}`);
    await expect.poll(() => title(page).textContent()).toBe(store().groups.get(Number(id))!.name);
    await page.getByTestId('group-members').waitFor();
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    await page.goBack();
    await expect.poll(() => settledCards(page).nth(12).getAttribute('data-row-id')).toBe(id);
    await expect.poll(() => scrollY(page)).toBe(y);
  }, 90_000);

  it("lists a user's related records as cards and keeps the rarer commands behind ⋯", async () => {
    const { user, withdrawals } = busyUser();
    const { page } = await h.pageAs('admin', PHONE);
    await page.goto(`/userpage/userset/${user.id}`);
    const related = page.locator('[data-related="withdrawalReview"]');
    await expect.poll(() => related.locator('li[data-row-id]').count()).toBe(Math.min(5, withdrawals.length));
    expect(await seriousViolations(page)).toEqual([]);
    const commands = page.getByTestId('record-commands');
    expect(await commands.locator('button[data-command]').count()).toBe(2);
    await commands.getByTestId('record-more').click();
    await page.getByTestId('record-menu').locator('[data-action="resetPassword"]').waitFor();
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  }, 90_000);
});
