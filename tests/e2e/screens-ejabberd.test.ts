import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RESOURCES, resourceCalls } from '../../server/contract/index.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { REPO_ROOT } from '../support/paths.js';
import { describeEjabberd, useEjabberd } from '../support/ejabberd-suite.js';
import { seedEjabberd, type Seeded } from '../support/ejabberd-seed.js';
import { XmppClient } from '../support/xmpp-client.js';
import { errorToasts, rowCommand, useHarness } from './harness.js';
import { walkBoundScreens } from './screen-walk.js';

/**
 * The console in Chromium on a real ejabberd 23.01 through the shipped map: the login form lets
 * the server's administrator in, every screen the map binds shows the server's data, the rest are
 * gone from the menu and say so at their address, and a ban, a dissolve and a default friend made
 * with the mouse are checked through ejabberd's own API.
 */
const MAP_FILE = path.join(REPO_ROOT, 'server/backend-map/bindings/ejabberd.json');
const MAP = JSON.parse(readFileSync(MAP_FILE, 'utf8')) as BackendMapFile;
const named = MAP.resources ?? {};
// Unnamed resources are unsupported (the map says `unnamed: unsupported`).
const UNOFFERED = new Set(RESOURCES.map((r) => r.id).filter((id) => !named[id] || named[id]!.unsupported));
// Mass messages: ejabberd sends them but keeps no history to list; checked on their own below.
const APART = new Set(['massMessages']);
const rows = (p: Page) => p.locator('[data-testid="list-table"] tbody tr');
const dialog = (p: Page) => p.getByTestId('form-dialog');

describeEjabberd('every screen ejabberd offers, in Chromium against the real server', () => {
  // The harness's admin account logs in with admin123: the server's administrator has that password.
  const ej = useEjabberd({ adminPassword: 'admin123' });
  let seeded: Seeded;
  let online: XmppClient | null = null;
  const h = useHarness({
    env: {
      BACKEND_MAP: MAP_FILE,
      // Read when the harness starts, after the server below has.
      get CHAT_BACKEND_URL() {
        return ej.server.url;
      },
      get EJABBERD_HOST() {
        return ej.server.host;
      },
    },
  });

  beforeAll(async () => {
    seeded = await seedEjabberd(ej.server, { users: 30, rooms: 3 });
    // A default friend as the map makes one, so its screen has a row to show on the walk.
    const host = ej.server.host;
    const account = seeded.users[20]!.account;
    for (const [group, display, member] of [
      [`console-friend-${account}`, `console-everyone-${account}`, account],
      [`console-everyone-${account}`, `console-friend-${account}`, '@all@'],
    ] as const) {
      await ej.server.api('srg_create', { group, host, label: group, description: '', display });
      await ej.server.api('srg_user_add', { user: member, host, group, grouphost: host });
    }
    const user = seeded.users[3]!;
    online = await XmppClient.connect({
      port: ej.server.c2sPort,
      host: ej.server.host,
      account: user.account,
      password: user.password,
    });
  }, 120_000);
  afterAll(async () => {
    await online?.close();
  });

  it('shows every bound screen with the server’s data, and a clear page for the rest', async () => {
    const { page } = await h.pageAs('admin');
    const { problems, menuLinks } = await walkBoundScreens(page, UNOFFERED, APART);
    expect(problems).toEqual([]);
    for (const offered of ['/userpage/userset', '/groupset', '/defaultfriend']) expect(menuLinks).toContain(offered);
    expect(menuLinks).not.toContain('/defaultgroup');
    await page.goto('/userpage/userset');
    await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
    const first = seeded.users[0]!;
    await page.getByText(first.nickname).first().waitFor();
  }, 300_000);

  it('bans an account with a reason, and ejabberd no longer takes its password', async () => {
    const { server } = ej;
    const user = seeded.users[1]!;
    const { page } = await h.pageAs('admin');
    await page.goto(`/userpage/userset?keyword=${user.account}`);
    const row = page.locator(`tr[data-row-id="${user.account}"]`);
    await row.waitFor();
    await rowCommand(row, '[data-action="ban"]');
    await dialog(page).getByLabel('Reason').fill('Spam, banned on ejabberd');
    await dialog(page).getByRole('button', { name: 'Ban' }).click();
    await expect
      .poll(
        async () =>
          (await server.api('check_password', { user: user.account, host: server.host, password: user.password })).json,
      )
      .toBe(1);
    expect(await errorToasts(page)).toEqual([]);
  });

  it('dissolves a room, and ejabberd no longer has it', async () => {
    const { server } = ej;
    const room = seeded.rooms[2]!;
    const { page } = await h.pageAs('admin');
    await page.goto('/groupset');
    const row = page.locator(`tr[data-row-id="${room.name}"]`);
    await row.waitFor();
    await rowCommand(row, '[data-action="dissolve"]');
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Confirm' }).click();
    await expect
      .poll(async () => (await server.api('muc_online_rooms', { service: server.mucHost })).json as string[])
      .not.toContain(room.jid);
  });

  it('makes a default friend every account sees in its roster, and deletes it', async () => {
    const { server } = ej;
    const [friend, other] = [seeded.users[12]!, seeded.users[13]!];
    const friendsOf = async (account: string) =>
      ((await server.api('get_roster', { user: account, host: server.host })).json as { jid: string; group: string }[])
        .filter((c) => c.group === 'Friends')
        .map((c) => c.jid);
    const { page } = await h.pageAs('admin');
    await page.goto('/defaultfriend');
    await page.getByTestId('list-create').click();
    await dialog(page).getByLabel('User account').fill(friend.account);
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    const row = page.locator(`tr[data-row-id="${friend.account}"]`);
    await row.waitFor();
    await row.getByText(friend.nickname).waitFor();
    await expect.poll(() => friendsOf(other.account)).toEqual([`${friend.account}@${server.host}`]);

    await rowCommand(row, '[data-command="remove"]');
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Confirm' }).click();
    await row.waitFor({ state: 'detached' });
    await expect.poll(() => friendsOf(other.account)).toEqual([]);
    const left = (await server.api('srg_list', { host: server.host })).json as string[];
    expect(left.filter((g) => g.endsWith(`-${friend.account}`))).toEqual([]);
    expect(await errorToasts(page)).toEqual([]);
  });

  it('shows a user’s roster on the record page, one row per contact', async () => {
    const { server } = ej;
    const [owner, contact] = [seeded.users[22]!, seeded.users[23]!];
    const added = await server.api('add_rosteritem', {
      localuser: owner.account,
      localhost: server.host,
      user: contact.account,
      host: server.host,
      nick: 'Old friend',
      group: 'Friends',
      subs: 'both',
    });
    expect(added.json).toBe(0);
    const { page } = await h.pageAs('admin');
    await page.goto(`/userpage/userset/${owner.account}`);
    const friends = page.getByTestId('user-friends');
    // Every seeded account is a contact too (the seed's shared group of @all@): a first few, then all.
    await friends.getByTestId('friends-all').click();
    const row = friends.locator('tbody tr', { hasText: `${contact.account}@${server.host}` });
    await row.waitFor();
    // The seeded shared group lists the contact too (ejabberd answers it once per group): one row.
    expect(await row.count()).toBe(1);
    expect(await row.locator('td').allTextContents()).toEqual([
      `${contact.account}@${server.host}`,
      'Old friend',
      'Mutual',
    ]);
    expect(await errorToasts(page)).toEqual([]);
  });

  it('sends a mass message to every account, stored offline for those not connected', async () => {
    const { server } = ej;
    const user = seeded.users[9]!;
    const count = async () =>
      ((await server.api('get_offline_count', { user: user.account, host: server.host })).json as { value: number })
        .value;
    const before = await count();
    const { page } = await h.pageAs('admin');
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await page.goto('/masshelper');
    await page.locator('[data-action="send"]').click();
    // Only the audiences mod_announce has: every account, or those connected.
    expect(
      await dialog(page)
        .getByLabel('Audience')
        .locator('option:not([value=""])')
        .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
    ).toEqual(['all', 'online']);
    await dialog(page).getByLabel('Audience').selectOption('all');
    await dialog(page).getByLabel('Title').fill('Maintenance <tonight>');
    await dialog(page).getByLabel('Content').fill('The service pauses from 02:00 & resumes at 02:30.');
    await dialog(page).getByRole('button', { name: 'Compose and send' }).click();
    await page.getByTestId('result-dialog').waitFor();
    await expect.poll(count).toBe(before + 1);
    // ejabberd keeps no history of what was sent: the screen says so, and never asks for a list.
    expect(await page.getByTestId('list-unlisted').textContent()).toContain('keeps no list');
    expect(await errorToasts(page)).toEqual([]);
    const listPath = resourceCalls(RESOURCES.find((r) => r.id === 'massMessages')!).list;
    expect(asked.filter((p) => p === listPath)).toEqual([]);
  });
});
