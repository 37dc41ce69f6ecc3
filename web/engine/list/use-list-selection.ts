import { useState } from 'react';
import type { ActionDef } from '#contract';
import type { Row } from '../shared/queries.js';
import { selectionOf, toggled } from './list-controller-parts.js';

/**
 * The rows chosen on a list's page, and whether "Select all N matching" was chosen. `rowsKey`
 * names the rows shown (rowsKeyOf): when it changes, however the address changed (a link, the
 * browser's history, the menu back to a screen kept from before), the selection goes.
 */
export function useListSelection(rows: readonly Row[], total: number, rowsKey: string, bulk: readonly ActionDef[]) {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  // "Select all N matching" was chosen; it holds only while the whole page stays selected.
  const [matchingChosen, setMatchingChosen] = useState(false);
  const [selectionRows, setSelectionRows] = useState(rowsKey);
  if (selectionRows !== rowsKey) {
    setSelectionRows(rowsKey);
    setSelected(new Set());
    setMatchingChosen(false);
  }

  const clear = () => {
    setSelected(new Set());
    setMatchingChosen(false);
  };
  const select = (ids: string[], on: boolean) => {
    if (!on) setMatchingChosen(false);
    setSelected((prev) => toggled(prev, ids, on));
  };
  return {
    selected,
    ...selectionOf(rows, selected, matchingChosen, total, bulk),
    select,
    clear,
    chooseAllMatching: () => setMatchingChosen(true),
  };
}
