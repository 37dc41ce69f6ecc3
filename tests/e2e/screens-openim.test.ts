import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { REPO_ROOT } from '../support/paths.js';
import { errorToasts, rowCommand, useHarness } from './harness.js';
import { walkBoundScreens } from './screen-walk.js';

/**
 * The walk of the management screens against the sandbox's OpenIM Chat dialect through the shipped
 * binding (server/backend-map/bindings/openim-chat.json), its admin API and chat API on two
 * listeners (the map's `chat` service is the sandbox's, as in sandbox mode): the login form's
 * password reaches OpenIM as its md5, every screen the map binds shows its data, the screens
 * OpenIM lacks are gone from the menu and say so at their URL, and the writes it binds (a ban, a
 * selection banned one call per user, a settings save over two calls, generated invitation codes,
 * a new administrator, a generated password) land in the sandbox's store; the statistics and the
 * dashboard show the store's counts. The groups come from OpenIM Server (the map's `im` service,
 * reached with the login's `imToken`): listed, a group's page with its members, muted, unmuted
 * and dissolved.
 */
const MAP_FILE = path.join(REPO_ROOT, 'server/backend-map/bindings/openim-chat.json');
const MAP = JSON.parse(readFileSync(MAP_FILE, 'utf8')) as BackendMapFile;
const UNOFFERED = new Set(
  Object.entries(MAP.resources ?? {}).flatMap(([id, entry]) => (entry.unsupported ? [id] : [])),
);

const h = useHarness({ sandbox: { dialect: 'openim' }, env: { BACKEND_MAP: MAP_FILE, SANDBOX_DIALECT: 'openim' } });
const store = () => h.sandbox.app.sandbox;
const rows = (p: Page) => p.locator('[data-testid="list-table"] tbody tr');
const dialog = (p: Page) => p.getByTestId('form-dialog');
const openIm = () => h.sandbox.app.openIm!;
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Registrations and distinct users with a successful login per UTC day, as OpenIM counts them. */
function storeCounts(day: string): { registrations: number; activeUsers: number } {
  const registrations = store().users.count((u) => utcDay(Date.parse(u.registerTime)) === day);
  const active = new Set(
    store()
      .loginRecords.all()
      .filter((r) => r.result === 'success' && utcDay(Date.parse(r.time)) === day)
      .map((r) => r.userId),
  );
  return { registrations, activeUsers: active.size };
}

describe('every engine screen on the OpenIM Chat dialect through its binding', () => {
  it('shows rows, a chart or a filled form where OpenIM offers the screen, and a clear page where not', async () => {
    const { page } = await h.pageAs('admin');
    await expect.poll(() => page.getByTestId('sandbox-banner').textContent()).toContain('Backend dialect: openim');
    const { problems, menuLinks } = await walkBoundScreens(page, UNOFFERED);
    expect(problems).toEqual([]);
    for (const offered of [
      '/userpage/userset',
      '/siteconfig/function',
      '/invitationcode',
      '/operation/statistics',
      '/system/admins',
      '/groupset',
    ]) {
      expect(menuLinks).toContain(offered);
    }
    // OpenIM Server lists no online users over HTTP (its list is a gRPC method only): the screen is
    // not offered, and the walk above found its not-offered page.
    expect(UNOFFERED).toContain('onlineUsers');
    expect(menuLinks).not.toContain('/onlineuser');
  }, 240_000);

  it('bans a user with a reason through OpenIM’s /block/add', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/userpage/userset');
    await rows(page).first().waitFor();
    const shown = await rows(page).evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-row-id'))));
    const id = shown.find((n) => store().users.get(n)?.status === 'normal')!;
    await rowCommand(page.locator(`tr[data-row-id="${id}"]`), '[data-action="ban"]');
    await dialog(page).getByLabel('Reason').fill('Spam, banned through the OpenIM binding');
    await dialog(page).getByRole('button', { name: 'Ban' }).click();
    await expect.poll(() => store().users.get(id)?.status).toBe('banned');
    expect(store().users.get(id)).toMatchObject({ banReason: 'Spam, banned through the OpenIM binding' });
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);

  it('bans a selection one /block/add call per user', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/userpage/userset');
    await rows(page).first().waitFor();
    const shown = await rows(page).evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-row-id'))));
    const ids = shown.filter((n) => store().users.get(n)?.status === 'normal').slice(0, 2);
    expect(ids).toHaveLength(2);
    for (const id of ids) await page.getByLabel(`Select row ${id}`, { exact: true }).check();
    await page.locator('[data-bulk-action="ban"]').click();
    await dialog(page).getByLabel('Reason').fill('Spam, a selection banned through the OpenIM binding');
    await dialog(page).getByRole('button', { name: 'Ban' }).click();
    for (const id of ids) await expect.poll(() => store().users.get(id)?.status).toBe('banned');
    for (const id of ids)
      expect(store().users.get(id)).toMatchObject({ banReason: 'Spam, a selection banned through the OpenIM binding' });
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);

  it('saves the site functions into OpenIM’s client config', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/siteconfig/function');
    const form = page.getByTestId('settings-form');
    await expect
      .poll(() => form.getByLabel('Chat room name').inputValue())
      .toBe(String(store().settings.siteFunctions!.chatRoomName));
    await form.getByLabel('Chat room name').fill('OpenIM E2E');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-toast="success"]', { hasText: 'Saved' }).waitFor();
    expect(store().settings.siteFunctions!.chatRoomName).toBe('OpenIM E2E');
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);

  it('generates invitation codes through OpenIM’s /invitation_code/gen', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/invitationcode');
    await rows(page).first().waitFor();
    const before = store().inviteCodes.all().length;
    await page.locator('[data-action="generate"]').click();
    await dialog(page).getByLabel('Count').fill('3');
    await dialog(page).getByLabel('Maximum uses').fill('1');
    await dialog(page).getByRole('button', { name: 'Generate codes' }).click();
    await expect.poll(() => store().inviteCodes.all().length).toBe(before + 3);
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);

  it('shows each day’s registrations and active users from OpenIM’s two counts, as the store has them', async () => {
    const { page } = await h.pageAs('admin');
    const now = Date.now();
    const days = [2, 1, 0].map((back) => utcDay(now - back * 86_400_000));
    await page.goto(`/operation/statistics?startDate=${days[0]}&endDate=${days[2]}`);
    const table = page.locator('[data-testid="statistics-screen"] [data-testid="list-table"]');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(3);
    // Digit groups as English writes them (1,872). Date, then the series OpenIM has: registrations (new_user_count) and active users (login_user_count).
    expect(await table.locator('thead th').allTextContents()).toEqual(['Date', 'Registrations', 'Active users']);
    const shown = await table
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) =>
          [...tr.querySelectorAll('td')].slice(1).map((td) => Number(td.textContent!.replaceAll(',', ''))),
        ),
      );
    expect(shown).toEqual(days.map((day) => Object.values(storeCounts(day))));
    expect(shown.flat().some((n) => n > 0)).toBe(true);
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);

  it('shows the dashboard’s figures OpenIM has, and leaves out those it lacks', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/dashboard');
    const kpi = page.getByTestId('kpi-panel');
    await kpi.getByTestId('kpi-userCount').waitFor();
    expect(
      await kpi.locator('[data-testid^="kpi-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid'))),
    ).toEqual(['kpi-userCount', 'kpi-newUsersToday', 'kpi-activeUsersToday']);
    const today = storeCounts(utcDay(Date.now()));
    const exact = (key: string) => kpi.getByTestId(`kpi-${key}`).locator('[data-figure]').getAttribute('data-figure');
    expect(await exact('userCount')).toBe(store().users.size.toLocaleString('en'));
    expect(await exact('newUsersToday')).toBe(today.registrations.toLocaleString('en'));
    expect(await exact('activeUsersToday')).toBe(today.activeUsers.toLocaleString('en'));
    // The activity chart, with OpenIM's two series; no money chart, since OpenIM has none of its series.
    await page.getByTestId('daily-chart').locator('canvas').first().waitFor();
    expect(await page.getByTestId('money-chart').count()).toBe(0);
    expect(
      await page
        .getByTestId('daily-panel')
        .locator('[data-testid^="total-"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid'))),
    ).toEqual(['total-registrations', 'total-activeUsers']);
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);

  it('saves the registration switch and a numeric setting, each to its OpenIM call', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/siteconfig/function');
    const form = page.getByTestId('settings-form');
    const functions = store().settings.siteFunctions!;
    await expect
      .poll(() => form.getByLabel('Maximum group members').inputValue())
      .toBe(String(functions.maxGroupMembers));
    expect(await form.getByLabel('Registration open').isChecked()).toBe(functions.registerEnabled !== false);
    await form.getByLabel('Registration open').setChecked(false);
    await form.getByLabel('Maximum group members').fill('750');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-toast="success"]', { hasText: 'Saved' }).waitFor();
    // /user/allow_register/set took the switch; /client_config/set the number, as its text.
    expect(store().settings.siteFunctions).toMatchObject({ registerEnabled: false, maxGroupMembers: 750 });
    await page.reload();
    await expect.poll(() => form.getByLabel('Maximum group members').inputValue()).toBe('750');
    expect(await form.getByLabel('Registration open').isChecked()).toBe(false);
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);

  it('creates an administrator whose password OpenIM keeps as its md5, and who then logs in', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/system/admins');
    await rows(page).first().waitFor();
    await page.getByTestId('list-create').click();
    await dialog(page).getByLabel('Account').fill('openim_ops');
    await dialog(page).getByLabel('Nickname').fill('OpenIM Ops');
    await dialog(page).getByLabel('Password').fill('Ops-pass-2024');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    await expect.poll(() => store().accounts.find((a) => a.account === 'openim_ops') !== undefined).toBe(true);
    const created = store().accounts.find((a) => a.account === 'openim_ops')!;
    expect(openIm().profile(created)).toMatchObject({ password: md5('Ops-pass-2024'), level: 80 });
    await rows(page).filter({ hasText: 'openim_ops' }).first().waitFor();

    const other = (await h.newPage()).page;
    await other.goto('/login');
    await other.getByLabel('Account').fill('openim_ops');
    await other.getByLabel('Password', { exact: true }).fill('Ops-pass-2024');
    await other.getByRole('button', { name: 'Log in' }).click();
    await other.getByTestId('layout').waitFor();
    // Level 80: every bound screen but the administrators.
    const links = await other.locator('nav a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(links).toContain('/operation/statistics');
    expect(links).not.toContain('/system/admins');
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);

  it('resets a user’s password to one the gateway chose, shown once, its md5 what OpenIM keeps', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/userpage/userset');
    await rows(page).first().waitFor();
    const id = Number(await rows(page).first().getAttribute('data-row-id'));
    await rowCommand(page.locator(`tr[data-row-id="${id}"]`), '[data-action="resetPassword"]');
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Confirm' }).click();
    const result = page.getByTestId('result-dialog');
    const password = (await result.locator('[data-result-key="password"]').textContent())!;
    expect(password).toMatch(/^[A-Za-z2-9]{12}$/);
    expect(openIm().userPasswords.get(String(id))).toBe(md5(password));
    await result.getByRole('button', { name: 'Close' }).click();
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);

  it('lists OpenIM Server’s groups, opens one with its members, mutes, unmutes and dissolves it', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/groupset');
    await rows(page).first().waitFor();
    const shown = await rows(page).evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-row-id'))));
    // Only live groups: OpenIM Server's get_groups leaves dismissed ones out.
    for (const id of shown) expect(store().groups.get(id)?.status).toBe('normal');
    const id = shown.find((n) => {
      const g = store().groups.get(n)!;
      return !g.muted && (store().members.get(n) ?? []).length > 1;
    })!;
    const group = () => store().groups.get(id)!;

    await page.goto(`/groupset/${id}`);
    const members = page.getByTestId('group-members');
    await members.waitFor();
    const stored = store().members.get(id)!;
    await expect.poll(() => members.locator('tbody tr').count()).toBe(Math.min(stored.length, 20));
    const owner = store().users.get(stored.find((m) => m.role === 'owner')!.userId)!;
    expect(await members.locator('tbody tr').first().textContent()).toContain(owner.nickname);

    await page.goto('/groupset');
    const at = page.locator(`tr[data-row-id="${id}"]`);
    await at.waitFor();
    await rowCommand(at, '[data-action="muteAll"]');
    await expect.poll(() => group().muted).toBe(true);
    await rowCommand(at, '[data-action="unmuteAll"]');
    await expect.poll(() => group().muted).toBe(false);
    await rowCommand(at, '[data-action="dissolve"]');
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => group().status).toBe('dissolved');
    // OpenIM keeps a dismissed group's members (deleteMember false).
    expect(store().members.get(id)).toHaveLength(stored.length);
    await expect.poll(() => page.locator(`tr[data-row-id="${id}"]`).count()).toBe(0);
    expect(await errorToasts(page)).toEqual([]);
  }, 120_000);
});
