import { useEffect, useRef, useState } from 'react';

/** Where typing goes, or a layer above the list: keys there are the control's, not the list's. */
const NOT_FOR_THE_LIST =
  'input, textarea, select, button[aria-expanded="true"], [contenteditable=""], [contenteditable="true"], [role="dialog"], [role="menu"], [role="listbox"]';

/** Frames a scrolled-to row may take to be drawn before the focus gives up on it. */
const MAX_FRAMES_TO_DRAW_ROW = 30;

export interface RowKeysOptions {
  /** Keys declared at all: without them the list takes no keys. */
  enabled: boolean;
  rowCount: number;
  /** A key other than j and k was pressed on the current row: true when it ran something. */
  onKey: (key: string, index: number) => boolean;
}

/**
 * Keyboard work on a list: j and k move the current row (focused, so a screen reader reads it),
 * other keys are handed to the screen for the current row. Keys are the list's only while nothing
 * else wants them: not while typing, with a modifier held, or with a dialog or menu open.
 */
export function useRowKeys({ enabled, rowCount, onKey }: RowKeysOptions) {
  const [current, setCurrent] = useState<number | null>(null);
  const latest = useRef({ current, rowCount, onKey });
  latest.current = { current, rowCount, onKey };
  // Set by a key press, so only moving with keys takes the focus (a new page of rows does not).
  const focusWanted = useRef(false);

  useEffect(() => {
    if (!enabled) return;
    const listener = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest(NOT_FOR_THE_LIST) || document.querySelector('[role="dialog"]')) return;
      const { current: at, rowCount: count, onKey: run } = latest.current;
      if (count === 0) return;
      if (event.key === 'j' || event.key === 'k') {
        event.preventDefault();
        const step = event.key === 'j' ? 1 : -1;
        const next = at === null ? (step > 0 ? 0 : count - 1) : Math.min(count - 1, Math.max(0, at + step));
        focusWanted.current = true;
        setCurrent(next);
        return;
      }
      if (at !== null && at < count && run(event.key, at)) event.preventDefault();
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [enabled]);

  // Fewer rows now (a filter, the last page): the current row stays on the page.
  const shown = current !== null && current >= rowCount ? (rowCount > 0 ? rowCount - 1 : null) : current;

  useEffect(() => {
    if (!focusWanted.current || shown === null) return;
    focusWanted.current = false;
    // A long page draws only the rows near the view: a row further away is scrolled to first and
    // drawn a frame or two later, so its element is looked for again until it is there.
    let frame = 0;
    let tries = 0;
    const focusRow = () => {
      const row = document.querySelector<HTMLElement>(`[data-row-index="${shown}"]`);
      if (row) row.focus();
      else if (tries++ < MAX_FRAMES_TO_DRAW_ROW) frame = requestAnimationFrame(focusRow);
    };
    focusRow();
    return () => cancelAnimationFrame(frame);
  }, [shown]);

  return { current: enabled ? shown : null, setCurrent };
}
