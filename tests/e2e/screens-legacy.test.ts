import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEAF_ROUTES } from '../../web/app/routes.js';
import { LEGACY_UNOFFERED } from '../../server/sandbox/legacy/paths.js';
import { REPO_ROOT } from '../support/paths.js';
import { errorToasts, useHarness } from './harness.js';
import { screenProblems, sortUsersByBalanceAndTurnPage } from './screen-walk.js';

/**
 * The walk of the management screens against the sandbox's legacy dialect (a Java admin
 * backend's paths, names and units) through the shipped backend map: every screen it offers
 * works as on the default dialect, the three it lacks are gone from the menu and say so at their
 * URL, and the banner names the dialect.
 */
const h = useHarness({
  sandbox: { dialect: 'legacy' },
  env: { BACKEND_MAP: path.join(REPO_ROOT, 'server/sandbox/legacy-map.json'), SANDBOX_DIALECT: 'legacy' },
});

describe('every engine screen on the legacy dialect through its map', () => {
  it('shows rows, a chart or a filled form where the backend offers the screen, and a clear page where not', async () => {
    const { page } = await h.pageAs('admin');
    await expect.poll(() => page.getByTestId('sandbox-banner').textContent()).toContain('Backend dialect: legacy');
    const problems: string[] = [];
    for (const { path: screenPath, screen: decl } of LEAF_ROUTES) {
      if (!decl) continue;
      if (LEGACY_UNOFFERED.has(decl.id)) {
        await page.goto(screenPath);
        try {
          await page.getByTestId('not-offered').waitFor({ timeout: 10_000 });
        } catch {
          problems.push(`${screenPath}: no not-offered page`);
        }
        continue;
      }
      problems.push(...(await screenProblems(page, screenPath, decl)));
    }
    expect(problems).toEqual([]);

    // The screens it lacks are not in the menu.
    const menuLinks = await page.locator('nav a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    for (const route of LEAF_ROUTES.filter((r) => r.screen && LEGACY_UNOFFERED.has(r.screen.id))) expect(menuLinks).not.toContain(route.path);
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
