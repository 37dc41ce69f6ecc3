import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatDay } from '../../web/lib/format.js';
import { formatMoneyIn } from '../../web/engine/shared/money.js';
import { parseCsv } from '../support/csv.js';
import { errorToasts, useHarness, rowCommand, downloadedText } from './harness.js';

const h = useHarness();
const store = () => h.sandbox.app.sandbox;

const rows = (p: Page) => p.locator('[data-testid="list-table"] tbody tr');
const dialog = (p: Page) => p.getByTestId('form-dialog');
const DAY = 86_400_000;
const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);
/** The table writes days the English way (05/27/2026); the CSV and the sandbox, as YYYY-MM-DD. */
const isoDay = (shown: string) => {
  const [month, day, year] = shown.split('/');
  return `${year}-${month}-${day}`;
};

/** One logged-in page for the whole file. */
let page: Page;
beforeAll(async () => {
  page = (await h.pageAs('admin')).page;
});

/** The statistics table as records keyed by its header labels. */
async function statisticsTable(p: Page): Promise<Record<string, string>[]> {
  const table = p.getByTestId('list-table');
  const header = await table.locator('thead th').allTextContents();
  const cells = await table
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  return cells.map((row) => Object.fromEntries(header.map((h, i) => [h, row[i] ?? ''])));
}

describe('statistics: a range and a dimension', () => {
  it('shows the chosen days with the registrations and recharges the sandbox recorded, and exports them', async () => {
    await page.goto('/operation/statistics');
    await page.getByTestId('chart').locator('canvas').first().waitFor();
    const now = Date.now();
    const start = utcDay(now - 15 * DAY);
    const end = utcDay(now - 6 * DAY);
    await page.getByLabel('Start date').fill(start);
    await page.getByLabel('End date').fill(end);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL((u) => u.searchParams.get('startDate') === start && u.searchParams.get('endDate') === end);
    await expect.poll(() => rows(page).count()).toBe(10);

    const registered = new Map<string, number>();
    for (const u of store().users.all())
      registered.set(u.registerTime.slice(0, 10), (registered.get(u.registerTime.slice(0, 10)) ?? 0) + 1);
    const recharged = new Map<string, number>();
    for (const b of store().bills.all())
      if (b.type === 'recharge')
        recharged.set(b.createTime.slice(0, 10), (recharged.get(b.createTime.slice(0, 10)) ?? 0) + b.amount);
    const table = await statisticsTable(page);
    const days = Array.from({ length: 10 }, (_, i) => utcDay(now - (15 - i) * DAY));
    expect(table.map((r) => r.Date)).toEqual(days.map((d) => formatDay(d, 'en')));
    for (const r of table) {
      const day = isoDay(r.Date!);
      // Written the reader's way: digit groups, as the table's other figures.
      expect([r.Date, r.Registrations, r['Recharge amount']]).toEqual([
        r.Date,
        String(registered.get(day) ?? 0),
        formatMoneyIn(recharged.get(day) ?? 0, 'en'),
      ]);
    }
    expect(Number(await page.getByTestId('chart').getAttribute('data-points'))).toBe(10);

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const [header, ...lines] = parseCsv((await downloadedText(await downloading)).slice(1));
    // The same figures, plain for a spreadsheet: ISO days, no digit groups.
    const plain = (r: Record<string, string>) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.replace(/,/g, '')]));
    expect(lines.map((l) => Object.fromEntries(header!.map((k, i) => [k, l[i]])))).toEqual(
      table.map((r, i) => ({ ...plain(r), Date: days[i] })),
    );
  });

  it('narrows channel statistics to one channel', async () => {
    await page.goto('/operation/channel_statistics');
    await rows(page).first().waitFor();
    await page.getByRole('combobox', { name: 'Channel' }).selectOption('appStore');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL((u) => u.searchParams.get('channel') === 'appStore');
    await expect
      .poll(async () => new Set((await statisticsTable(page)).map((r) => r.Channel)))
      .toEqual(new Set(['App Store']));
    const table = await statisticsTable(page);
    expect(table).toHaveLength(30);
    const first = isoDay(table[0]!.Date!);
    const registered = store()
      .users.all()
      .filter((u) => u.channel === 'appStore' && u.registerTime.slice(0, 10) >= first);
    expect(table.reduce((s, r) => s + Number(r.Registrations), 0)).toBe(registered.length);
  });
});

describe('operation lists: their own actions', () => {
  it('sends a mass message to a segment and lists it with the recipients the sandbox counted', async () => {
    await page.goto('/masshelper');
    await rows(page).first().waitFor();
    const recipients = store().users.count((u) => u.status === 'normal' && u.privileged);
    await page.locator('[data-action="send"]').click();
    await dialog(page).getByRole('button', { name: 'Compose and send' }).click();
    expect(await dialog(page).locator('[data-error-for="title"]').textContent()).toBe('This field is required');
    await dialog(page).getByLabel('Audience').selectOption('privileged');
    await dialog(page).getByLabel('Title').fill('E2E maintenance notice');
    await dialog(page).getByLabel('Content').fill('The service pauses tonight from 02:00 to 02:30.');
    await dialog(page).getByRole('button', { name: 'Compose and send' }).click();
    const result = page.getByTestId('result-dialog');
    expect(await result.locator('[data-result-key="targetCount"]').textContent()).toBe(String(recipients));
    const sent = store().massMessages.find((m) => m.title === 'E2E maintenance notice')!;
    expect(sent).toMatchObject({
      segment: 'privileged',
      content: 'The service pauses tonight from 02:00 to 02:30.',
      targetCount: recipients,
      sentBy: 'admin',
    });
    await result.getByRole('button', { name: 'Close' }).click();
    await rows(page).filter({ hasText: 'E2E maintenance notice' }).waitFor();
  });

  it('forces several users offline at once after one confirmation', async () => {
    await page.goto('/onlineuser');
    await rows(page).first().waitFor();
    const ids = await rows(page).evaluateAll((trs) =>
      trs.slice(0, 2).map((tr) => Number(tr.getAttribute('data-row-id'))),
    );
    await page.getByLabel(`Select row ${ids[0]}`, { exact: true }).check();
    await page.getByLabel(`Select row ${ids[1]}`, { exact: true }).check();
    await page.locator('[data-bulk-action="forceLogout"]').click();
    const confirm = page.getByTestId('confirm-dialog');
    // Not undoable, so asked first, naming whom it throws out.
    const accounts = ids.map((id) => store().onlineSessions.get(id)!.account);
    expect(await confirm.textContent()).toContain(`Run “Force logout” on 2 records: ${accounts.join(', ')}?`);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('[data-toast="success"]', { hasText: `“Force logout” done: ${accounts.join(', ')}` }).waitFor();
    for (const id of ids) expect(store().onlineSessions.get(id)).toBeUndefined();
    for (const id of ids) await expect.poll(() => page.locator(`tr[data-row-id="${id}"]`).count()).toBe(0);
  });

  it('answers a suggestion from its row, which marks it handled', async () => {
    await page.goto('/suggestion?state=pending');
    await rows(page).first().waitFor();
    const id = Number(await rows(page).first().getAttribute('data-row-id'));
    await rowCommand(rows(page).first(), '[data-action="reply"]');
    await dialog(page).getByLabel('Reply').fill('Thank you, fixed in the next release.');
    await dialog(page).getByRole('button', { name: 'Reply' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    expect(store().suggestions.get(id)).toMatchObject({
      state: 'handled',
      reply: 'Thank you, fixed in the next release.',
      handledBy: 'admin',
    });
    await expect.poll(() => page.locator(`tr[data-row-id="${id}"]`).count()).toBe(0);
    expect(await errorToasts(page)).toEqual([]);
  });
});
