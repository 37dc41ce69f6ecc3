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
