import { useCallback, useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { useWindowVirtualizer } from '@tanstack/react-virtual';

/**
 * A page of more rows than this draws only the rows in and near the view. Measured on a 2-core
 * machine without a GPU: a 100-row users page spent most of a page change painting rows nobody
 * could see and loading their hundred avatars; drawing the rows near the view halved the median
 * change (about 250 ms to 130 ms). A page of up to 50 rows is drawn whole, so the browser's find
 * and the default page sizes see every row.
 */
export const DRAWN_WHOLE_UP_TO = 50;

/** Rows drawn beyond each edge of the view, so a wheel turn or a j/k step finds its row drawn. */
const OVERSCAN = 8;

/** A row's height before any is measured: a one-line row at the default size, with its avatar. */
const FIRST_ESTIMATE_PX = 49;

/*
 * What the last windowed list found, for the next one to start from: where its rows started (every
 * list has the same frame above its table) and their average height. A list drawn again (back
 * from a record's page) then starts as tall as it was and with the rows the scroll memory returns to.
 */
let lastMargin = 0;
let lastRowPx = FIRST_ESTIMATE_PX;

export interface RowWindow {
  /** Only the rows near the view are drawn. */
  windowed: boolean;
  /** The first and last index drawn (inclusive); the whole page when not windowed. */
  first: number;
  last: number;
  /** Height of the rows left out above and below, drawn as one empty row each. */
  padTop: number;
  padBottom: number;
  /** Given to each drawn row's element: its measured height replaces the estimate. */
  measure: ((element: HTMLTableRowElement | null) => void) | undefined;
  /** Brings the row at `index` into view (and so into the drawn rows). */
  reveal: (index: number) => void;
}

/** True while the page is being printed: a printout shows every row of the page. */
function usePrinting(): boolean {
  const [printing, setPrinting] = useState(false);
  useEffect(() => {
    // Synchronously: the browser lays the page out for print right after this event.
    const before = () => flushSync(() => setPrinting(true));
    const after = () => setPrinting(false);
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
    };
  }, []);
  return printing;
}

/**
 * Which rows of a page to draw, scrolled with the window. `body` is the table's body: its place
 * on the page is where the rows start, which moves as filters open and banners come and go.
 */
export function useRowWindow(count: number, body: React.RefObject<HTMLTableSectionElement | null>): RowWindow {
  const printing = usePrinting();
  const windowed = count > DRAWN_WHOLE_UP_TO && !printing;
  const [margin, setMargin] = useState(lastMargin);
  const [estimate] = useState(lastRowPx);
  const virtualizer = useWindowVirtualizer<HTMLTableRowElement>({
    count,
    enabled: windowed,
    estimateSize: () => estimate,
    overscan: OVERSCAN,
    scrollMargin: margin,
    indexAttribute: 'data-row-index',
    // The window's size from the first render on: the rows drawn first are those in view, and the
    // page is as tall as all its rows before the scroll memory puts a position back.
    initialRect: { width: window.innerWidth, height: window.innerHeight },
    // A measured row's new height re-renders with the next React update rather than inside the
    // browser's resize callback, which would lay the page out a second time in the same frame.
    useFlushSync: false,
  });
  // Read at the start of the next frame, when the layout is already done and reading it costs
  // nothing; read inside the commit it would lay the page out a second time for every page change.
  // Until then the rows drawn are those of the last reading, which differs only when something
  // above the table changed height (a filter opened, a banner came).
  useEffect(() => {
    if (!windowed) return;
    const frame = requestAnimationFrame(() => {
      if (!body.current) return;
      const top = Math.round(body.current.getBoundingClientRect().top + window.scrollY);
      lastMargin = top;
      const items = virtualizer.getVirtualItems();
      if (items.length > 0) lastRowPx = (items[items.length - 1]!.end - items[0]!.start) / items.length;
      setMargin((known) => (known === top ? known : top));
    });
    return () => cancelAnimationFrame(frame);
  });
  // The virtualizer is one object for the table's life, so this is one function too.
  const reveal = useCallback((index: number) => virtualizer.scrollToIndex(index, { align: 'auto' }), [virtualizer]);

  if (!windowed) return { windowed, first: 0, last: count - 1, padTop: 0, padBottom: 0, measure: undefined, reveal };
  const items = virtualizer.getVirtualItems();
  if (items.length === 0) {
    // Nothing in view yet (the table is below the window's foot): the first rows, and the place
    // of the others.
    const last = Math.min(count, OVERSCAN) - 1;
    const padBottom = Math.max(0, virtualizer.getTotalSize() - (last + 1) * estimate);
    return {
      windowed,
      first: 0,
      last,
      padTop: 0,
      padBottom,
      measure: virtualizer.measureElement,
      reveal,
    };
  }
  const head = items[0]!;
  const tail = items[items.length - 1]!;
  return {
    windowed,
    first: head.index,
    last: tail.index,
    padTop: Math.max(0, head.start - margin),
    padBottom: Math.max(0, virtualizer.getTotalSize() - (tail.end - margin)),
    measure: virtualizer.measureElement,
    reveal,
  };
}
