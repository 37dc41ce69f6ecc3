import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { errorToasts, useHarness } from './harness.js';

const h = useHarness();
const store = () => h.sandbox.app.sandbox;

const rows = (p: Page) => p.locator('[data-testid="list-table"] tbody tr');
const dialog = (p: Page) => p.getByTestId('form-dialog');
const result = (p: Page) => p.getByTestId('result-dialog');

/** One logged-in page for the whole file. */
let page: Page;
beforeAll(async () => {
  page = (await h.pageAs('admin')).page;
});

describe('site configuration lists: page and bulk actions', () => {
  it('generates a batch of invitation codes, disables them together and deletes them together', async () => {
    await page.goto('/invitationcode');
    await rows(page).first().waitFor();
    const before = new Set(
      store()
        .inviteCodes.all()
        .map((c) => c.id),
    );
    const expires = new Date(Date.now() + 30 * 86_400_000);
    const local = new Date(expires.getTime() - expires.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

    await page.locator('[data-action="generate"]').click();
    await dialog(page).getByLabel('Count').fill('4');
    await dialog(page).getByLabel('Maximum uses').fill('3');
    await dialog(page).getByLabel('Expires at').fill(local);
    await dialog(page).getByRole('button', { name: 'Generate codes' }).click();
    const shown = (await result(page).locator('pre').textContent())!.split('\n');
    const made = store()
      .inviteCodes.all()
      .filter((c) => !before.has(c.id));
    expect(made.map((c) => c.code).sort()).toEqual([...shown].sort());
    expect(made).toHaveLength(4);
    for (const c of made) expect(c).toMatchObject({ status: 'unused', maxUses: 3, usedCount: 0 });
    expect(Date.parse(made[0]!.expireTime!)).toBe(Date.parse(`${local}:00`));
    await result(page).getByRole('button', { name: 'Close' }).click();

    // The new codes lead the list (newest first); select them and disable them in one go.
    const select = async () => {
      for (const c of made) await page.getByLabel(`Select row ${c.id}`, { exact: true }).check();
      expect(await page.getByTestId('selection-count').textContent()).toBe('4 selected');
    };
    await page.locator(`tr[data-row-id="${made[0]!.id}"]`).waitFor();
    await select();
    await page.locator('[data-bulk-action="disable"]').click();
    const confirm = page.getByTestId('confirm-dialog');
    // Nothing enables a code again, so the question comes first and names the codes.
    const listed = await page
      .locator('[data-testid="list-table"] tbody tr[data-row-id]')
      .evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-row-id'))));
    const codes = made
      .slice()
      .sort((a, b) => listed.indexOf(a.id) - listed.indexOf(b.id))
      .map((c) => c.code);
    const named = `${codes.slice(0, 3).join(', ')} and 1 more`;
    expect(await confirm.textContent()).toContain(`Run “Disable” on 4 records: ${named}?`);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('[data-toast="success"]', { hasText: `Disabled ${named}` }).waitFor();
    expect(await page.locator('[data-toast="success"] [data-toast-action]').count()).toBe(0);
    for (const c of made) expect(store().inviteCodes.get(c.id)!.status).toBe('disabled');
    await expect
      .poll(() => page.locator(`tr[data-row-id="${made[0]!.id}"] [data-col="status"]`).textContent())
      .toBe('Disabled');

    await select();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    expect(await confirm.textContent()).toContain(`Delete 4 records: ${named}? This cannot be undone.`);
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('[data-toast="success"]', { hasText: `Deleted ${named}` }).waitFor();
    for (const c of made) expect(store().inviteCodes.get(c.id)).toBeUndefined();
    for (const c of made) await expect.poll(() => page.locator(`tr[data-row-id="${c.id}"]`).count()).toBe(0);
  });

  it('adds sensitive words in a batch, skipping one already listed, then finds them in a text', async () => {
    await page.goto('/sensitivewords');
    await rows(page).first().waitFor();
    const existing = store().sensitiveWords.all()[0]!.word;
    await page.locator('[data-action="batchAdd"]').click();
    await dialog(page).getByLabel('Words').fill(['e2eforbidden', existing, 'e2eblocked'].join('\n'));
    await dialog(page).getByLabel('Category').selectOption('ads');
    await dialog(page).getByRole('button', { name: 'Add many' }).click();
    expect(await result(page).locator('[data-result-key="added"]').textContent()).toBe('2');
    expect(await result(page).locator('[data-result-key="skipped"]').textContent()).toBe('1');
    expect(store().sensitiveWords.find((w) => w.word === 'e2eblocked')).toMatchObject({ category: 'ads' });
    await result(page).getByRole('button', { name: 'Close' }).click();

    await page.locator('[data-action="test"]').click();
    await dialog(page).getByLabel('Text').fill('Cheap offer: E2EFORBIDDEN deals, nothing else');
    await dialog(page).getByRole('button', { name: 'Test a text' }).click();
    // Polled: the previous result dialog may still be leaving while this one draws its table.
    const hits = result(page).getByTestId('sensitive-hits');
    await expect
      .poll(() =>
        hits
          .locator('tbody tr')
          .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent))),
      )
      .toEqual([['e2eforbidden', 'Advertising', '13']]);
    await result(page).getByRole('button', { name: 'Close' }).click();
  });
});

describe('settings screens: save, reload and their page actions', () => {
  it('renames the chat room: saved, shown in the form and the sidebar after a reload', async () => {
    await page.goto('/siteconfig/function');
    const form = page.getByTestId('settings-form');
    await form.waitFor();
    await form.getByLabel('Chat room name').fill('E2E Chat');
    await form.getByLabel('Maximum group members').fill('500');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-toast="success"]', { hasText: 'Saved' }).waitFor();
    expect(store().settings.siteFunctions).toMatchObject({ chatRoomName: 'E2E Chat', maxGroupMembers: 500 });
    await page.reload();
    await expect
      .poll(() => page.getByTestId('settings-form').getByLabel('Chat room name').inputValue())
      .toBe('E2E Chat');
    expect(await page.getByTestId('settings-form').getByLabel('Maximum group members').inputValue()).toBe('500');
    expect(await page.getByTestId('sidebar-title').textContent()).toBe('E2E Chat Backend');
  });

  it('sends a test push, and shows the refusal once push is switched off', async () => {
    const account = store().users.find((u) => u.status === 'normal')!.account;
    await page.goto('/push/pushconfig');
    const form = page.getByTestId('settings-form');
    await form.waitFor();
    const fillTest = async () => {
      await page.locator('[data-action="testPush"]').click();
      await dialog(page).getByLabel('Account').fill(account);
      await dialog(page).getByLabel('Title').fill('E2E push');
      await dialog(page).getByLabel('Content').fill('Hello from the e2e test');
      await dialog(page).getByRole('button', { name: 'Send a test push' }).click();
    };
    await fillTest();
    expect(await result(page).locator('[data-result-key="delivered"]').textContent()).toBe('true');
    expect(await result(page).locator('[data-result-key="messageId"]').textContent()).toMatch(/^msg_[0-9a-f]{16}$/);
    await result(page).getByRole('button', { name: 'Close' }).click();

    await form.getByRole('switch', { name: 'Enabled' }).uncheck();
    await form.getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-toast="success"]', { hasText: 'Saved' }).waitFor();
    expect(store().settings.pushConfig!.enabled).toBe(false);
    // The secret is write-only: an empty field on save kept the one the backend holds.
    expect(store().settings.pushConfig!.masterSecret).toBe('sandbox-jpush-master-secret');
    await fillTest();
    expect(await dialog(page).getByTestId('form-server-error').textContent()).toBe(
      'Push is switched off: switch it on and save first',
    );
    await dialog(page).getByRole('button', { name: 'Cancel' }).click();
    expect(await errorToasts(page)).toEqual([]);
  });
});
