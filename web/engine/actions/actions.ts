import type { ActionDef, ListResource } from '#contract';

type Row = Record<string, unknown>;

/** Whether a row meets an action's `when`; an action without one applies to every row. */
export function appliesTo(action: Pick<ActionDef, 'when'>, row: Row): boolean {
  if (!action.when) return true;
  const value = row[action.when.field];
  return action.when.in.some((v) => v === value);
}

export function pageActions(resource: Pick<ListResource, 'actions'>): ActionDef[] {
  return (resource.actions ?? []).filter((a) => a.target === 'page');
}

/** Actions over the selected rows: bulk calls, and row actions also offered one row at a time over a selection. */
export function bulkActions(resource: Pick<ListResource, 'actions'>): ActionDef[] {
  return (resource.actions ?? []).filter((a) => a.target === 'bulk' || (a.target === 'row' && a.perSelectedRow));
}

/** The row actions offered on one row. */
export function rowActions(resource: Pick<ListResource, 'actions'>, row: Row): ActionDef[] {
  return (resource.actions ?? []).filter((a) => a.target === 'row' && appliesTo(a, row));
}

/** Of the selected rows, those a bulk action may act on. */
export function eligibleRows<R extends Row>(action: Pick<ActionDef, 'when'>, rows: readonly R[]): R[] {
  return rows.filter((r) => appliesTo(action, r));
}

/** Asked before running: money always, and a destructive action unless it can be undone afterwards. */
export function asksFirst(action: Pick<ActionDef, 'money' | 'destructive' | 'undo'>): boolean {
  return !!action.money || (!!action.destructive && !action.undo);
}

/**
 * What undoes `action`: the bulk variant of its `undo` when several records are to be restored and
 * one exists, else the row variant, sent once per record. None when the reverse asks for inputs.
 */
export function undoAction(
  resource: Pick<ListResource, 'actions'>,
  action: Pick<ActionDef, 'undo'>,
  many: boolean,
): ActionDef | undefined {
  if (!action.undo) return undefined;
  const variants = (resource.actions ?? []).filter((a) => a.name === action.undo && !a.inputs?.some((f) => f.required));
  return (many ? variants.find((a) => a.target === 'bulk') : undefined) ?? variants.find((a) => a.target === 'row');
}
