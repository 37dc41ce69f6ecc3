import type { IncomingMessage } from 'node:http';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { USERS, resourceCalls } from '../../server/contract/index.js';
import { errorToasts, rowCommand, useHarness } from './harness.js';

/*
 * Reversible actions run at once and are undone from their toast; questions and toasts name their
 * records; "select all N matching" runs a bulk action over every page of a filtered list and ends,
 * as a single action does, in toasts naming the records, with Undo.
 */
const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });
const store = () => h.sandbox.app.sandbox;

const rows = (p: Page) => p.locator('[data-testid="list-table"] tbody tr');
const row = (p: Page, id: number) => p.locator(`[data-testid="list-table"] tbody tr[data-row-id="${id}"]`);
const toast = (p: Page, text: string) => p.locator('[data-toast="success"]', { hasText: text });

/** The POSTs the sandbox backend received, by path. */
let received: string[] = [];
const listen = (req: IncomingMessage) => {
  if (req.method === 'POST' && req.url) received.push(req.url);
};

let page: Page;
beforeAll(async () => {
  h.sandbox.app.server.on('request', listen);
  page = (await h.pageAs('admin', { width: 1440, height: 900 })).page;
});

describe('undo instead of a confirmation', () => {
  it('disables an administrator on one click, names them in the toast, and Undo enables them again', async () => {
    const admin = store().accounts.find((a) => !a.builtIn && a.status === 'enabled')!;
    await page.goto(`/system/admins?keyword=${encodeURIComponent(admin.account)}`);
    await row(page, admin.id).waitFor();
    await rowCommand(row(page, admin.id), '[data-action="disable"]');

    const done = toast(page, `Disabled ${admin.account}`);
    await done.waitFor();
    // No question was asked: the toast's Undo stands in for it.
    expect(await page.getByTestId('confirm-dialog').count()).toBe(0);
    expect(await page.getByTestId('form-dialog').count()).toBe(0);
    await expect.poll(() => store().accounts.get(admin.id)!.status).toBe('disabled');
    await expect.poll(() => row(page, admin.id).locator('[data-col="status"]').textContent()).toBe('Disabled');

    // Reachable from the keyboard, and it stays while focused.
    await done.locator('[data-toast-action]').focus();
    await page.keyboard.press('Enter');
    await toast(page, `Enabled ${admin.account}`).waitFor();
    await expect.poll(() => store().accounts.get(admin.id)!.status).toBe('enabled');
    await expect.poll(() => row(page, admin.id).locator('[data-col="status"]').textContent()).toBe('Enabled');
    expect(await errorToasts(page)).toEqual([]);
  });

  it('bans a user asking only for the reason, names the user, and Undo unbans', async () => {
    const user = store().users.find((u) => u.status === 'normal')!;
    await page.goto(`/userpage/userset?keyword=${encodeURIComponent(user.account)}`);
    await row(page, user.id).waitFor();
    await rowCommand(row(page, user.id), '[data-action="ban"]');
    const form = page.getByTestId('form-dialog');
    // The reason the backend keeps is asked; whether to ban is not.
    expect(await form.textContent()).not.toContain('Run “Ban”');
    await form.getByLabel('Reason').fill('Undo test');
    await form.getByRole('button', { name: 'Ban' }).click();
    await form.waitFor({ state: 'detached' });
    expect(await page.getByTestId('confirm-dialog').count()).toBe(0);

    const done = toast(page, `Banned ${user.account}`);
    await done.waitFor();
    await expect.poll(() => store().users.get(user.id)!.status).toBe('banned');
    await expect.poll(() => row(page, user.id).locator('[data-col="status"]').textContent()).toBe('Banned');
    await done.getByRole('button', { name: 'Undo' }).click();
    await toast(page, `Unbanned ${user.account}`).waitFor();
    await expect.poll(() => store().users.get(user.id)!.status).toBe('normal');
    await expect.poll(() => row(page, user.id).locator('[data-col="status"]').textContent()).toBe('Normal');
  });
});

describe('deletes name what they delete', () => {
  it('asks before deleting one word by its text, and several by the first three and how many more', async () => {
    await page.goto('/sensitivewords?sort=word');
    await rows(page).first().waitFor();
    const listed = await rows(page).evaluateAll((trs) =>
      trs.slice(0, 5).map((tr) => ({
        id: tr.getAttribute('data-row-id')!,
        word: tr.querySelector('[data-col="word"]')!.textContent!,
      })),
    );
    const confirm = page.getByTestId('confirm-dialog');

    await rowCommand(row(page, Number(listed[0]!.id)), '[data-command="remove"]');
    expect(await confirm.getByRole('heading').textContent()).toBe(`Delete ${listed[0]!.word}? This cannot be undone.`);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });

    for (const w of listed) await page.getByLabel(`Select row ${w.id}`, { exact: true }).check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    const names = `${listed
      .slice(0, 3)
      .map((w) => w.word)
      .join(', ')} and 2 more`;
    expect(await confirm.getByRole('heading').textContent()).toBe(`Delete 5 records: ${names}? This cannot be undone.`);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, `Deleted ${names}`).waitFor();
    for (const w of listed) expect(store().sensitiveWords.get(Number(w.id))).toBeUndefined();
  });
});

describe('select all matching', () => {
  it('bans every user of a filtered list over several pages, with progress, skipping those already banned', async () => {
    // A channel with more users than one read of 100 holds; two of them banned already.
    const byChannel = new Map<string, number>();
    for (const u of store().users.all()) byChannel.set(u.channel, (byChannel.get(u.channel) ?? 0) + 1);
    const channel = [...byChannel].filter(([, n]) => n > 120 && n < 800).sort((a, b) => a[1] - b[1])[0]![0];
    const matching = () =>
      store()
        .users.all()
        .filter((u) => u.channel === channel);
    for (const u of matching().slice(0, 2)) Object.assign(u, { status: 'banned', banReason: 'earlier' });
    const bannedBefore = matching()
      .filter((u) => u.status === 'banned')
      .map((u) => u.id);
    const banned = bannedBefore.length;
    const total = matching().length;
    const normal = total - banned;

    // Each chunk answers slowly enough for the progress to be seen.
    const ban = resourceCalls(USERS).action('ban');
    await page.route(
      (url) => url.pathname.endsWith(ban),
      async (route) => {
        await new Promise((r) => setTimeout(r, 400));
        await route.continue();
      },
    );
    received = [];

    await page.goto(`/userpage/userset?channel=${channel}`);
    await rows(page).first().waitFor();
    await page.getByLabel('Select all rows on this page', { exact: true }).check();
    const offer = page.getByTestId('select-all-matching');
    expect(await offer.textContent()).toBe(`Select all ${total} matching records`);
    await offer.click();
    expect(await page.getByTestId('selection-count').textContent()).toBe(`All ${total} matching records are selected`);
    expect(await page.getByRole('button', { name: 'Delete selected' }).count()).toBe(0);

    await page.locator('[data-bulk-action="ban"]').click();
    const form = page.getByTestId('form-dialog');
    await form.getByLabel('Reason').fill('Channel-wide fraud wave');
    await form.getByRole('button', { name: 'Ban' }).click();

    // The phase and its text are read together: on a busy machine the sending may be over between two reads.
    await page
      .locator('[data-testid="bulk-progress-text"][data-phase="sending"]', {
        hasText: new RegExp(`^Sent \\d+ of ${normal}$`),
      })
      .waitFor();

    // It ends as a single ban does: a toast naming whom it banned, with Undo; no dialog to close.
    const done = page.locator('[data-toast="success"]', { hasText: /^Banned / });
    await done.waitFor();
    await page.unroute((url) => url.pathname.endsWith(ban));
    const bannedNow = matching().filter((u) => u.banReason === 'Channel-wide fraud wave');
    expect(bannedNow).toHaveLength(normal);
    expect(await done.locator('span').first().textContent()).toMatch(
      new RegExp(`^Banned [^,]+, [^,]+, [^,]+ and ${normal - 3} more$`),
    );
    const named = (await done.locator('span').first().textContent())!
      .replace(/^Banned /, '')
      .replace(/ and \d+ more$/, '')
      .split(', ');
    for (const account of named) expect(bannedNow.map((u) => u.account)).toContain(account);
    expect(
      await page
        .locator('[data-toast="info"]', { hasText: `${banned} skipped` })
        .first()
        .textContent(),
    ).toContain(`${banned} skipped: the action only applies to Status: Normal`);
    expect(await page.locator('[data-toast="warning"]').count()).toBe(0);
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.getByTestId('bulk-summary').count()).toBe(0);

    expect(matching().every((u) => u.status === 'banned')).toBe(true);
    // In chunks of at most 100 ids: more than one call, never one per user.
    expect(received.filter((u) => u === ban)).toHaveLength(Math.ceil(normal / 100));
    await expect.poll(() => page.getByTestId('selection-count').count()).toBe(0);

    // Undo unbans those it banned, and only those: the two banned before stay banned.
    await done.getByRole('button', { name: 'Undo' }).click();
    // Undo sends its chunks again; on a machine under heavy load that took over a minute.
    await page.locator('[data-toast="success"]', { hasText: /^Unbanned / }).waitFor({ timeout: 150_000 });
    await expect
      .poll(() =>
        matching()
          .filter((u) => u.status === 'banned')
          .map((u) => u.id),
      )
      .toEqual(bannedBefore);
    expect(await errorToasts(page)).toEqual([]);
  }, 300_000);

  it('reports a chunk the backend refused whole as one reason, naming a few of its users', async () => {
    const normalIn = (channel: string) =>
      store()
        .users.all()
        .filter((u) => u.channel === channel && u.status === 'normal');
    const channels = [
      ...new Set(
        store()
          .users.all()
          .map((u) => u.channel),
      ),
    ].filter((c) => normalIn(c).length > 120 && normalIn(c).length < 800);
    const channel = channels.sort((a, b) => normalIn(a).length - normalIn(b).length)[0]!;
    const total = normalIn(channel).length;
    const ban = resourceCalls(USERS).action('ban');
    // The first call of 100 ids is refused by the backend as a whole; the others go through.
    let calls = 0;
    await page.route(
      (url) => url.pathname.endsWith(ban),
      async (route) => {
        if (calls++ > 0) return route.continue();
        await route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ code: 500, msg: 'Ban service busy' }),
        });
      },
    );

    await page.goto(`/userpage/userset?status=normal&channel=${channel}`);
    await rows(page).first().waitFor();
    await page.getByLabel('Select all rows on this page', { exact: true }).check();
    await page.getByTestId('select-all-matching').click();
    await page.locator('[data-bulk-action="ban"]').click();
    const form = page.getByTestId('form-dialog');
    await form.getByLabel('Reason').fill('Refused chunk');
    await form.getByRole('button', { name: 'Ban' }).click();

    // The refused chunk is told once, against a few of its users; those done get their own toast.
    const refused = page.locator('[data-toast="warning"]', { hasText: 'refused' });
    await refused.waitFor();
    expect(await refused.locator('span').first().textContent()).toMatch(
      /^100 refused: [^:]+, [^:]+, [^:]+ and 97 more: Ban service busy$/,
    );
    const done = page.locator('[data-toast="success"]', { hasText: /^Banned / });
    expect(await done.locator('span').first().textContent()).toMatch(
      new RegExp(`^Banned [^,]+, [^,]+, [^,]+ and ${total - 103} more$`),
    );
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.unroute((url) => url.pathname.endsWith(ban));
    expect(normalIn(channel)).toHaveLength(100);
  }, 90_000);
});
