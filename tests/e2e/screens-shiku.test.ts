import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseObjectId } from '../../server/sandbox/shiku/wire.js';
import { REPO_ROOT } from '../support/paths.js';
import { errorToasts, rowCommand, useHarness } from './harness.js';
import { walkBoundScreens } from './screen-walk.js';

/**
 * The walk of the management screens against the sandbox's Shiku IM dialect through the shipped
 * binding (server/backend-map/bindings/shiku-im.json): the login is Shiku's md5 form login, every
 * call carries its signature, every screen the map binds shows its rows or form, the ones it marks
 * unsupported are gone from the menu and say so at their URL, and the writes it binds (a
 * withdrawal approved and one rejected, a sensitive word added, a user banned) land in the store;
 * the daily statistics (Shiku's per-day counts over three calls) and the dashboard show the store's.
 */
const MAP = path.join(REPO_ROOT, 'server/backend-map/bindings/shiku-im.json');
const UNOFFERED = new Set(
  Object.entries((JSON.parse(readFileSync(MAP, 'utf8')) as { resources: Record<string, { unsupported?: boolean }> }).resources)
    .filter(([, entry]) => entry.unsupported)
    .map(([id]) => id),
);

const h = useHarness({
  sandbox: { dialect: 'shiku', withdrawalTickMs: 0 },
  env: { BACKEND_MAP: MAP, SANDBOX_DIALECT: 'shiku' },
});
const store = () => h.sandbox.app.sandbox;
const rows = (page: Page) => page.locator('[data-testid="list-table"]:not([aria-busy]) tbody tr');

const CHINA_MS = 8 * 3_600_000;
/** The China day (Shiku's buckets) of an instant, YYYY-MM-DD. */
const chinaDay = (ms: number) => new Date(ms + CHINA_MS).toISOString().slice(0, 10);
/**
 * Records of one China day as Shiku's mapReduce counts them: a time in seconds after the day's
 * first second (the start bound is exclusive) and before the next day's.
 */
function countOnDay(times: readonly string[], day: string): number {
  const from = (Date.parse(`${day}T00:00:00Z`) - CHINA_MS) / 1000;
  return times.filter((t) => {
    const second = Math.floor(Date.parse(t) / 1000);
    return second > from && second < from + 86_400;
  }).length;
}

/** The first row offering an action: Shiku's lists take no state filter, so rows of every state are shown. */
async function firstRowOffering(page: Page, action: string): Promise<Locator> {
  await rows(page).first().waitFor();
  const row = rows(page)
    .filter({ has: page.locator(`[data-action="${action}"]`) })
    .first();
  await row.waitFor();
  return row;
}

describe('every engine screen on the Shiku IM dialect through its binding', () => {
  it('shows rows, a chart or a filled form where the map binds the screen, and a clear page where not', async () => {
    expect(UNOFFERED.size).toBeGreaterThan(0);
    const { page } = await h.pageAs('admin');
    await expect.poll(() => page.getByTestId('sandbox-banner').textContent()).toContain('Backend dialect: shiku');
    const { problems, walked, menuLinks } = await walkBoundScreens(page, UNOFFERED);
    expect(problems).toEqual([]);
    expect(walked).toBeGreaterThanOrEqual(9);
    expect(menuLinks).toContain('/userpage/userset');
    expect(menuLinks).toContain('/WithDrawMoneyCheck');
  }, 240_000);

  it('approves one withdrawal and rejects another with a reason, through Shiku’s auditStatus', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/WithDrawMoneyCheck');
    const approving = await firstRowOffering(page, 'approve');
    const approvedId = parseObjectId('consume', (await approving.getAttribute('data-row-id'))!)!;
    expect(store().withdrawals.get(approvedId)!.state).toBe('pending');
    await approving.locator('[data-action="approve"]').click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.getByRole('button', { name: 'Approve' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => store().withdrawals.get(approvedId)!.state).toBe('approved');

    const rejecting = await firstRowOffering(page, 'reject');
    const rejectedId = parseObjectId('consume', (await rejecting.getAttribute('data-row-id'))!)!;
    expect(rejectedId).not.toBe(approvedId);
    await rejecting.locator('[data-action="reject"]').click();
    const form = page.getByTestId('form-dialog');
    await form.getByLabel('Reason').fill('Payee account closed');
    await form.getByRole('button', { name: 'Reject' }).click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => store().withdrawals.get(rejectedId)!.state).toBe('rejected');
    expect(store().withdrawals.get(rejectedId)!.reason).toContain('Payee account closed');
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);

  it('adds a sensitive word and bans a user', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/sensitivewords');
    await rows(page).first().waitFor();
    await page.getByTestId('list-create').click();
    const form = page.getByTestId('form-dialog');
    await form.getByLabel('Word').fill('shiku-e2e-word');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => store().sensitiveWords.find((w) => w.word === 'shiku-e2e-word') !== undefined).toBe(true);

    await page.goto('/userpage/userset');
    await rows(page).first().waitFor();
    // The first user the store holds as not banned (ban sits in the row's "⋯" menu, not among its buttons).
    const ids = (await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-id')))).map(Number);
    const userId = ids.find((id) => store().users.get(id)?.status === 'normal')!;
    expect(userId).toBeDefined();
    const user = page.locator(`tr[data-row-id="${userId}"]`);
    await rowCommand(user, '[data-action="ban"]');
    const dialog = page.getByTestId('form-dialog');
    await dialog.getByLabel('Reason').fill('Spam');
    await dialog.getByRole('button', { name: 'Ban' }).click();
    await expect.poll(() => store().users.get(userId)!.status).toBe('banned');
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);

  it('shows each day’s registrations, messages and new groups from three Shiku counts, as the store has them', async () => {
    const { page } = await h.pageAs('admin');
    const days = [3, 2, 1].map((back) => chinaDay(Date.now() - back * 86_400_000));
    await page.goto(`/operation/statistics?startDate=${days[0]}&endDate=${days[2]}`);
    const table = page.locator('[data-testid="statistics-screen"] [data-testid="list-table"]');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(3);
    expect(await table.locator('thead th').allTextContents()).toEqual(['Date', 'Registrations', 'Messages', 'New groups']);
    const shown = await table
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(1).map((td) => Number(td.textContent))));
    const registered = store()
      .users.all()
      .map((u) => u.registerTime);
    const created = store()
      .groups.all()
      .map((g) => g.createTime);
    expect(shown.map(([registrations, , groups]) => [registrations, groups])).toEqual(
      days.map((day) => [countOnDay(registered, day), countOnDay(created, day)]),
    );
    // The one-to-one messages of each day (chatMsgCount): the seeded history has some every day.
    expect(shown.every(([, messages]) => messages! > 0)).toBe(true);
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);

  it('shows the dashboard’s figures Shiku has, today’s from its per-day counts, and leaves out the rest', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/dashboard');
    const kpi = page.getByTestId('kpi-panel');
    await kpi.getByTestId('kpi-userCount').waitFor();
    expect(await kpi.locator('[data-testid^="kpi-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).toEqual([
      'kpi-userCount',
      'kpi-newUsersToday',
      'kpi-groupCount',
      'kpi-messagesToday',
    ]);
    const exact = (key: string) => kpi.getByTestId(`kpi-${key}`).locator('dd').getAttribute('title');
    expect(await exact('userCount')).toBe(store().users.size.toLocaleString('en'));
    const today = chinaDay(Date.now());
    expect(await exact('newUsersToday')).toBe(
      countOnDay(
        store()
          .users.all()
          .map((u) => u.registerTime),
        today,
      ).toLocaleString('en'),
    );
    await page.getByTestId('daily-chart').locator('canvas').first().waitFor();
    expect(await page.getByTestId('money-chart').count()).toBe(0);
    expect(
      await page
        .getByTestId('daily-panel')
        .locator('[data-testid^="total-"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid'))),
    ).toEqual(['total-registrations', 'total-messages']);
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);
});
