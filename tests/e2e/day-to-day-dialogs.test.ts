import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import en from '../../web/i18n/resources/en.js';
import es from '../../web/i18n/resources/es.js';
import ja from '../../web/i18n/resources/ja.js';
import zh from '../../web/i18n/resources/zh.js';
import { LANGUAGES, localeOf, type Language } from '../../web/lib/language.js';
import { seriousViolations } from '../support/axe.js';
import { docsScreenshot, storePreference, useHarness } from './harness.js';

/*
 * An administrator's day, the dialogs and the phone: every action dialog names its records and
 * sits beside the row it acts on, never over it; bulk actions fit the selection; money questions
 * read as a person writes them, in the four languages; the withdrawal review queue works on a
 * phone (Approve and Reject on each card, short cards, filters folded) and so does the error log.
 */
const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });
const store = () => h.sandbox.app.sandbox;
const LABELS: Record<Language, Record<string, string>> = { en, es, zh, ja };

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
] as const;
const PHONE = SIZES[2];

const narrow = (page: Page) => page.viewportSize()!.width < 640;
/** The list's records: table rows, or a phone's cards. */
const records = (page: Page) =>
  page.locator(narrow(page) ? '[data-testid="list-card"]' : '[data-testid="list-table"] tbody tr[data-row-id]');

/** Opens a command of a record: a button of its own, else from its "⋯" menu. */
async function command(record: Locator, action: string): Promise<void> {
  const button = record.locator(`[data-action="${action}"]`);
  if ((await button.count()) > 0) return button.click();
  await record.getByTestId('row-more').click();
  await record.page().getByTestId('row-menu').locator(`[data-action="${action}"]`).click();
}

/** Whether two boxes share any point. */
function overlap(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The dialog is open, clear of the record it is about, which stays outlined. */
async function besideRecord(dialog: Locator, record: Locator): Promise<void> {
  await dialog.waitFor();
  const page = dialog.page();
  await expect
    .poll(async () => (await page.getByTestId('dialog-anchor').boundingBox())?.height ?? 0)
    .toBeGreaterThan(10);
  const box = (await dialog.boundingBox())!;
  const row = (await record.boundingBox())!;
  expect(overlap(box, row), `dialog ${JSON.stringify(box)} over record ${JSON.stringify(row)}`).toBe(false);
  // The whole dialog and the whole record are in the window.
  const { width, height } = page.viewportSize()!;
  for (const b of [box, row])
    expect(b.y >= -0.5 && b.y + b.height <= height + 0.5 && b.x >= -0.5 && b.x + b.width <= width + 0.5).toBe(true);
  const ring = (await page.getByTestId('dialog-anchor').boundingBox())!;
  expect(Math.abs(ring.y - row.y)).toBeLessThan(2);
}

/** An amount in hundredths with the sandbox's currency, as the page's browser writes it in `lang`. */
const money = (page: Page, lang: Language, cents: number) =>
  page.evaluate(
    ([locale, v]) =>
      new Intl.NumberFormat(locale, {
        style: 'currency',
        currency: 'CNY',
        currencyDisplay: 'narrowSymbol',
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      }).format(v / 100),
    [localeOf(lang), cents] as const,
  );
const fill = (template: string, vars: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k]));

describe('dialogs that name what they do, beside what they do it to', () => {
  for (const size of SIZES) {
    it(`keeps approve, reject and ban dialogs clear of their row, each naming it, at ${size.width} px`, async () => {
      const { page } = await h.pageAs('admin', size);
      await page.goto('/WithDrawMoneyCheck?state=pending');
      await records(page).first().waitFor();
      const asked: number[] = [];
      for (const index of [1, narrow(page) ? 3 : 9]) {
        const record = records(page).nth(index);
        await record.scrollIntoViewIfNeeded();
        const id = Number(await record.getAttribute('data-row-id'));
        asked.push(id);
        const withdrawal = store().withdrawals.get(id)!;

        await command(record, 'approve');
        const confirm = page.getByTestId('confirm-dialog');
        await besideRecord(confirm, record);
        expect(await confirm.getByRole('heading').textContent()).toContain(withdrawal.userAccount);
        await confirm.getByRole('button', { name: 'Cancel' }).click();
        await confirm.waitFor({ state: 'detached' });

        await command(record, 'reject');
        const form = page.getByTestId('form-dialog');
        await besideRecord(form, record);
        expect(await form.getByRole('heading').textContent()).toBe(`Reject: ${withdrawal.userAccount}`);
        await form.getByRole('button', { name: 'Cancel' }).click();
        await form.waitFor({ state: 'detached' });
      }
      // Cancelled, every one of them: nothing was sent.
      for (const id of asked) expect(store().withdrawals.get(id)!.state).toBe('pending');

      await page.goto('/userpage/userset?status=normal');
      await records(page).first().waitFor();
      const record = records(page).nth(2);
      const account = store().users.get(Number(await record.getAttribute('data-row-id')))!.account;
      await command(record, 'ban');
      const form = page.getByTestId('form-dialog');
      await besideRecord(form, record);
      // The title says whom, the summary tells two alike apart.
      expect(await form.getByRole('heading').textContent()).toBe(`Ban: ${account}`);
      expect(await form.locator('[data-record-field="account"]').textContent()).toBe(account);
      await form.getByRole('button', { name: 'Cancel' }).click();
      await form.waitFor({ state: 'detached' });
    }, 120_000);
  }

  it('names the three users of a bulk ban, and offers what fits the selection', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    const offered = () =>
      page.locator('[data-bulk-action]').evaluateAll((els) => els.map((e) => e.getAttribute('data-bulk-action')));
    const select = async (n: number) => {
      const ids: number[] = [];
      for (let i = 0; i < n; i++) {
        const record = records(page).nth(i);
        ids.push(Number(await record.getAttribute('data-row-id')));
        await record.locator('input[type="checkbox"]').check();
      }
      return ids;
    };

    await page.goto('/userpage/userset?status=normal');
    await records(page).first().waitFor();
    const normal = await select(3);
    expect(await offered()).toEqual(['ban']);
    await page.locator('[data-bulk-action="ban"]').click();
    const form = page.getByTestId('form-dialog');
    const names = normal.map((id) => store().users.get(id)!.account).join(', ');
    expect(await form.getByRole('heading').textContent()).toBe(`Ban: 3 records (${names})`);
    expect(await form.locator('[data-record-id]').count()).toBe(3);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });

    // Every selected user banned: Unban, not Ban.
    await page.goto('/userpage/userset?status=banned');
    await records(page).first().waitFor();
    const banned = await select(3);
    expect(await offered()).toEqual(['unban']);
    await page.locator('[data-bulk-action="unban"]').click();
    const unbanned = page.locator('[data-toast="success"]', { hasText: /^Unbanned / });
    await unbanned.waitFor();
    expect(await unbanned.locator('span').first().textContent()).toBe(
      `Unbanned ${banned.map((id) => store().users.get(id)!.account).join(', ')}`,
    );
    for (const id of banned) expect(store().users.get(id)!.status).toBe('normal');

    // A mix offers both; each runs on the rows it fits.
    const mixed = store()
      .users.all()
      .filter((u) => u.status === 'banned')[0]!;
    await page.goto(`/userpage/userset?keyword=${encodeURIComponent(mixed.account.slice(0, 2))}&pageSize=100`);
    await records(page).first().waitFor();
    // A page of 100 draws the rows near the view: walk down it row by row, each scrolled to (and
    // so drawn), until a banned and a normal user are both checked.
    const wanted = new Set(['Banned', 'Normal']);
    for (let index = 0; wanted.size > 0; index++) {
      const row = page.locator(`[data-testid="list-table"] tbody tr[data-row-index="${index}"]`);
      await row.scrollIntoViewIfNeeded();
      const status = (await row.locator('[data-col="status"]').textContent()) ?? '';
      if (wanted.delete(status)) await row.locator('input[type="checkbox"]').check();
    }
    expect((await offered()).sort()).toEqual(['ban', 'unban']);
  }, 90_000);

  it('asks about money as a person writes it, in each of the four languages', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    for (const lang of LANGUAGES) {
      await storePreference(page, 'language', lang);
      await page.goto('/WithDrawMoneyCheck?state=pending');
      await records(page).first().waitFor();
      const record = records(page).first();
      const w = store().withdrawals.get(Number(await record.getAttribute('data-row-id')))!;
      const vars = {
        amount: await money(page, lang, w.amount),
        name: w.userAccount,
        method: LABELS[lang][`option.method.${w.method}`]!,
      };

      await record.locator('[data-action="approve"]').click();
      const confirm = page.getByTestId('confirm-dialog');
      await expect
        .poll(() => confirm.getByRole('heading').textContent())
        .toBe(fill(LABELS[lang]['confirm.approve']!, vars));
      await confirm.getByRole('button').first().click();
      await confirm.waitFor({ state: 'detached' });

      await record.locator('[data-action="reject"]').click();
      const form = page.getByTestId('form-dialog');
      await form.waitFor();
      expect(await form.textContent()).toContain(fill(LABELS[lang]['confirm.reject']!, vars));
      await page.keyboard.press('Escape');
      await form.waitFor({ state: 'detached' });
      if (lang === 'en') expect(fill(en['confirm.approve'], vars)).toMatch(/^Approve ¥[\d,]+\.\d{2} to \S+ \(.+\)\?$/);
    }

    // Three at once: how many, how much in all, whose.
    await storePreference(page, 'language', 'en');
    await page.goto('/WithDrawMoneyCheck?state=pending');
    await records(page).first().waitFor();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(Number(await records(page).nth(i).getAttribute('data-row-id')));
      await records(page).nth(i).locator('input[type="checkbox"]').check();
    }
    await page.locator('[data-bulk-action="approve"]').click();
    const total = await money(
      page,
      'en',
      ids.reduce((s, id) => s + store().withdrawals.get(id)!.amount, 0),
    );
    const accounts = ids.map((id) => store().withdrawals.get(id)!.userAccount).join(', ');
    expect(await page.getByTestId('confirm-dialog').getByRole('heading').textContent()).toBe(
      `Approve 3 withdrawals totalling ${total}: ${accounts}?`,
    );
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Cancel' }).click();
  }, 120_000);
});

describe('the withdrawal review queue and the error log on a phone', () => {
  it('shows Approve and Reject on each card without "⋯", keeps cards short, and the first screen shows records', async () => {
    const { page } = await h.pageAs('admin', PHONE);
    // Measured in the Default size, the largest: the cards were 266 px high there before.
    await storePreference(page, 'size', 'default');
    const pending = store()
      .withdrawals.all()
      .filter((w) => w.state === 'pending');
    const short = pending.find(
      (w) => w.method === 'alipay' && pending.filter((o) => o.userAccount === w.userAccount).length === 1,
    )!;

    await page.goto('/WithDrawMoneyCheck?state=pending');
    const first = records(page).first();
    await first.waitFor();
    // Filters folded: the first card is wholly on the first screen, under the toolbar.
    const top = (await first.boundingBox())!;
    expect(top.y + top.height).toBeLessThanOrEqual(PHONE.height);
    expect(await page.getByTestId('list-keyword').isVisible()).toBe(false);
    await docsScreenshot(page, 'review-cards-390.png');

    await page.goto(`/WithDrawMoneyCheck?state=pending&keyword=${encodeURIComponent(short.userAccount)}`);
    const card = page.locator(`[data-testid="list-card"][data-row-id="${short.id}"]`);
    await card.waitFor();
    expect(await card.getByTestId('row-more').count()).toBe(0);
    for (const action of ['approve', 'reject']) {
      const button = card.locator(`[data-action="${action}"]`);
      expect(await button.isVisible()).toBe(true);
      const box = (await button.boundingBox())!;
      // A thumb's target, inside the screen.
      expect(box.height).toBeGreaterThanOrEqual(32);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
    // As short as its facts: the name, five facts on four lines, the two buttons.
    const box = (await card.boundingBox())!;
    expect(box.height).toBeLessThanOrEqual(200);
    expect(await card.locator('[data-col="reason"], [data-col="reviewTime"], [data-col="id"]').count()).toBe(0);
    for (const key of ['amount', 'method', 'accountInfo', 'createTime'])
      expect(await card.locator(`[data-col="${key}"]`).count(), key).toBe(1);

    await card.locator('[data-action="approve"]').click();
    const confirm = page.getByTestId('confirm-dialog');
    await besideRecord(confirm, card);
    await docsScreenshot(page, 'dialog-beside-card-390.png');
    await confirm.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => store().withdrawals.get(short.id)!.state).toBe('approved');
  }, 90_000);

  it('folds the search and filters behind one button on a phone, and leaves them out in the open on a laptop', async () => {
    const { page } = await h.pageAs('admin', PHONE);
    await page.goto('/WithDrawMoneyCheck');
    await records(page).first().waitFor();
    const toggle = page.getByTestId('filters-toggle');
    expect(await toggle.textContent()).toBe('Filters');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    // The queue opens on pending applications, its own default, not counted as a choice.
    await toggle.click();
    await page.locator('[data-filter="state"]').selectOption('approved');
    await page.waitForURL((u) => u.searchParams.get('state') === 'approved');
    expect(await toggle.textContent()).toBe('Filters (1)');
    await toggle.click();
    expect(await page.locator('[data-filter="state"]').count()).toBe(0);

    const laptop = (await h.pageAs('admin', { width: 1366, height: 768 })).page;
    await laptop.goto('/WithDrawMoneyCheck');
    await records(laptop).first().waitFor();
    expect(await laptop.getByTestId('filters-toggle').count()).toBe(0);
    expect(await laptop.getByTestId('list-keyword').isVisible()).toBe(true);
  }, 90_000);

  it('reads the error log at 390 px: whole words, the account, details in reach, nothing sideways', async () => {
    const { page } = await h.pageAs('operator', PHONE);
    const messages = [
      'TypeError: Cannot read properties of undefined while rendering the withdrawal review queue for this administrator',
      'Error: Request failed with status 502 because the chat backend could not be reached from the console gateway',
    ];
    for (const message of messages) {
      const status = await page.evaluate(
        async (m) =>
          (
            await fetch('/api/error-log', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({
                message: m,
                url: `${location.origin}/WithDrawMoneyCheck?state=pending&createTimeFrom=2026-01-01`,
                stack: `${m}\n    at render (list.js:1:2)`,
              }),
            })
          ).status,
        message,
      );
      expect(status).toBe(200);
    }
    await page.goto('/error-log/log');
    const cards = page.getByTestId('error-log-cards');
    await cards.waitFor();
    await expect.poll(() => cards.locator('[data-col="message"]').count()).toBe(2);
    // No word is broken across two lines.
    const broken = await cards.locator('[data-col="message"]').evaluateAll((els) =>
      els.flatMap((el) => {
        const node = el.firstChild!;
        return [...node.textContent!.matchAll(/\S+/g)].flatMap((m) => {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1 ? [m[0]] : [];
        });
      }),
    );
    expect(broken).toEqual([]);
    expect(await cards.locator('[data-col="user"]').allTextContents()).toEqual(['operator', 'operator']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
      0,
    );

    const details = cards.getByRole('button', { name: 'Details' }).first();
    await details.click();
    const shown = cards.getByTestId('error-details');
    await shown.waitFor();
    expect(await shown.textContent()).toContain('at render (list.js:1:2)');
    const box = (await shown.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    expect(await details.getAttribute('aria-expanded')).toBe('true');
    expect(await page.getByRole('button', { name: 'Clear log' }).count()).toBe(0);
  });
});

describe.each(['light', 'dark'])('what changed, in the %s scheme, for assistive technology', (scheme) => {
  it('has no serious or critical axe violation: dashboard, review cards, folded filters, a dialog beside its card, the error log', async () => {
    const { page } = await h.pageAs('admin', PHONE);
    await storePreference(page, 'colorScheme', scheme);
    const found: string[] = [];
    const check = async (what: string) =>
      found.push(...(await seriousViolations(page)).map((f) => `${what}: ${f.rule} on ${f.target} ${f.detail}`));
    await page.goto('/dashboard');
    await page.locator('[data-testid="daily-chart"] canvas').first().waitFor();
    await check('dashboard');
    await page.goto('/WithDrawMoneyCheck?state=pending');
    await records(page).first().waitFor();
    await check('review cards');
    await page.getByTestId('filters-toggle').click();
    await check('filters open');
    await records(page).nth(1).locator('[data-action="approve"]').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await check('approve beside its card');
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.evaluate(() =>
      fetch('/api/error-log', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'an axe check', url: '/a' }),
      }),
    );
    await page.goto('/error-log/log');
    await page.getByTestId('error-log-cards').waitFor();
    await check('error log');
    expect(found).toEqual([]);
  }, 180_000);
});
