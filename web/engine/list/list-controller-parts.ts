import type { ActionDef, ListResource } from '#contract';
import { bulkActions, eligibleRows, rowActions } from '../actions/actions.js';
import type { Row } from '../shared/queries.js';
import type { RowAnnotation } from '../shared/types.js';
import { serialiseListState, type ListState } from './url-state.js';

/**
 * The list controller's decisions as plain functions of their inputs, apart from React, so each
 * can be read and tested on its own.
 */

type Shape = Parameters<typeof serialiseListState>[1];

/** The resource with its annotation's column, which the table, cards, column chooser and views then treat as one of its own. */
export function withAnnotation(resource: ListResource, annotation: RowAnnotation | undefined): ListResource {
  return annotation ? { ...resource, fields: [...resource.fields, annotation.field] } : resource;
}

/** The answered rows with the annotation's value in its column ('' where it has none). */
export function annotatedRows(
  list: readonly Row[],
  annotation: RowAnnotation | undefined,
  values: ReadonlyMap<string, string>,
): readonly Row[] {
  if (!annotation) return list;
  const key = annotation.field.key;
  return list.map((r) => ({ ...r, [key]: values.get(String(r.id)) ?? '' }));
}

/**
 * Which rows a state shows, as one string: the address without its columns. Rows of another
 * page, sort or filter are not the rows selected, however the address changed.
 */
export function rowsKeyOf(state: ListState, shape: Shape): string {
  return serialiseListState({ ...state, columns: [] }, shape);
}

/** Whether a move from one state to the next keeps the same rows (only columns shown, hidden or moved). */
export function sameRows(state: ListState, next: ListState, shape: Shape): boolean {
  return serialiseListState({ ...next, columns: state.columns }, shape) === serialiseListState(state, shape);
}

/** The selection with `ids` put in or taken out. */
export function toggled(selected: ReadonlySet<string>, ids: readonly string[], on: boolean): Set<string> {
  const next = new Set(selected);
  for (const id of ids)
    if (on) next.add(id);
    else next.delete(id);
  return next;
}

/**
 * What the selection is: its rows on this page, whether it stands for every matching record
 * ("Select all N matching" holds only while the whole page stays selected), and the bulk actions
 * that fit it. Unban fits banned users, Ban the others, both a mix; over every matching record
 * nothing is known of the rows yet, so all are offered and the run's summary tells.
 */
export function selectionOf(
  rows: readonly Row[],
  selected: ReadonlySet<string>,
  matchingChosen: boolean,
  total: number,
  bulk: readonly ActionDef[],
) {
  const selectedRows = rows.filter((r) => selected.has(String(r.id)));
  const allMatching = matchingChosen && rows.length > 0 && selectedRows.length === rows.length && total > rows.length;
  const offeredBulk = allMatching ? [...bulk] : bulk.filter((a) => eligibleRows(a, selectedRows).length > 0);
  return { selectedRows, allMatching, offeredBulk };
}

/** Whether rows can be selected at all: there is something to do to several at once. */
export function isSelectable(resource: ListResource): boolean {
  return bulkActions(resource).length > 0 || !!resource.remove;
}

export type BulkPlan = { kind: 'matching' } | { kind: 'rows'; targets: readonly Row[]; skipped: number };

/**
 * How a bulk action runs: over every matching record (which of them apply is known only once
 * they are read, so the summary reports the rest), or over the selected rows it applies to, the
 * others skipped and counted.
 */
export function bulkPlan(action: ActionDef, selectedRows: readonly Row[], allMatching: boolean): BulkPlan {
  if (allMatching) return { kind: 'matching' };
  const targets = eligibleRows(action, selectedRows);
  return { kind: 'rows', targets, skipped: selectedRows.length - targets.length };
}

/** The row action a screen's key runs on a row, if the row offers it. */
export function keyedAction(
  resource: ListResource,
  keys: Readonly<Record<string, string>> | undefined,
  key: string,
  row: Row | undefined,
): ActionDef | undefined {
  const name = keys?.[key];
  return name && row ? rowActions(resource, row).find((a) => a.name === name) : undefined;
}

/** How many pages a total makes; one at least, so an empty list is on page 1 of 1. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/**
 * The page a stale link past the last page (rows were deleted) moves back to, once the answer is
 * the one for this page and not the previous page's kept on screen; null where it stays.
 */
export function pageToMoveTo(
  state: Pick<ListState, 'pageNum' | 'pageSize'>,
  answer: { total: number } | undefined,
  placeholder: boolean,
): number | null {
  if (!answer || placeholder) return null;
  const pages = pageCount(answer.total, state.pageSize);
  return state.pageNum > pages ? pages : null;
}
