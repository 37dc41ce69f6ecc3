import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { storePreference, useHarness } from './harness.js';

/*
 * Chinese and Japanese have no spaces between words, so a browser may break a line between any two
 * characters: in a narrow column "银行卡" became 银行/卡 and the 详情 button 详/情. Short labels
 * (statuses, options, column titles, buttons) stay whole on one line, at a laptop's and a phone's
 * width, in both languages.
 */
const h = useHarness({ sandbox: { withdrawalTickMs: 0 } });
const SHOTS = process.env.CJK_SHOTS;

/**
 * Of the elements on screen whose whole text is one of `words`, how many were found per word and
 * which ones are drawn on more than one line (their text's boxes start at more than one height).
 */
function wordLines(page: Page, words: readonly string[]) {
  return page.evaluate((words) => {
    const found: Record<string, number> = {};
    const broken: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('th, td, button, a, span, div, dd, p')) {
      const text = el.textContent?.trim() ?? '';
      if (!words.includes(text) || el.offsetParent === null) continue;
      // The innermost element holding the word: its parent is measured through it.
      if ([...el.children].some((c) => c.textContent?.trim() === text)) continue;
      found[text] = (found[text] ?? 0) + 1;
      const range = document.createRange();
      range.selectNodeContents(el);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(`${el.tagName.toLowerCase()} "${text}" on ${tops.size} lines`);
    }
    return { found, broken };
  }, words);
}

/** Each screen with the words to find on it: `wide` ones only where the table (titles, row buttons) is drawn. */
const SCREENS = [
  {
    lang: 'zh',
    path: '/WithDrawMoneyCheck?state=pending',
    words: ['银行卡', '待处理'],
    wide: ['用户账号', '手续费', '审核时间', '审核人'],
  },
  { lang: 'zh', path: '/system/record', words: [], wide: ['管理员', '详情'] },
  { lang: 'zh', path: '/userpage/userset', words: [], wide: ['详情'] },
  {
    lang: 'ja',
    path: '/WithDrawMoneyCheck?state=pending',
    words: ['銀行カード'],
    wide: ['ユーザーアカウント'],
  },
  { lang: 'ja', path: '/userpage/userset', words: [], wide: ['詳細'] },
  // The audit trail's own table: its 详情 button and its 管理员 column.
  { lang: 'zh', path: '/system/audit', words: ['详情'], wide: ['管理员'] },
] as const;

describe('Chinese and Japanese words stay whole', () => {
  for (const size of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`keeps short labels on one line at ${size.width} px`, async () => {
      const { page } = await h.pageAs('admin', size);
      const problems: string[] = [];
      for (const screen of SCREENS) {
        const { lang, path } = screen;
        const words: readonly string[] = size.width > 640 ? [...screen.words, ...screen.wide] : screen.words;
        if (words.length === 0) continue;
        await storePreference(page, 'language', lang);
        await page.goto(path);
        await page
          .locator('[data-testid="list-table"] tbody tr, [data-testid="list-card"], main tbody tr, main li')
          .first()
          .waitFor();
        if (SHOTS)
          await page.screenshot({
            path: `${SHOTS}/${lang}-${path.split('?')[0]!.replaceAll('/', '_')}-${size.width}.png`,
          });
        const { found, broken } = await wordLines(page, words);
        problems.push(...broken.map((b) => `${lang} ${path}: ${b}`));
        // Each word is on screen, so a word not found cannot pass for a word kept whole.
        for (const w of words) if (!found[w]) problems.push(`${lang} ${path}: "${w}" not found`);
      }
      expect(problems).toEqual([]);
    }, 90_000);
  }
});
