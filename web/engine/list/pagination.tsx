import { useState } from 'react';
import type { LabelT } from '../../i18n/resources/index.js';
import type { Density } from '../../ui/density.js';

/** The page numbers shown: the first, the last, and two either side of the current, gaps as null. */
export function pageWindow(page: number, pages: number, around = 2): (number | null)[] {
  const shown = new Set([1, pages]);
  for (let n = page - around; n <= page + around; n++) if (n >= 1 && n <= pages) shown.add(n);
  const sorted = [...shown].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  sorted.forEach((n, i) => {
    if (i > 0 && n - sorted[i - 1]! > 1) out.push(null);
    out.push(n);
  });
  return out;
}

interface Props {
  pageNum: number;
  pageSize: number;
  total: number;
  sizes: readonly number[];
  onPage: (n: number) => void;
  onSize: (n: number) => void;
  t: LabelT;
  density: Density;
}

/** The total, the page size, and every way to a page: first, previous, numbers, next, last, or typed. */
export function Pagination({ pageNum, pageSize, total, sizes, onPage, onSize, t, density }: Props) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const [jump, setJump] = useState('');
  const go = (n: number) => {
    if (n >= 1 && n <= pages && n !== pageNum) onPage(n);
  };
  const arrow = 'btn min-w-8 px-2';
  return (
    <nav
      className={`mt-3 flex flex-wrap items-center gap-3 text-slate-600 ${density.text}`}
      aria-label={t('engine.pageOf', { page: pageNum, pages })}
    >
      <span data-testid="list-total">{t('engine.totalCount', { count: total })}</span>
      <label className="flex items-center gap-2">
        {t('engine.pageSize')}
        <select
          className={`rounded-md border border-slate-300 bg-white ${density.input}`}
          value={pageSize}
          onChange={(e) => onSize(Number(e.target.value))}
        >
          {sizes.map((s) => (
            <option key={s} value={s}>
              {t('engine.perPage', { count: s })}
            </option>
          ))}
        </select>
      </label>
      <div className="ml-auto flex flex-wrap items-center gap-1">
        <button
          type="button"
          className={arrow}
          disabled={pageNum <= 1}
          onClick={() => go(1)}
          aria-label={t('engine.firstPage')}
          data-page-step="first"
        >
          «
        </button>
        <button
          type="button"
          className={arrow}
          disabled={pageNum <= 1}
          onClick={() => go(pageNum - 1)}
          aria-label={t('engine.prev')}
          data-page-step="prev"
        >
          ‹
        </button>
        <ul className="flex items-center gap-1" data-testid="page-numbers">
          {pageWindow(pageNum, pages).map((n, i) =>
            n === null ? (
              <li key={`gap-${i}`} aria-hidden="true" className="px-1">
                …
              </li>
            ) : (
              <li key={n}>
                <button
                  type="button"
                  className={`${arrow} ${n === pageNum ? 'btn-primary' : ''}`}
                  aria-current={n === pageNum ? 'page' : undefined}
                  aria-label={t('engine.pageN', { page: n })}
                  onClick={() => go(n)}
                  data-page={n}
                >
                  {n}
                </button>
              </li>
            ),
          )}
        </ul>
        <button
          type="button"
          className={arrow}
          disabled={pageNum >= pages}
          onClick={() => go(pageNum + 1)}
          aria-label={t('engine.next')}
          data-page-step="next"
        >
          ›
        </button>
        <button
          type="button"
          className={arrow}
          disabled={pageNum >= pages}
          onClick={() => go(pages)}
          aria-label={t('engine.lastPage')}
          data-page-step="last"
        >
          »
        </button>
        <span className="sr-only" aria-live="polite">
          {t('engine.pageOf', { page: pageNum, pages })}
        </span>
        {/* A page past the end is taken as the last, not refused by the browser's own check. */}
        <form
          noValidate
          className="ml-2 flex items-center gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            const n = Math.min(pages, Math.max(1, Math.floor(Number(jump))));
            if (Number.isFinite(n)) go(n);
            setJump('');
          }}
        >
          <label className="flex items-center gap-1">
            {t('engine.jumpTo')}
            <input
              type="number"
              min={1}
              max={pages}
              inputMode="numeric"
              className={`w-20 rounded-md border border-slate-300 bg-white ${density.input}`}
              value={jump}
              onChange={(e) => setJump(e.target.value)}
              data-testid="page-jump"
            />
          </label>
          <button type="submit" className="btn">
            {t('engine.go')}
          </button>
        </form>
      </div>
    </nav>
  );
}
