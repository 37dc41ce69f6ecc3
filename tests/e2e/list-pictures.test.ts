import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

/*
 * A list's avatars, at 1440 px: fetched only for the rows near the view, after the rows are drawn,
 * a stand-in of the picture's size holding each place meanwhile; each row shows its own record's
 * picture, never one left from the page before; a picture seen before is shown at once, and one
 * that fails shows the "no image" mark. The avatar requests are held by the test, so every step
 * waits on what the page shows, not on time.
 */
const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });

const LAPTOP = { width: 1440, height: 900 };
const AVATAR = /\/plate\/avatars\/(\d+)\.png$/;

const table = (page: Page) => page.locator('[data-testid="list-table"]:not([aria-busy])');

/** Each drawn row's id, and what its avatar cell shows: the picture's id, a stand-in, or the no-image mark. */
function avatarCells(page: Page) {
  return table(page)
    .locator('tbody tr[data-row-id]')
    .evaluateAll((rows) =>
      rows.map((row) => {
        const cell = row.querySelector('td[data-col="avatar"]')!;
        const img = cell.querySelector('img');
        const shown = img ? (/avatars\/(\d+)\.png$/.exec(img.getAttribute('src') ?? '')?.[1] ?? '') : null;
        return {
          id: row.getAttribute('data-row-id')!,
          shown,
          complete: img ? img.complete && img.naturalWidth > 0 : false,
          waiting: !!cell.querySelector('[aria-busy="true"]'),
          failed: !img && !cell.querySelector('[aria-busy="true"]') && !!cell.querySelector('[role="img"]'),
        };
      }),
    );
}

/** Holds every avatar request until released; `fail` answers those ids with a 404. */
async function holdAvatars(page: Page) {
  const held: Route[] = [];
  const asked: string[] = [];
  const fail = new Set<string>();
  await page.route(AVATAR, (route) => {
    asked.push(AVATAR.exec(route.request().url())![1]!);
    held.push(route);
  });
  return {
    asked,
    fail,
    async release() {
      for (const route of held.splice(0)) {
        const id = AVATAR.exec(route.request().url())![1]!;
        await (fail.has(id) ? route.fulfill({ status: 404, body: 'Not Found' }) : route.continue());
      }
    },
  };
}

describe('a list’s pictures at 1440 px', () => {
  it('fetches the avatars near the view after the rows, and shows each row its own', async () => {
    const { page } = await h.pageAs('admin', LAPTOP);
    const avatars = await holdAvatars(page);
    await page.goto('/userpage/userset?pageSize=100');
    await table(page).locator('tbody tr[data-row-id]').first().waitFor();

    // The rows are drawn with stand-ins; only the pictures near the view are asked for.
    await expect.poll(() => avatars.asked.length).toBeGreaterThanOrEqual(10);
    const first = await avatarCells(page);
    expect(first.every((c) => c.shown === null && c.waiting)).toBe(true);
    expect(avatars.asked.length).toBeLessThanOrEqual(first.length);
    expect(new Set(avatars.asked).size).toBe(avatars.asked.length);
    for (const id of avatars.asked) expect(first.map((c) => c.id)).toContain(id);
    const firstCell = table(page).locator(`tr[data-row-id="${avatars.asked[0]}"] td[data-col="avatar"]`);
    const standIn = await firstCell.locator('[aria-busy="true"]').boundingBox();
    const rowBox = () => table(page).locator(`tr[data-row-id="${avatars.asked[0]}"]`).boundingBox();
    const rowWaiting = await rowBox();

    const broken = avatars.asked[1]!;
    avatars.fail.add(broken);
    await avatars.release();
    // Released again on every look: on a busy machine the row window may draw a few more rows a
    // frame later, whose pictures are asked for after the first release.
    await expect
      .poll(async () => {
        await avatars.release();
        return (await avatarCells(page))
          .filter((c) => avatars.asked.includes(c.id))
          .every((c) => (c.id === broken ? c.failed : c.shown === c.id && c.complete));
      })
      .toBe(true);
    const shownOnFirst = avatars.asked.filter((id) => id !== broken);
    // The stand-in was the picture's size and place: the row did not move when the picture came.
    expect(await firstCell.locator('img').boundingBox()).toEqual(standIn);
    expect(await rowBox()).toEqual(rowWaiting);

    // The next page: the rows' cells are reused, and none shows the picture of the page before.
    const before = avatars.asked.length;
    await page.locator('[data-page-step="next"]').click();
    await expect.poll(async () => (await avatarCells(page)).some((c) => shownOnFirst.includes(c.id))).toBe(false);
    await expect.poll(() => avatars.asked.length).toBeGreaterThan(before);
    const second = await avatarCells(page);
    expect(second.every((c) => c.shown === null || c.shown === c.id)).toBe(true);
    await avatars.release();
    await expect
      .poll(async () => {
        await avatars.release();
        return (await avatarCells(page)).filter((c) => avatars.asked.includes(c.id)).every((c) => c.shown === c.id);
      })
      .toBe(true);

    // Back to the first page: its pictures are known, shown with the rows, and not asked for again.
    const asked = avatars.asked.length;
    await page.locator('[data-page-step="prev"]').click();
    // The pagination is at the page's foot: the rows first shown are at its top. Scrolled up on
    // every look, as the page may still move (its rows come in, the row window measures) after
    // one scroll on a busy machine.
    await expect
      .poll(async () => {
        await page.evaluate(() => window.scrollTo(0, 0));
        return (await avatarCells(page)).some((c) => c.id === shownOnFirst[0] && c.shown === c.id);
      })
      .toBe(true);
    const again = (await avatarCells(page)).filter((c) => shownOnFirst.includes(c.id));
    expect(again.every((c) => c.shown === c.id && !c.waiting)).toBe(true);
    expect(avatars.asked.slice(asked).filter((id) => shownOnFirst.includes(id))).toEqual([]);
  });

  it('at 390 px, a card is as tall with the stand-in as with its picture', async () => {
    const { page } = await h.pageAs('admin', { width: 390, height: 844 });
    const avatars = await holdAvatars(page);
    await page.goto('/userpage/userset?pageSize=20');
    const card = page.locator('[data-testid="list-cards"]:not([aria-busy]) [data-testid="list-card"]').first();
    await card.locator('[aria-busy="true"][role="img"]').waitFor();
    await expect.poll(() => avatars.asked.length).toBeGreaterThan(0);
    const waiting = await card.boundingBox();
    await avatars.release();
    await card.locator('img').waitFor();
    expect(await card.boundingBox()).toEqual(waiting);
  });
});
