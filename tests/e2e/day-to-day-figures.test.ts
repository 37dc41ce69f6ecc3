import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DAILY_STATISTICS, resourceCalls, type CountAnswer, type FinanceData } from '../../server/contract/index.js';
import { LANGUAGES, localeOf, type Language } from '../../web/lib/language.js';
import { docsScreenshot, storePreference, useHarness } from './harness.js';

/*
 * An administrator's day, the figures and the frame: counts and amounts the reader's way, money
 * with its currency and never only shortened, charts that show small series beside large ones,
 * the error log by account, the error pages out of the menu, the login page in the dark scheme,
 * and Spanish menu entries read whole. At the laptop widths (1440, 1366) and a phone's (390).
 */
const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });

const LAPTOPS = [1440, 1366] as const;
const PHONE = { width: 390, height: 844 };

/** A number or an amount (in hundredths) the way the page's browser writes it in `lang`. */
function intl(page: Page, lang: Language, value: number, kind: 'count' | 'money' | 'currency'): Promise<string> {
  return page.evaluate(
    ([locale, v, k]) => {
      const options: Intl.NumberFormatOptions =
        k === 'count'
          ? { maximumFractionDigits: 0 }
          : {
              minimumFractionDigits: 2,
              maximumFractionDigits: 2,
              ...(k === 'currency' ? { style: 'currency', currency: 'CNY', currencyDisplay: 'narrowSymbol' } : {}),
            };
      return new Intl.NumberFormat(locale, options).format(k === 'count' ? v : v / 100);
    },
    [localeOf(lang), value, kind] as const,
  );
}

/** The JSON data of a call the page makes, read through the gateway as the page reads it. */
async function answer<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => ((await (await fetch(p)).json()) as { data: unknown }).data, path) as Promise<T>;
}

describe('figures people can read', () => {
  for (const width of LAPTOPS) {
    it(`groups the digits of the statistics table in each of the four languages at ${width} px`, async () => {
      const { page } = await h.pageAs('admin', { width, height: 900 });
      for (const lang of LANGUAGES) {
        await storePreference(page, 'language', lang);
        const listed = page.waitForResponse((r) => r.url().includes(resourceCalls(DAILY_STATISTICS).list));
        await page.goto('/operation/statistics');
        const rows = ((await (await listed).json()) as { data: { list: Record<string, number | string>[] } }).data.list;
        const first = [...rows].sort((a, b) => String(a.date).localeCompare(String(b.date)))[0]!;
        const cells = page.locator('[data-testid="list-table"] tbody tr').first().locator('td');
        await cells.first().waitFor();
        // Date, then the series in order: registrations, active users, messages, new groups, recharge, withdrawal.
        expect(await cells.nth(3).textContent(), lang).toBe(await intl(page, lang, first.messages as number, 'count'));
        expect(await cells.nth(5).textContent(), lang).toBe(
          await intl(page, lang, first.rechargeAmount as number, 'money'),
        );
        expect(Number(first.messages)).toBeGreaterThan(9999);
      }
      // The example the product people gave: 19,040 in English, 19.040 in Spanish.
      expect(await intl(page, 'en', 19040, 'count')).toBe('19,040');
      expect(await intl(page, 'es', 19040, 'count')).toBe('19.040');
    }, 120_000);
  }

  it('groups the amounts of a phone card the Spanish way', async () => {
    const { page } = await h.pageAs('admin', PHONE);
    await storePreference(page, 'language', 'es');
    await page.goto('/userpage/userset?sort=-balance');
    const card = page.getByTestId('list-card').first();
    await card.waitFor();
    const id = Number(await card.getAttribute('data-row-id'));
    const balance = h.sandbox.app.sandbox.users.get(id)!.balance;
    expect(balance).toBeGreaterThan(100_000);
    expect(await card.locator('[data-col="balance"]').textContent()).toBe(await intl(page, 'es', balance, 'money'));
  });
});

describe('dashboard money with its currency', () => {
  for (const size of [{ width: 1440, height: 900 }, PHONE]) {
    it(`shortens a card only with the exact amount on hover and on focus, and writes the finance panel in full, at ${size.width} px`, async () => {
      const { page } = await h.pageAs('admin', size);
      await page.getByTestId('dashboard-page').waitFor();
      const count = await answer<CountAnswer>(page, '/manage/count');
      const finance = await answer<FinanceData>(page, '/manage/getFinanceData');

      // The figure is the card's first dd; a second says how it stands against yesterday.
      const card = page.getByTestId('kpi-rechargeToday').locator('dd').first();
      await expect.poll(() => card.innerText()).toMatch(/^¥/);
      const exact = await intl(page, 'en', count.rechargeToday, 'currency');
      const figure = card.locator('[data-figure]');
      expect(await figure.getAttribute('data-figure')).toBe(exact);
      // Written whole below ¥100,000 (¥1,010.00, never ¥1k): the card is the exact amount.
      if (count.rechargeToday < 10_000_000) expect(await card.innerText()).toBe(exact);
      else {
        // Shortened (¥130.6k): the exact amount shows on hover, and on keyboard focus.
        expect(await figure.locator('[aria-hidden="true"]').first().innerText()).toMatch(/^¥\d+(\.\d)?[kMG]$/);
        const tip = card.getByTestId('exact-figure');
        expect(await tip.isVisible()).toBe(false);
        await figure.hover();
        await expect.poll(() => tip.isVisible()).toBe(true);
        expect(await tip.textContent()).toBe(exact);
        await page.mouse.move(0, 0);
        await expect.poll(() => tip.isVisible()).toBe(false);
        await figure.focus();
        await expect.poll(() => tip.isVisible()).toBe(true);
        // Inside the window, readable.
        const box = (await tip.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(size.width);
      }
      // A count is written whole up to 99,999.
      expect(await page.getByTestId('kpi-messagesToday').locator('dd').first().innerText()).toBe(
        await intl(page, 'en', count.messagesToday, 'count'),
      );

      // The finance panel is the table a reader acts on: every amount in full, with its currency.
      for (const key of ['totalRecharge', 'totalBalance', 'pendingWithdrawalAmount'] as const) {
        expect(await page.getByTestId(`finance-${key}`).locator('dd').textContent(), key).toBe(
          await intl(page, 'en', finance[key], 'currency'),
        );
      }
      expect(await page.getByTestId('finance-pendingWithdrawalCount').locator('dd').textContent()).toBe(
        String(finance.pendingWithdrawalCount),
      );
      await docsScreenshot(page, `dashboard-figures-${size.width}.png`);
    });
  }
});

describe('charts with series orders of magnitude apart', () => {
  /** The series keys of each drawn panel of a SplitChart. */
  const panels = (page: Page, testId: string) =>
    page
      .getByTestId(testId)
      .locator('[data-chart-panel]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-chart-panel')!.split(',')));

  it('gives registrations a panel of their own beside tens of thousands of messages, on the statistics page and the dashboard', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    const listed = page.waitForResponse((r) => r.url().includes(resourceCalls(DAILY_STATISTICS).list));
    await page.goto('/operation/statistics');
    const rows = ((await (await listed).json()) as { data: { list: Record<string, number>[] } }).data.list;
    await page.getByTestId('chart').locator('canvas').first().waitFor();
    const peak = (key: string) => Math.max(...rows.map((r) => Math.abs(Number(r[key]) || 0)), 1);
    expect(peak('messages') / peak('registrations')).toBeGreaterThan(100);

    const split = await panels(page, 'chart');
    expect(split.length).toBeGreaterThan(1);
    const home = (key: string) => split.find((p) => p.includes(key))!;
    expect(home('registrations')).not.toContain('messages');
    expect(home('rechargeAmount')).not.toContain('messages');
    // Within a panel, no series is drawn at under a tenth of another's height.
    for (const panel of split)
      expect(Math.max(...panel.map(peak)) / Math.min(...panel.map(peak)), panel.join()).toBeLessThanOrEqual(10);
    await expect.poll(() => page.getByTestId('chart').locator('canvas').count()).toBe(split.length);

    await page.goto('/dashboard');
    await page.getByTestId('daily-chart').locator('canvas').first().waitFor();
    const daily = await panels(page, 'daily-chart');
    expect(daily.find((p) => p.includes('registrations'))).not.toContain('messages');
  });
});

describe('the smaller things', () => {
  it('names the error log’s users by account, and shows "Clear log" only to whoever may clear it', async () => {
    const operator = (await h.pageAs('operator', { width: 1440, height: 900 })).page;
    const post = (page: Page, message: string) =>
      page.evaluate(
        async (m) =>
          (
            await fetch('/api/error-log', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ message: m, url: location.href }),
            })
          ).status,
        message,
      );
    expect(await post(operator, 'operator saw this')).toBe(200);
    await operator.goto('/error-log/log');
    const user = operator.locator('[data-col="user"]').first();
    await expect.poll(() => user.textContent()).toBe('operator');
    expect(await operator.getByRole('button', { name: 'Clear log' }).count()).toBe(0);

    const admin = (await h.pageAs('admin', PHONE)).page;
    expect(await post(admin, 'admin saw this')).toBe(200);
    await admin.goto('/error-log/log');
    await admin.getByTestId('error-log-cards').waitFor();
    await expect
      .poll(() => admin.locator('[data-col="user"]').allTextContents())
      .toEqual(expect.arrayContaining(['admin', 'operator']));
    expect(await admin.locator('[data-col="user"]').allTextContents()).not.toContain(expect.stringMatching(/^#?\d+$/));
    expect(await admin.getByRole('button', { name: 'Clear log' }).isVisible()).toBe(true);
  }, 90_000);

  it('lists the 401 and 404 pages in nobody’s menu, and still opens them by address', async () => {
    for (const who of ['admin', 'operator'] as const) {
      const { page } = await h.pageAs(who, { width: 1440, height: 900 });
      const paths = await page
        .locator('[data-menu-path], [data-menu-group]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-menu-path') ?? e.getAttribute('data-menu-group')));
      expect(paths.length).toBeGreaterThan(3);
      expect(
        paths.filter((p) => p === '/error' || p?.startsWith('/error/')),
        who,
      ).toEqual([]);
      await page.goto('/error/404');
      await page.getByTestId('layout').waitFor();
      await page.getByTestId('error-404').waitFor();
    }
  }, 90_000);

  for (const size of [{ width: 1440, height: 900 }, PHONE]) {
    it(`draws the login page in the dark scheme, a dark backdrop around a dark form, at ${size.width} px`, async () => {
      const { page } = await h.newPage(size);
      await page.goto('/login');
      await storePreference(page, 'colorScheme', 'dark');
      await page.reload();
      const form = page.locator('main form');
      await form.waitFor();
      // Relative luminance of a computed colour (sRGB, or oklch as Chromium reports it, by its lightness).
      const luminance = (selector: string, property: 'backgroundColor' | 'color') =>
        page
          .locator(selector)
          .first()
          .evaluate((el, prop) => {
            const probe = document.createElement('canvas').getContext('2d')!;
            probe.fillStyle = getComputedStyle(el)[prop];
            probe.fillRect(0, 0, 1, 1);
            const [r, g, b] = probe.getImageData(0, 0, 1, 1).data;
            const lin = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
            return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
          }, property);
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      expect(await luminance('main', 'backgroundColor')).toBeLessThan(0.05);
      expect(await luminance('main form', 'backgroundColor')).toBeLessThan(0.05);
      expect(await luminance('main form h1', 'color')).toBeGreaterThan(0.7);
      expect(await luminance('main label', 'color')).toBeGreaterThan(0.5);
    });
  }

  it('reads every Spanish menu entry whole in the 210 px menu, wrapping rather than cutting it', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    await storePreference(page, 'language', 'es');
    await page.reload();
    await page.getByTestId('layout').waitFor();
    const cut = () =>
      page.getByTestId('menu').evaluate((menu) =>
        [...menu.querySelectorAll('a span, button span')]
          .filter(
            (s) =>
              s.getClientRects().length > 0 &&
              s.textContent!.trim() !== '' &&
              !s.closest('[data-testid="withdrawal-badge"]'),
          )
          .filter((s) => s.scrollWidth > s.clientWidth + 1 || getComputedStyle(s).textOverflow === 'ellipsis')
          .map((s) => s.textContent),
      );
    const groups = page.locator('[data-menu-group]');
    let seen = 0;
    for (let i = 0; i < (await groups.count()); i++) {
      await groups.nth(i).click();
      expect(await cut()).toEqual([]);
      seen += await page.getByTestId('menu').locator('ul:not([hidden]) [data-menu-path]').count();
    }
    expect(seen).toBeGreaterThan(30);
    // The longest entries take a second line inside the menu's width.
    await page.locator('[data-menu-group="/siteconfig"]').click();
    const entry = page.locator('[data-menu-group="/siteconfig"] span').first();
    expect(await entry.textContent()).toBe('Configuración del sitio');
    const box = (await entry.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(210);
  });
});
