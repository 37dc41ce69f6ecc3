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
 * binding (server/backend-map/bindings/openim-chat.json): the login form's password reaches OpenIM
 * as its md5, every screen the map binds shows its data, the screens OpenIM lacks are gone from
 * the menu and say so at their URL, and one write of each kind (a ban, a selection banned one call per user, a settings save, generated
 * invitation codes) lands in the sandbox's store.
 */
const MAP_FILE = path.join(REPO_ROOT, 'server/backend-map/bindings/openim-chat.json');
const MAP = JSON.parse(readFileSync(MAP_FILE, 'utf8')) as BackendMapFile;
const UNOFFERED = new Set(Object.entries(MAP.resources ?? {}).flatMap(([id, entry]) => (entry.unsupported ? [id] : [])));

const h = useHarness({ sandbox: { dialect: 'openim' }, env: { BACKEND_MAP: MAP_FILE, SANDBOX_DIALECT: 'openim' } });
const store = () => h.sandbox.app.sandbox;
const rows = (p: Page) => p.locator('[data-testid="list-table"] tbody tr');
const dialog = (p: Page) => p.getByTestId('form-dialog');

describe('every engine screen on the OpenIM Chat dialect through its binding', () => {
  it('shows rows, a chart or a filled form where OpenIM offers the screen, and a clear page where not', async () => {
    const { page } = await h.pageAs('admin');
    await expect.poll(() => page.getByTestId('sandbox-banner').textContent()).toContain('Backend dialect: openim');
    const { problems, menuLinks } = await walkBoundScreens(page, UNOFFERED);
    expect(problems).toEqual([]);
    for (const offered of ['/userpage/userset', '/siteconfig/function', '/invitationcode']) expect(menuLinks).toContain(offered);
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
    for (const id of ids) expect(store().users.get(id)).toMatchObject({ banReason: 'Spam, a selection banned through the OpenIM binding' });
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);

  it('saves the site functions into OpenIM’s client config', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/siteconfig/function');
    const form = page.getByTestId('settings-form');
    await expect.poll(() => form.getByLabel('Chat room name').inputValue()).toBe(String(store().settings.siteFunctions!.chatRoomName));
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
});
