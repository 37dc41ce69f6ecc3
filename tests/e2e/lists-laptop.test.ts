import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LEAF_ROUTES } from '../../web/app/routes.js';
import { useHarness } from './harness.js';

/*
 * Every list screen on the laptops administrators use (1440 and 1366 px wide): every column in
 * view beside the Actions column, at most two command buttons per row and the rest behind "⋯",
 * rows no taller than their content, and no phone number, account or address broken over two lines.
 */
const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });
const LISTS = LEAF_ROUTES.filter((r) => r.screen?.kind === 'list');

interface Measure {
  /** How far the table reaches past its box: columns the sticky Actions column would cover. */
  hidden: number;
  /** The most command buttons any row shows outside its "⋯" menu. */
  buttons: number;
  /** One-token values (no space, at most 24 printable ASCII characters) drawn on more than one line. */
  broken: string[];
}

const measure = (page: Page) =>
  page.evaluate((): Measure => {
    const table = document.querySelector('[data-testid="list-table"]')!;
    const box = table.parentElement!;
    const buttons = [...table.querySelectorAll('tbody tr')].map((tr) => tr.querySelectorAll('[data-command]').length);
    // An inline box drawn over two lines has one client rectangle per line.
    const broken = [...table.querySelectorAll('tbody td[data-col] > span')]
      .filter((span) => /^[\x21-\x7e]{1,24}$/.test(span.textContent ?? '') && span.getClientRects().length > 1)
      .map((span) => `${span.parentElement!.getAttribute('data-col')}=${span.textContent}`);
    return { hidden: box.scrollWidth - box.clientWidth, buttons: Math.max(0, ...buttons), broken };
  });

describe('list screens on laptops', () => {
  for (const width of [1440, 1366]) {
    it(`hide no column, show at most two row buttons and break no phone number at ${width} px`, async () => {
      const { page } = await h.pageAs('admin', { width, height: 900 });
      const problems: string[] = [];
      for (const { path } of LISTS) {
        await page.goto(path);
        await page.locator('[data-testid="list-table"] tbody tr').first().waitFor();
        const { hidden, buttons, broken } = await measure(page);
        if (hidden > 0) problems.push(`${path}: ${hidden} px of columns hidden`);
        if (broken.length > 0) problems.push(`${path}: broken over two lines: ${broken.slice(0, 3).join(', ')}`);
        if (buttons > 2) problems.push(`${path}: ${buttons} row buttons`);
      }
      expect(problems).toEqual([]);
    }, 240_000);
  }

  it('keeps user rows as tall as their content and the other commands behind "⋯"', async () => {
    const { page } = await h.pageAs('admin', { width: 1440, height: 900 });
    await page.goto('/userpage/userset');
    const row = page.locator('[data-testid="list-table"] tbody tr').first();
    await row.waitFor();
    expect(
      await row.locator('[data-command]').evaluateAll((els) => els.map((e) => e.getAttribute('data-command'))),
    ).toEqual(['detail', 'edit']);
    await row.getByTestId('row-more').click();
    const menu = page.getByTestId('row-menu');
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Ban', 'Reset password', 'Mark privileged']);
    // The registration time, the column the list is sorted by, is on screen.
    const cell = (await row.locator('[data-col="registerTime"]').boundingBox())!;
    expect(cell.x + cell.width).toBeLessThanOrEqual(1440);
    // Rows as tall as their tallest content: no empty band under it (a few pixels of an inline
    // box's baseline gap aside, far less than the half line a wrapped-away value used to leave).
    const slack = await page.locator('[data-testid="list-table"] tbody tr').evaluateAll((trs) =>
      trs.map((tr) => {
        const needed = [...tr.children].map((td) => {
          const style = getComputedStyle(td);
          const inner = td.firstElementChild?.getBoundingClientRect().height ?? 0;
          return inner + parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
        });
        return tr.getBoundingClientRect().height - Math.max(...needed);
      }),
    );
    expect(Math.max(...slack)).toBeLessThan(8);
  }, 90_000);
});
