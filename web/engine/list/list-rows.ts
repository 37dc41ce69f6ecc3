import type { FieldDef, ListResource } from '#contract';
import type { LabelT } from '../../i18n/resources/index.js';
import type { Density } from '../../ui/density.js';
import { recordPath } from '../../lib/record-nav.js';
import {
  buildRowCommands,
  runningOn,
  useStableRowHandlers,
  type OfferedCommands,
  type RowCommand,
  type ScreenRowCommands,
  type StableRowHandlers,
} from '../actions/row-commands.js';
import type { Row } from '../shared/queries.js';

/**
 * What a list's rows are drawn from, whether as the desktop's table or the phone's cards: one
 * type, so the two renderings cannot drift apart in what they offer a row.
 */
export interface ListRowsProps {
  resource: ListResource;
  columns: readonly FieldDef[];
  rows: readonly Row[];
  sort: string;
  /** The sort chosen, as the address takes it (`-amount`). */
  onSort: (sort: string) => void;
  selectable: boolean;
  selected: ReadonlySet<string>;
  onSelect: (ids: string[], on: boolean) => void;
  commands: ScreenRowCommands;
  totals?: Record<string, number> | undefined;
  t: LabelT;
  density: Density;
  busy: boolean;
  /** The signed-in administrator's account, for resources with a `selfField`. */
  self?: string;
  /** Calls under way, as `callKey` gives them: their buttons wait. */
  running?: ReadonlySet<string>;
  /** The list's path: each row's naming cell links to the record's page under it. */
  recordBase?: string;
  /** Rows with a held call (two-person approval), as heldMark gives it, by id. */
  held?: ReadonlyMap<string, string>;
  /** The row keys move between (j and k), by its place on the page; null: none yet. */
  current?: number | null;
  /** Rows can take the focus for keyboard work (the screen has keys). */
  navigable?: boolean;
}

/**
 * What one drawn row (a table row or a card) is given. Plain values and stable handlers only, so
 * a memoised row whose record, selection, call and hold did not change is not drawn again.
 */
export interface RowItemProps {
  row: Row;
  resource: ListResource;
  selectable: boolean;
  checked: boolean;
  has: OfferedCommands;
  handlers: StableRowHandlers;
  t: LabelT;
  density: Density;
  /** Names of this row's actions whose call is under way, joined (a string keeps the memo cheap). */
  runningNames: string;
  self: string;
  recordBase: string;
  held: string;
  index: number;
  current: boolean;
  navigable: boolean;
}

export const rowId = (row: Row) => String(row.id);

/**
 * The row wiring both renderings share: stable handlers, which commands are offered, whether the
 * whole page is selected, and each drawn row's own props.
 */
export function useListRows(props: ListRowsProps) {
  const { rows, selected, onSelect, commands, running, held, current = null } = props;
  const { handlers, has } = useStableRowHandlers(commands, onSelect);
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(rowId(r)));
  const itemProps = (row: Row, index: number): RowItemProps => {
    const id = rowId(row);
    return {
      row,
      resource: props.resource,
      selectable: props.selectable,
      checked: selected.has(id),
      has,
      handlers,
      t: props.t,
      density: props.density,
      runningNames: running?.size ? runningOn(running, id) : '',
      self: props.self ?? '',
      recordBase: props.recordBase ?? '',
      held: held?.get(id) ?? '',
      index,
      current: current === index,
      navigable: props.navigable ?? false,
    };
  };
  return {
    has,
    handlers,
    allSelected,
    selectAll: (on: boolean) => onSelect(rows.map(rowId), on),
    itemProps,
  };
}

/** A drawn row's commands and where its naming cell links, from its props alone. */
export function rowCommandsOf(item: RowItemProps): { commands: RowCommand[]; href: string | null } {
  const { resource, row, has, handlers, t, runningNames, self, held, recordBase } = item;
  const waiting = runningNames ? runningNames.split(',') : [];
  return {
    commands: buildRowCommands(resource, row, has, handlers, t, waiting, self, held),
    href: recordBase ? recordPath(recordBase, row.id) : null,
  };
}
