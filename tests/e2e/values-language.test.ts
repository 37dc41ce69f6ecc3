import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import ja from '../../web/i18n/resources/ja.js';
import { rowCommand, storePreference, useHarness } from './harness.js';

/*
 * Values in the page as people read them in their language: sizes in KB/MB with the language's
 * decimal mark, times without a raw ISO 8601 text, operation-log modules by name; the size input
 * of a form stays a plain count of bytes.
 */
const h = useHarness();
const store = () => h.sandbox.app.sandbox;
const table = (page: Page) => page.getByTestId('list-table');
const dialog = (page: Page) => page.getByTestId('form-dialog');
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

describe('values in the language of the page', () => {
  it('edits an app version size as bytes and shows it as MB, in English and Spanish', async () => {
    // The newest Android release: on the first page, which lists the newest first.
    const version = store()
      .appVersions.all()
      .filter((v) => v.platform === 'android')
      .sort((a, b) => (a.publishTime < b.publishTime ? 1 : -1))[0]!;
    const { page } = await h.pageAs('admin');
    await page.goto('/versionupdate/appupdate');
    const row = table(page).locator(`tbody tr[data-row-id="${version.id}"]`);
    await row.waitFor();
    await rowCommand(row, '[data-command="edit"]');
    const size = dialog(page).locator('input[data-field="packageSize"]');
    expect(await size.getAttribute('type')).toBe('number');
    expect(await size.inputValue()).toBe(String(version.packageSize));
    await size.fill('1500000');
    await dialog(page).getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => store().appVersions.get(version.id)?.packageSize).toBe(1_500_000);
    await expect.poll(() => row.locator('[data-col="packageSize"]').textContent()).toBe('1.5 MB');
    expect(await table(page).textContent()).not.toMatch(ISO);

    await storePreference(page, 'language', 'es');
    await page.reload();
    await expect.poll(() => row.locator('[data-col="packageSize"]').textContent()).toBe('1,5 MB');
    // Day before month, as Spanish writes it, and the time on a 24-hour clock.
    expect(await row.locator('[data-col="publishTime"]').textContent()).toMatch(
      /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/,
    );
    expect(await table(page).textContent()).not.toMatch(ISO);
  }, 90_000);

  it('names operation-log modules in Japanese, and keeps an unknown module as its key', async () => {
    const log = store().logOperation({
      adminAccount: 'admin',
      action: 'update',
      module: 'walletAudit',
      detail: 'a module this console does not know',
      ip: '192.0.2.1',
    });
    const { page } = await h.pageAs('admin');
    await storePreference(page, 'language', 'ja');
    await page.goto('/system/record?pageSize=100');
    await table(page).locator('tbody tr').first().waitFor();
    const modules = await table(page).locator('tbody [data-col="module"]').allTextContents();
    // Signing in (above) logged an "auth" entry.
    expect(modules).toContain(ja['module.auth']);
    expect(modules).not.toContain('auth');
    expect(await table(page).locator(`tbody tr[data-row-id="${log.id}"] [data-col="module"]`).textContent()).toBe(
      'walletAudit',
    );
    // The time column, not the free-text details, which may quote a saved value as it was sent.
    const times = await table(page).locator('tbody [data-col="createTime"]').allTextContents();
    expect(times.filter((t) => ISO.test(t) || !/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/.test(t))).toEqual([]);
  }, 90_000);
});
