import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LINK_MAX_LENGTH } from '../../server/contract/index.js';
import { storePreference, useHarness } from './harness.js';

/**
 * A link field states its rule before anyone types (a full link starting with https://, at most
 * 2,048 characters), and a link that breaks it is refused in words that say what is needed, in
 * each language, before anything is sent.
 */
const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });
const store = () => h.sandbox.app.sandbox;

const field = (p: Page) => p.locator('[data-testid="settings-form"] input[data-field="customerServiceUrl"]');

/** What a screen reader says under the field: its hint and its message, by aria-describedby. */
async function description(p: Page): Promise<string> {
  const ids = ((await field(p).getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const texts = await Promise.all(ids.map((id) => p.locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

async function save(p: Page, value: string, button: string) {
  await field(p).fill(value);
  await p.getByTestId('settings-form').getByRole('button', { name: button }).click();
}

describe('link fields', () => {
  it('say up front that a link starts with https:// and how long it may be', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    await page.goto('/siteconfig/function');
    await field(page).waitFor();
    expect(await description(page)).toContain('A full link starting with https://, at most 2,048 characters');
  });

  it('refuse a link without its scheme, or too long, saying what is needed, in English and Spanish', async () => {
    const { page } = await h.pageAs('admin', { width: 390, height: 844 });
    const before = store().settings.siteFunctions!.customerServiceUrl;
    await page.goto('/siteconfig/function');
    await field(page).waitFor();
    const message = page.locator('[data-error-for="customerServiceUrl"]');

    await save(page, 'help.example.com', 'Save');
    await expect.poll(() => message.textContent()).toBe('Enter a full link starting with https://');
    await save(page, `https://help.example.com/${'a'.repeat(LINK_MAX_LENGTH)}`, 'Save');
    await expect.poll(() => message.textContent()).toBe('A link can be at most 2,048 characters');
    expect(store().settings.siteFunctions!.customerServiceUrl).toBe(before);

    await storePreference(page, 'language', 'es');
    await page.reload();
    await field(page).waitFor();
    expect(await description(page)).toContain('https://');
    await save(page, 'help.example.com', 'Guardar');
    await expect.poll(() => message.textContent()).toBe('Introduzca un enlace completo que empiece por https://');
    expect(store().settings.siteFunctions!.customerServiceUrl).toBe(before);
  });
});
