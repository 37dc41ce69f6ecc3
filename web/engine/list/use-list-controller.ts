import { useMemo } from 'react';
import type { ActionDef, ListResource } from '#contract';
import { useSignals } from '@preact/signals-react/runtime';
import { accountName } from '../../api/session.js';
import { toast } from '../../lib/toast.js';
import { openFromList, recordPath } from '../../lib/record-nav.js';
import { useLabelT } from '../../i18n/resources/index.js';
import { useDensity } from '../../ui/density.js';
import { useNarrow } from '../../ui/use-narrow.js';
import { bulkActions } from '../actions/actions.js';
import { useActionRunner } from '../actions/use-action-runner.js';
import { useHeldApprovals } from '../actions/use-held-approvals.js';
import { importSpec } from '../import/import-rows.js';
import { seedRecord } from '../record/record-query.js';
import type { Row } from '../shared/queries.js';
import type { ListScreenOptions } from '../shared/types.js';
import { useListColumns } from './column-chooser.js';
import { bulkPlan, isSelectable, keyedAction, rowsKeyOf, sameRows } from './list-controller-parts.js';
import type { ListRowsProps } from './list-rows.js';
import { useListDialogs } from './use-list-dialogs.js';
import { useListQuery } from './use-list-query.js';
import { useListSelection } from './use-list-selection.js';
import { useRowKeys } from './use-row-keys.js';
import { withChange, type ListState } from './url-state.js';

/**
 * Everything a management list does, apart from how it is drawn: the page its address asks for,
 * the selection, the row commands, bulk and page actions, held approvals, the edit, delete and
 * import dialogs' state, keys. The list screen only renders what this returns.
 */
export function useListController(contractResource: ListResource, options: ListScreenOptions) {
  useSignals();
  const t = useLabelT();
  const density = useDensity();
  const narrow = useNarrow();
  const list = useListQuery(contractResource, options);
  const { resource, shape, state, params, path, here, query, rows, total, needed, unlisted } = list;
  const bulk = bulkActions(resource);
  const selection = useListSelection(rows, total, rowsKeyOf(state, shape), bulk);

  const go = (next: ListState, replace = false) => {
    // Showing, hiding or moving a column changes no row: the selection stays.
    if (!sameRows(state, next, shape)) selection.clear();
    list.go(next, replace);
  };
  const cols = useListColumns(resource, state, go);

  const dialogs = useListDialogs(resource, rows, t, selection.clear);
  // The import as this backend offers it: none when the create (or the action) it needs is not offered.
  const csvImport = useMemo(
    () => (options.import ? importSpec(resource, options.import) : null),
    [resource, options.import],
  );

  // The record's row or card on screen, for dialogs about it to keep clear of it.
  const rowElement = (id: unknown) =>
    document.querySelector<HTMLElement>(
      `[data-testid="list-screen"][data-resource="${resource.id}"] [data-row-id="${CSS.escape(String(id))}"]`,
    );
  const runner = useActionRunner(
    resource,
    options.results,
    (action, target) => {
      selection.clear();
      options.afterAction?.(action, target);
    },
    options.context,
    rowElement,
  );
  // Held calls (two-person approval) are asked for only where money moves: nothing else is held.
  const holds = useHeldApprovals(resource, t, {
    enabled: resource.actions?.some((a) => a.money) ?? false,
    context: options.context,
  });

  // Every record has its page at the list's path plus its id.
  const openRecord = (row: Row) => {
    const to = recordPath(path, row.id);
    if (!to) return;
    // The page draws the record from this row at once, then from its own call.
    seedRecord(resource.id, row);
    openFromList(to, here);
  };

  /** A row action, or, on a row someone else's held call waits on, that call's confirmation. */
  const runRowAction = (action: ActionDef, row: Row) => {
    if (holds.takesOver(action, String(row.id))) return;
    runner.start(action, { id: row.id }, [row]);
  };
  const keys = options.keys;
  const rowKeys = useRowKeys({
    enabled: !!keys,
    rowCount: rows.length,
    onKey: (key, index) => {
      const row = rows[index];
      const action = keyedAction(resource, keys, key, row);
      if (!action || !row) return false;
      runRowAction(action, row);
      return true;
    },
  });

  const runBulk = (action: ActionDef) => {
    const plan = bulkPlan(action, selection.selectedRows, selection.allMatching);
    if (plan.kind === 'matching') {
      runner.start(action, { matching: params, total });
      return;
    }
    if (plan.skipped > 0) toast.warning(t('engine.skipped', { count: plan.skipped }));
    if (plan.targets.length > 0) runner.start(action, { ids: plan.targets.map((r) => r.id) }, plan.targets);
  };

  // What the table and the phone's cards are drawn from, alike.
  const rowsProps: ListRowsProps = {
    resource,
    columns: cols.fields,
    rows,
    sort: state.sort,
    onSort: (sort) => go(withChange(state, { sort })),
    selectable: isSelectable(resource),
    selected: selection.selected,
    onSelect: selection.select,
    commands: {
      detail: resource.detail ? openRecord : undefined,
      open: openRecord,
      edit: resource.edit ? dialogs.edit : undefined,
      remove: resource.remove ? (row: Row) => dialogs.askRemove([String(row.id)]) : undefined,
      action: runRowAction,
      links: options.links,
    },
    totals: resource.totals ? query.data?.totals : undefined,
    t,
    density,
    busy: query.isPlaceholderData || query.isFetching,
    self: resource.selfField ? accountName.value : '',
    running: runner.running,
    recordBase: path,
    held: holds.held,
    current: rowKeys.current,
    navigable: !!keys,
  };

  return {
    contractResource,
    resource,
    shape,
    state,
    params,
    path,
    query,
    rows,
    total,
    /** Filters the backend cannot list without that the address lacks: the screen asks for them. */
    needed,
    /** The backend keeps no list of these: nothing is asked, the page's own actions stay. */
    unlisted,
    go,
    cols,
    t,
    density,
    narrow,
    keys,
    /** How many records wait beyond the list, for the bar that offers to show them. */
    watch: options.watch,
    csvImport,
    rowsProps,
    selection: {
      ...selection,
      runBulk,
      remove: () => dialogs.askRemove(selection.selectedRows.map((r) => String(r.id))),
    },
    runner,
    holds,
    dialogs: { ...dialogs, rowElement },
  };
}

export type ListController = ReturnType<typeof useListController>;
