import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { squarePng } from '../../sandbox/lib/png.js';
import { seriousViolations } from '../support/axe.js';
import { useHarness } from './harness.js';

/**
 * Uploads and CSV imports in Chromium against the sandbox: a logo uploaded, previewed and saved;
 * an app package whose size fills itself in; sensitive words imported from a semicolon CSV with a
 * bad and an already-listed row, reported row by row, and imported again as all skipped.
 * DOCS_SCREENSHOTS=1 also writes the documentation's screenshots (docs/images/).
 */

const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });
const store = () => h.sandbox.app.sandbox;
const SCREENSHOTS = process.env.DOCS_SCREENSHOTS === '1';
const shot = (name: string) => path.resolve('docs/images', name);

/** A 64 px logo: a blue disc with a white speech bubble; rows of a filter byte (0) and palette indices (0 white, 1 blue). */
function logo(): Buffer {
  const pixels = Buffer.alloc(64 * 65);
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 64; x++) {
      const disc = (x - 31.5) ** 2 + (y - 31.5) ** 2 < 30 ** 2;
      const bubble =
        (x >= 16 && x < 48 && y >= 18 && y < 40) || (x >= 20 && x < 28 && y >= 40 && y < 48 && x - 20 < 48 - y);
      pixels[y * 65 + 1 + x] = disc && !bubble ? 1 : 0;
    }
  }
  return squarePng(64, pixels, Buffer.from([255, 255, 255, 64, 158, 255]));
}
/** What an Android package starts with (a ZIP's local file header), then bytes. */
const apk = (size: number) => Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(size - 4, 9)]);

async function uploaded(page: Page, field: string) {
  const zone = page.locator(`[data-upload-for="${field}"]`);
  await zone.getByTestId('upload-done').waitFor();
  return zone;
}

describe('uploads', () => {
  let page: Page;
  beforeAll(async () => {
    page = (await h.pageAs('admin')).page;
  });

  it('uploads a logo, previews it and saves its path', async () => {
    await page.goto('/siteconfig/function');
    const form = page.getByTestId('settings-form');
    await form.waitFor();
    const bytes = logo();
    await page
      .locator('[data-upload-input="logoIconPath"]')
      .setInputFiles({ name: 'nimbus-logo.png', mimeType: 'image/png', buffer: bytes });
    const zone = await uploaded(page, 'logoIconPath');
    // The preview is the chosen file, drawn.
    const preview = zone.getByTestId('upload-preview');
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);
    expect(await zone.getByTestId('upload-done').textContent()).toContain('nimbus-logo.png');

    // The path stays visible and editable, filled with where the file server keeps the file.
    const pathInput = form.locator('[data-field="logoIconPath"]');
    const stored = await pathInput.inputValue();
    expect(stored).toMatch(/^uploads\/images\/\d{4}\/\d{2}\/[0-9a-f]{32}\.png$/);
    expect(await pathInput.isEditable()).toBe(true);
    expect(readFileSync(h.sandbox.app.sandboxUploads.fileOf(stored)!).equals(bytes)).toBe(true);
    // The thumbnail beside the path shows the stored copy, through the gateway's /plate/.
    const thumbnail = form.locator(`img[src="/plate/${stored}"]`);
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);

    // Nothing of the upload box locks anyone out.
    expect(await seriousViolations(page)).toEqual([]);

    if (SCREENSHOTS) {
      await page.setViewportSize({ width: 1440, height: 900 });
      await zone.scrollIntoViewIfNeeded();
      await page.screenshot({ path: shot('upload-logo-1440.png') });
      await page.setViewportSize({ width: 1280, height: 800 });
    }

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => store().settings.siteFunctions?.logoIconPath).toBe(stored);
    // The site configuration now names it, and the sidebar draws it after a reload.
    await page.reload();
    await expect
      .poll(() =>
        page
          .locator(`img[src="/plate/${stored}"]`)
          .first()
          .evaluate((img: HTMLImageElement) => img.naturalWidth),
      )
      .toBe(64);
  });

  it('refuses a file that is not an image before sending it', async () => {
    await page.goto('/siteconfig/function');
    await page.getByTestId('settings-form').waitFor();
    const before = h.sandbox.app.sandboxCalls.filter((c) => c.path === '/manage/upload').length;
    await page
      .locator('[data-upload-input="webIconPath"]')
      .setInputFiles({ name: 'icon.png', mimeType: 'image/png', buffer: Buffer.from('<html>not a picture</html>') });
    const error = page.locator('[data-upload-for="webIconPath"] [data-testid="upload-error"]');
    expect(await error.textContent()).toBe('icon.png is not the kind of file its name says');
    expect(h.sandbox.app.sandboxCalls.filter((c) => c.path === '/manage/upload').length).toBe(before);
  });

  it('uploads an app package and fills in its size, download link, platform and version', async () => {
    await page.goto('/versionupdate/appupdate');
    await page.getByTestId('list-create').click();
    const dialog = page.getByTestId('form-dialog');
    // A new version is published now unless told otherwise.
    expect(await dialog.locator('[data-field="publishTime"]').inputValue()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    const bytes = apk(300_000);
    await dialog
      .locator('[data-upload-input="downloadUrl"]')
      .setInputFiles({ name: 'chat-5.1.0.apk', mimeType: 'application/vnd.android.package-archive', buffer: bytes });
    const zone = await uploaded(page, 'downloadUrl');
    expect(await zone.getByTestId('upload-done').textContent()).toContain(
      createHash('md5').update(bytes).digest('hex'),
    );
    expect(await dialog.locator('[data-field="packageSize"]').inputValue()).toBe(String(bytes.length));
    const link = await dialog.locator('[data-field="downloadUrl"]').inputValue();
    expect(link).toMatch(new RegExp(`^${h.url}/plate/uploads/packages/\\d{4}/\\d{2}/[0-9a-f]{32}\\.apk$`));

    // The package's name told its platform and version.
    expect(await dialog.locator('[data-field="platform"]').inputValue()).toBe('android');
    expect(await dialog.locator('[data-field="version"]').inputValue()).toBe('5.1.0');
    await dialog.locator('[data-field="buildNumber"]').fill('51000');
    await dialog.locator('[data-field="publishTime"]').fill('2030-01-02T10:00');
    await dialog.getByTestId('form-submit').click();
    await dialog.waitFor({ state: 'detached' });
    const saved = store()
      .appVersions.all()
      .find((v) => v.version === '5.1.0');
    expect(saved).toMatchObject({ downloadUrl: link, packageSize: bytes.length });
    // The link downloads the very bytes uploaded.
    const download = await page.request.get(link);
    expect(Buffer.from(await download.body()).equals(bytes)).toBe(true);
  });
});

describe('CSV import of sensitive words', () => {
  it('previews, reports row by row, stores each new word once, and skips everything the second time', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/sensitivewords');
    await page.locator('[data-testid="list-table"] tbody tr').first().waitFor();
    const listed = store().sensitiveWords.all()[0]!;
    const words = store().sensitiveWords.all().length;
    // As Excel writes CSV where the comma is the decimal mark: a BOM, semicolons, CRLF, quotes.
    const csv = [
      'word;category',
      'spamcoin;ads',
      '"scam; ""free"" gift";other',
      'harmless;not-a-category',
      `${listed.word.toUpperCase()};${listed.category}`,
    ].join('\r\n');
    const file = { name: 'words.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${csv}\r\n`, 'utf8') };

    await page.getByTestId('list-import').click();
    const dialog = page.getByTestId('import-dialog');
    await dialog.getByTestId('import-file').setInputFiles(file);
    expect(await dialog.getByTestId('import-file-summary').textContent()).toBe(
      'words.csv: 4 rows, separated by semicolons',
    );
    expect(await dialog.getByTestId('import-counts').textContent()).toBe('3 ready, 1 invalid, 0 repeated in the file');
    const row = (line: number) => dialog.locator(`tr[data-line="${line}"]`);
    expect(await row(3).getAttribute('data-state')).toBe('ready');
    expect(await row(3).locator('td').nth(1).textContent()).toBe('scam; "free" gift');
    expect(await row(4).getAttribute('data-state')).toBe('invalid');
    expect(await row(4).textContent()).toContain('Category: Not a valid choice');
    expect(await seriousViolations(page)).toEqual([]);

    await dialog.getByTestId('import-run').click();
    await expect.poll(() => dialog.getAttribute('data-stage')).toBe('report');
    expect(await dialog.getByTestId('import-counts').textContent()).toBe('2 added, 1 skipped, 0 refused, 1 invalid');
    expect(await row(2).getAttribute('data-state')).toBe('added');
    expect(await row(3).getAttribute('data-state')).toBe('added');
    expect(await row(4).getAttribute('data-state')).toBe('invalid');
    expect(await row(5).getAttribute('data-state')).toBe('skipped');
    expect(await row(5).textContent()).toContain('Already on the list');
    const named = (word: string) =>
      store()
        .sensitiveWords.all()
        .filter((w) => w.word === word);
    expect(named('spamcoin')).toHaveLength(1);
    expect(named('spamcoin')[0]!.category).toBe('ads');
    expect(named('scam; "free" gift')).toHaveLength(1);
    expect(named('harmless')).toHaveLength(0);
    expect(store().sensitiveWords.all()).toHaveLength(words + 2);

    if (SCREENSHOTS) {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.screenshot({ path: shot('import-report-1440.png') });
      await page.setViewportSize({ width: 1280, height: 800 });
    }

    // The same file again: nothing is added twice.
    await dialog.getByRole('button', { name: 'Import another file' }).click();
    await dialog.getByTestId('import-file').setInputFiles(file);
    await dialog.getByTestId('import-run').click();
    await expect.poll(() => dialog.getAttribute('data-stage')).toBe('report');
    expect(await dialog.getByTestId('import-counts').textContent()).toBe('0 added, 3 skipped, 0 refused, 1 invalid');
    for (const line of [2, 3, 5]) expect(await row(line).getAttribute('data-state')).toBe('skipped');
    expect(named('spamcoin')).toHaveLength(1);
    expect(store().sensitiveWords.all()).toHaveLength(words + 2);
    // The list behind the dialog shows the new words.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.locator('[data-testid="list-table"] tbody tr', { hasText: 'spamcoin' }).waitFor();
  });

  it('reports a ban import in the words of its rows: done, not added, and a details column apart from the reason', async () => {
    const [first, second] = store()
      .users.all()
      .filter((u) => u.status === 'normal');
    const already = store()
      .users.all()
      .find((u) => u.status === 'banned')!;
    const { page } = await h.pageAs('admin');
    await page.goto('/userpage/userset');
    await page.locator('[data-testid="list-table"] tbody tr').first().waitFor();
    await page.getByTestId('list-import').click();
    const dialog = page.getByTestId('import-dialog');
    await dialog.getByTestId('import-file').setInputFiles({
      name: 'bans.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        `account,reason\n${first!.account},Spam wave\n${second!.account},Spam wave\n${already.account},Spam wave\n`,
      ),
    });
    await dialog.getByTestId('import-run').click();
    await expect.poll(() => dialog.getAttribute('data-stage')).toBe('report');
    const row = (line: number) => dialog.locator(`tr[data-line="${line}"]`);
    expect(await row(2).getAttribute('data-state')).toBe('done');
    expect(await row(2).locator('td').nth(3).textContent()).toBe('Done');
    expect(await dialog.getByTestId('import-counts').textContent()).toBe('2 done, 1 skipped, 0 refused, 0 invalid');
    // The ban's own Reason, and the report's details of each row, under two titles.
    const titles = await dialog.locator('[data-testid="import-rows"] thead th').allTextContents();
    expect(titles).toEqual(['Line', 'Account', 'Reason', 'Status', 'Details']);
    expect(await row(4).locator('td').nth(4).textContent()).toBe('Already done');
    expect(store().users.get(first!.id)!.status).toBe('banned');
  });

  it('fits a phone: the report scrolls inside the sheet', async () => {
    const { page } = await h.pageAs('admin', { width: 390, height: 844 });
    await page.goto('/sensitivewords');
    await page.getByTestId('list-import').click();
    const dialog = page.getByTestId('import-dialog');
    await dialog.getByTestId('import-file').setInputFiles({
      name: 'more.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('word,category\nphonecoin,ads\n,ads\n'),
    });
    expect(await dialog.getByTestId('import-counts').textContent()).toBe('1 ready, 1 invalid, 0 repeated in the file');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    if (SCREENSHOTS) await page.screenshot({ path: shot('import-preview-390.png') });
  });
});
