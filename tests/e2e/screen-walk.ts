import type { Page } from 'playwright-core';
import type { ScreenDecl } from '../../web/screens/declare.js';
import { errorToasts } from './harness.js';

/** What a working screen of each engine kind shows once its data is in. */
export const SCREEN_READY: Record<ScreenDecl['kind'], string> = {
  list: '[data-testid="list-table"] tbody tr',
  settings: '[data-testid="settings-form"]',
  statistics: '[data-testid="chart"] canvas',
  operation: '[data-testid="operation-form"]',
};

/**
 * Opens one engine screen and says what is wrong with it, if anything: nothing shown, a settings
 * form the backend left empty, or an error toast.
 */
export async function screenProblems(page: Page, path: string, decl: ScreenDecl): Promise<string[]> {
  await page.goto(path);
  try {
    await page.locator(SCREEN_READY[decl.kind]).first().waitFor({ timeout: 10_000 });
  } catch {
    return [`${path}: nothing shown (${(await errorToasts(page)).join('; ')})`];
  }
  const problems: string[] = [];
  if (decl.kind === 'settings') {
    // A filled form: at least one text or number input holds a value from the backend.
    const filled = await page
      .locator('[data-testid="settings-form"] input:not([type=checkbox]), [data-testid="settings-form"] textarea')
      .evaluateAll((els) => els.some((e) => (e as HTMLInputElement).value !== ''));
    if (!filled) problems.push(`${path}: empty form`);
  }
  const toasts = await errorToasts(page);
  if (toasts.length) problems.push(`${path}: error toast ${toasts.join('; ')}`);
  return problems;
}
