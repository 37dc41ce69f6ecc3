import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SEEDED_WEBSITE } from '../../sandbox/shiku/config.js';
import { parseObjectId } from '../../sandbox/shiku/wire.js';
import { totp } from '../../sandbox/lib/totp.js';
import { createAdmin } from '../../sandbox/store/accounts.js';
import { ALL_PERMISSIONS } from '../../server/contract/index.js';
import { REPO_ROOT } from '../support/paths.js';
import { errorToasts, rowCommand, rowOffers, useHarness } from './harness.js';
import { walkBoundScreens } from './screen-walk.js';

/**
 * The walk of the management screens against the sandbox's Shiku IM dialect through the shipped
 * binding (server/backend-map/bindings/shiku-im.json): the login is Shiku's md5 form login, every
 * call carries its signature, every screen the map binds shows its rows or form, the ones it marks
 * unsupported are gone from the menu and say so at their URL, and the writes it binds land in the
 * store: a withdrawal approved and one rejected, a sensitive word added, a user banned; a group
 * edited, muted, unmuted and dissolved as the logged-in administrator; an administrator's password
 * reset (its md5) and the administrator deleted;
 * a selection banned and words, codes and an administrator deleted one Shiku call per id; codes
 * generated one call each; the site configuration saved over Shiku's whole Config; reports deleted one
 * call each and a custom website added. The daily
 * statistics (Shiku's per-day counts over three calls) and the dashboard show the store's.
 */
const MAP = path.join(REPO_ROOT, 'server/backend-map/bindings/shiku-im.json');
const UNOFFERED = new Set(
  Object.entries(
    (JSON.parse(readFileSync(MAP, 'utf8')) as { resources: Record<string, { unsupported?: boolean }> }).resources,
  )
    .filter(([, entry]) => entry.unsupported)
    .map(([id]) => id),
);

const h = useHarness({
  sandbox: { dialect: 'shiku', withdrawalTickMs: 0 },
  env: { BACKEND_MAP: MAP, SANDBOX_DIALECT: 'shiku' },
});
const store = () => h.sandbox.app.sandbox;
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
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
    // Shiku's bill is one user's (userBill takes a required userId): the screen opens on a user's.
    const billed = store().bills.all()[0]!.userId;
    const { problems, walked, menuLinks } = await walkBoundScreens(page, UNOFFERED, new Set(), {
      billingRecords: `?userAccount=${billed}`,
    });
    expect(problems).toEqual([]);
    expect(walked).toBeGreaterThanOrEqual(18);
    expect(menuLinks).toContain('/userpage/userset');
    expect(menuLinks).toContain('/WithDrawMoneyCheck');
    // Issue 39: Shiku's reports, custom websites, online users and request log.
    for (const link of ['/suggestion', '/homelist']) expect(menuLinks).toContain(link);
    // Shiku's latest login per user, and ClientConfig's versions and download addresses.
    for (const link of ['/loginuser', '/versionupdate/appupdate', '/distribution']) expect(menuLinks).toContain(link);
  }, 360_000);

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
    expect(await table.locator('thead th').allTextContents()).toEqual([
      'Date',
      'Registrations',
      'Messages',
      'New groups',
    ]);
    const shown = await table
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) =>
          [...tr.querySelectorAll('td')].slice(1).map((td) => Number(td.textContent!.replaceAll(',', ''))),
        ),
      );
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
    expect(
      await kpi.locator('[data-testid^="kpi-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid'))),
    ).toEqual(['kpi-userCount', 'kpi-newUsersToday', 'kpi-groupCount', 'kpi-messagesToday']);
    const exact = (key: string) => kpi.getByTestId(`kpi-${key}`).locator('[data-figure]').getAttribute('data-figure');
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

/** A call to the sandbox's Shiku console API as Shiku's own console makes it: logged in, signed. */
async function shikuCall(path: string, params: Record<string, string>): Promise<Record<string, unknown>> {
  const form = (body: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
  const login = (await (
    await fetch(
      `${h.sandbox.url}/console/login`,
      form({ account: 'admin', password: md5('admin123'), googlecode: '0' }),
    )
  ).json()) as {
    data: { access_Token: string; account: string; apiKey: string };
  };
  const { access_Token: token, account, apiKey } = login.data;
  const time = String(Math.floor(Date.now() / 1000));
  const signed = { ...params, access_token: token, time, secret: md5(`${apiKey}${time}${account}${token}`) };
  return (await (await fetch(`${h.sandbox.url}${path}`, form(signed))).json()) as Record<string, unknown>;
}

const dialog = (page: Page) => page.getByTestId('form-dialog');
const confirmDialog = (page: Page) => page.getByTestId('confirm-dialog');
const rowIds = (page: Page) => rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-id')!));

describe('the Shiku IM writes that take the session, the clock, one call per id or a read first', () => {
  it('edits a group’s name, mutes and unmutes it, and dissolves it, as the logged-in administrator', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/groupset');
    await rows(page).first().waitFor();
    const hex = (await rowIds(page)).find((x) => {
      const found = store().groups.get(parseObjectId('room', x)!);
      return found?.status === 'normal' && !found.muted;
    })!;
    const id = parseObjectId('room', hex)!;
    const group = () => store().groups.get(id)!;
    expect(group().muted).toBe(false);
    const at = page.locator(`tr[data-row-id="${hex}"]`);

    await at.getByRole('button', { name: 'Edit' }).click();
    await dialog(page).getByLabel('Name').fill('Shiku E2E group');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    await expect.poll(() => group().name).toBe('Shiku E2E group');

    // updateRoom with talkTime: now plus ten years, so the muted column (talkTime > now) reads true.
    await rowCommand(at, '[data-action="muteAll"]');
    await expect.poll(() => group().muted).toBe(true);
    await expect.poll(() => rowOffers(at, '[data-action="unmuteAll"]')).toBe(true);
    await rowCommand(at, '[data-action="unmuteAll"]');
    await expect.poll(() => group().muted).toBe(false);

    await rowCommand(at, '[data-action="dissolve"]');
    await confirmDialog(page).getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => group().status).toBe('dissolved');
    expect(await errorToasts(page)).toEqual([]);
  }, 120_000);

  it('lists the administrators by the caller’s telephone, resets one’s password as its md5 and deletes it through delAdmin', async () => {
    const doomed = createAdmin(
      store().accounts,
      {
        account: 'shikuE2eAdmin',
        nickname: 'Shiku E2E admin',
        password: 'Passw0rd!e2e',
        permissions: [...ALL_PERMISSIONS],
        status: 'enabled',
      },
      Date.now(),
    );
    // Shiku lets no account but "1000" in without a bound authenticator (AdminController 664-685).
    const SECRET = 'JBSWY3DPEHPK3PXP';
    Object.assign(doomed, { googleBound: true, googleSecret: SECRET });
    const { page } = await h.pageAs('admin');
    await page.goto('/system/admins');
    const row = page.locator(`tr[data-row-id="${doomed.userId}"]`);
    await expect.poll(() => row.locator('[data-col="account"]').textContent()).toBe('shikuE2eAdmin');

    // A password reset goes to updateUserPassword as its md5, which Shiku keeps and compares
    // verbatim: the administrator then logs in to Shiku's own console with the new password.
    const shikuLogin = async (password: string) =>
      (
        (await (
          await fetch(`${h.sandbox.url}/console/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              account: 'shikuE2eAdmin',
              password: md5(password),
              googlecode: totp(SECRET, Date.now()),
            }).toString(),
          })
        ).json()) as { resultCode?: number }
      ).resultCode;
    // Made in the store, the account has no Shiku password yet (Shiku keeps its own).
    expect(await shikuLogin('Renewed-pass-42')).not.toBe(1);
    await rowCommand(row, '[data-action="resetPassword"]');
    await dialog(page).getByLabel('Password').fill('Renewed-pass-42');
    await dialog(page).getByRole('button', { name: 'Reset password' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    await expect.poll(() => shikuLogin('Renewed-pass-42')).toBe(1);

    await row.getByLabel(`Select row ${doomed.userId}`, { exact: true }).check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await confirmDialog(page).getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => store().accounts.get(doomed.id)).toBeUndefined();
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);

  it('bans a selection and deletes several words, one Shiku call per id', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/userpage/userset');
    await rows(page).first().waitFor();
    const users = (await rowIds(page))
      .map(Number)
      .filter((id) => store().users.get(id)?.status === 'normal')
      .slice(0, 2);
    expect(users).toHaveLength(2);
    for (const id of users) await page.getByLabel(`Select row ${id}`, { exact: true }).check();
    await page.locator('[data-bulk-action="ban"]').click();
    await dialog(page).getByLabel('Reason').fill('Spam, found in a selection');
    await dialog(page).getByRole('button', { name: 'Ban' }).click();
    for (const id of users) await expect.poll(() => store().users.get(id)!.status).toBe('banned');

    await page.goto('/sensitivewords');
    await rows(page).first().waitFor();
    const words = (await rowIds(page)).slice(0, 3).map((hex) => parseObjectId('keyword', hex)!);
    const hexes = (await rowIds(page)).slice(0, 3);
    for (const hex of hexes) await page.getByLabel(`Select row ${hex}`, { exact: true }).check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await confirmDialog(page).getByRole('button', { name: 'Confirm' }).click();
    for (const id of words) await expect.poll(() => store().sensitiveWords.get(id)).toBeUndefined();
    expect(await errorToasts(page)).toEqual([]);
  }, 120_000);

  it('generates invitation codes one create/inviteCode call each, then deletes them one delInviteCode call each', async () => {
    // Shiku creates codes only in its one-code-per-user mode.
    store().settings.siteFunctions!.inviteCodeRequired = true;
    const before = new Set(
      store()
        .inviteCodes.all()
        .map((c) => c.id),
    );
    const { page } = await h.pageAs('admin');
    await page.goto('/invitationcode');
    await rows(page).first().waitFor();
    await page.locator('[data-action="generate"]').click();
    await dialog(page).getByLabel('Count').fill('3');
    await dialog(page).getByLabel('Maximum uses').fill('1');
    await dialog(page).getByRole('button', { name: 'Generate codes' }).click();
    await expect.poll(() => store().inviteCodes.all().length).toBe(before.size + 3);
    const made = store()
      .inviteCodes.all()
      .filter((c) => !before.has(c.id));
    for (const c of made) expect(c.code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    // The generated codes are shown to copy.
    const result = page.getByTestId('result-dialog');
    for (const c of made) await expect.poll(() => result.textContent()).toContain(c.code);
    await result.getByRole('button', { name: 'Close' }).click();
    // Shiku lists codes in stored order: the new ones are on the last page.
    await page.goto(`/invitationcode?pageNum=${Math.ceil(store().inviteCodes.all().length / 100)}&pageSize=100`);

    const madeHere = async () =>
      (await rowIds(page)).filter((hex) => made.some((c) => c.id === parseObjectId('inviteCode', hex)));
    await expect.poll(async () => (await madeHere()).length).toBe(3);
    const hexes = await madeHere();
    for (const hex of hexes) await page.getByLabel(`Select row ${hex}`, { exact: true }).check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await confirmDialog(page).getByRole('button', { name: 'Confirm' }).click();
    for (const c of made) await expect.poll(() => store().inviteCodes.get(c.id)).toBeUndefined();
    expect(await errorToasts(page)).toEqual([]);
  }, 120_000);

  it('saves the site configuration over Shiku’s whole Config, keeping what the form does not show', async () => {
    // A Config member the console has no field for, set the way Shiku's own console would.
    const config = (await shikuCall('/console/config', {})).data as Record<string, string | number>;
    const whole = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, String(v)]));
    expect(await shikuCall('/console/config/set', { ...whole, isKeyWord: '1', language: 'en' })).toMatchObject({
      resultCode: 1,
    });

    const { page } = await h.pageAs('admin');
    await page.goto('/siteconfig/function');
    const form = page.getByTestId('settings-form');
    await expect.poll(() => form.getByLabel('Maximum group members').inputValue()).not.toBe('');
    await form.getByLabel('Maximum group members').fill('321');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-toast="success"]', { hasText: 'Saved' }).waitFor();
    expect(store().settings.siteFunctions!.maxGroupMembers).toBe(321);
    expect((await shikuCall('/console/config', {})).data).toMatchObject({
      maxUserSize: 321,
      isKeyWord: 1,
      language: 'en',
    });
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);

  it('deletes reports one deleteReport call each and adds a custom website through addFriendsterWebsite', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/suggestion');
    await rows(page).first().waitFor();
    const hexes = (await rowIds(page)).slice(0, 2);
    const reports = hexes.map((hex) => parseObjectId('report', hex)!);
    for (const id of reports) expect(store().suggestions.get(id)).toBeDefined();
    for (const hex of hexes) await page.getByLabel(`Select row ${hex}`, { exact: true }).check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await confirmDialog(page).getByRole('button', { name: 'Confirm' }).click();
    for (const id of reports) await expect.poll(() => store().suggestions.get(id)).toBeUndefined();

    await page.goto('/homelist');
    await rows(page).first().waitFor();
    await page.getByTestId('list-create').click();
    const form = dialog(page);
    await form.getByLabel('Icon').fill('https://cdn.example.com/shiku-e2e.png');
    await form.getByLabel('Title').fill('shiku-e2e-site');
    await form.getByLabel('Link').fill('https://shiku-e2e.example.com/');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await expect
      .poll(() => store().discover.find((d) => d.title === 'shiku-e2e-site')?.url)
      .toBe('https://shiku-e2e.example.com/');
    expect(await errorToasts(page)).toEqual([]);
  }, 120_000);
});

describe('the Shiku screens read from userBill, loginLog and ClientConfig, and the filters Shiku cannot apply', () => {
  const filters = (page: Page) =>
    page.locator('[data-filter]').evaluateAll((els) => els.map((e) => e.getAttribute('data-filter')));

  it('offers the groups no date, state or mute filter (roomList takes none) while users keep their dates', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/userpage/userset');
    await rows(page).first().waitFor();
    expect(await filters(page)).toContain('registerTimeFrom');
    // userList takes no status.
    expect(await filters(page)).not.toContain('status');
    await page.goto('/groupset');
    await rows(page).first().waitFor();
    expect(await filters(page)).toEqual([]);
    expect(await page.locator('th[data-col="createTime"], [data-col="createTime"]').count()).toBeGreaterThan(0);
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);

  it('lists a user’s bills from userBill, and says so when the bill names no user', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/BillingRecords');
    // The screen asks for the user (the offer's needs) rather than show Shiku's refusal.
    await page.getByTestId('list-needs-filter').waitFor();
    expect(await page.getByTestId('list-error').count()).toBe(0);
    expect(await filters(page)).toContain('userAccount');
    const userId = store().bills.all()[0]!.userId;
    const bills = store()
      .bills.all()
      .filter((b) => b.userId === userId);
    await page.goto(`/BillingRecords?userAccount=${userId}&pageSize=100`);
    await rows(page).first().waitFor();
    await expect.poll(() => rows(page).count()).toBe(Math.min(bills.length, 100));
    const accounts = await rows(page).locator('[data-col="userAccount"]').allTextContents();
    expect(new Set(accounts)).toEqual(new Set([String(userId)]));
  }, 90_000);

  it('lists each user’s latest login, and each platform’s version and download address', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/loginuser');
    await rows(page).first().waitFor();
    const first = Number((await rowIds(page))[0]);
    expect(store().users.get(first)).toBeDefined();
    const at = page.locator(`tr[data-row-id="${first}"]`);
    expect(await at.locator('[data-col="account"]').textContent()).toBe(String(first));
    expect((await at.locator('[data-col="time"]').textContent())?.trim()).not.toBe('');
    // No filter by account or time: userList filters neither.
    expect(await filters(page)).toEqual([]);

    await page.goto('/versionupdate/appupdate');
    await rows(page).first().waitFor();
    const versions = store().appVersions.all();
    const latest = (platform: string) =>
      versions.filter((v) => v.platform === platform).sort((a, b) => b.buildNumber - a.buildNumber)[0]!;
    await expect.poll(() => rows(page).count()).toBe(4);
    const shown = await rows(page).evaluateAll((trs) =>
      trs.map((tr) => tr.querySelector('[data-col="buildNumber"]')!.textContent!.replaceAll(',', '')),
    );
    expect(shown).toEqual(['android', 'ios', 'windows', 'mac'].map((p) => String(latest(p).buildNumber)));
    expect(await page.getByTestId('list-create').count()).toBe(0);

    await page.goto('/distribution');
    await rows(page).first().waitFor();
    await expect.poll(() => rows(page).count()).toBe(3);
    const links = await rows(page).locator('[data-col="url"]').allTextContents();
    expect(links[0]).toContain(latest('android').downloadUrl);
    expect(links[2]).toContain(SEEDED_WEBSITE);
    expect(await errorToasts(page)).toEqual([]);
  }, 120_000);
});
