import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEGACY_UNOFFERED } from '../../sandbox/legacy/paths.js';
import { REPO_ROOT } from '../support/paths.js';
import { errorToasts, useHarness } from './harness.js';
import { walkBoundScreens, sortUsersByBalanceAndTurnPage } from './screen-walk.js';

/**
 * The walk of the management screens against the sandbox's legacy dialect (a Java admin
 * backend's paths, names and units) through the shipped backend map: every screen it offers
 * works as on the default dialect, the three it lacks are gone from the menu and say so at their
 * URL, and the banner names the dialect.
 */
const h = useHarness({
  sandbox: { dialect: 'legacy' },
  env: { BACKEND_MAP: path.join(REPO_ROOT, 'sandbox/legacy-map.json'), SANDBOX_DIALECT: 'legacy' },
});

describe('every engine screen on the legacy dialect through its map', () => {
  it('shows rows, a chart or a filled form where the backend offers the screen, and a clear page where not', async () => {
    const { page } = await h.pageAs('admin');
    await expect.poll(() => page.getByTestId('sandbox-banner').textContent()).toContain('Backend dialect: legacy');
    const { problems, menuLinks } = await walkBoundScreens(page, LEGACY_UNOFFERED);
    expect(problems).toEqual([]);
    expect(menuLinks).toContain('/userpage/userset');
  }, 240_000);

  it('sorts by a money column and pages, the order kept in the URL', async () => {
    const { page } = await h.pageAs('admin');
    await sortUsersByBalanceAndTurnPage(page);
    expect(await page.locator('th[aria-sort="ascending"]').textContent()).toContain('Balance');
    expect(await errorToasts(page)).toEqual([]);
  }, 90_000);
});

describe('the legacy dialect without a map', () => {
  const bare = useHarness({ sandbox: { dialect: 'legacy' } });

  it('names the call a screen needs in place of its table, with no error toast', async () => {
    const { page } = await bare.pageAs('admin');
    await page.goto('/userpage/userset');
    const notice = page.getByTestId('missing-call');
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.textContent()).toContain('GET /manage/user/userProfile/list');
    expect(await notice.textContent()).toContain('Binding to your backend');
    expect(await errorToasts(page)).toEqual([]);
    // A screen the dialect serves at the contract's own path still works.
    await page.goto('/interface/interface');
    await page.locator('[data-testid="settings-form"]').waitFor({ timeout: 10_000 });
  }, 90_000);
});
