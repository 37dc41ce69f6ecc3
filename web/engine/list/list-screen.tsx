import { useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { navigate } from 'wouter/use-browser-location';
import { useScreenLocation } from '../../lib/screen-location.js';
import { formFields, type ActionDef, type ListResource } from '#contract';
import { useSignals } from '@preact/signals-react/runtime';
import { accountName } from '../../api/session.js';
import { toast } from '../../lib/toast.js';
import { useLabelT } from '../../i18n/resources/index.js';
import { ConfirmDialog } from '../../ui/confirm-dialog.js';
import { bulkActions, eligibleRows, rowActions } from '../actions/actions.js';
import { useHolds } from '../actions/approvals.js';
import { HeldApprovalsPanel, useHoldDialogs } from '../actions/held-approvals.js';
import { heldMark } from '../actions/row-commands.js';
import { useRowKeys } from './use-row-keys.js';
import { useDensity } from '../../ui/density.js';
import { FormDialog } from '../form/form-dialog.js';
import { ImportDialog } from '../import/import-dialog.js';
import { importSpec } from '../import/import-rows.js';
import { actionLabel, resourceTitle } from '../shared/labels.js';
import { ListToolbar } from './list-toolbar.js';
import { Empty, LoadFailed, Loading } from '../shared/states.js';
import { NewRecordsBar } from './new-records-bar.js';
import { ListCards } from './list-cards.js';
import { useListColumns } from './column-chooser.js';
import { ListTable, TableSkeleton, runningOn } from './list-table.js';
import { Pagination } from './pagination.js';
import { useNarrow } from '../../ui/use-narrow.js';
import { openFromList, recordPath, rememberListQuery } from '../../lib/record-nav.js';
import { listQueryOptions, useDeleteMutation, useSaveMutation, type Row } from '../shared/queries.js';
import type { ListScreenOptions, RowAnnotation } from '../shared/types.js';
import { useScrollMemory } from './scroll-memory.js';
import { useHeldWhileHidden } from './use-held-while-hidden.js';
import { listShape, sendEarly } from './opening-query.js';
import { seedRecord } from '../record/record-query.js';
import { useActionRunner } from '../actions/use-action-runner.js';
import { deleteQuestion, namesText } from '../record/record-names.js';
import { recordName } from '../record/record-summary.js';
import { SelectionBar } from './selection-bar.js';
import {
  PAGE_SIZES,
  listQueryParams,
  nextSort,
  parseListState,
  serialiseListState,
  withChange,
  type ListState,
} from './url-state.js';

type Editing = { mode: 'create' } | { mode: 'edit'; row: Row } | null;

const NO_VALUES: ReadonlyMap<string, string> = new Map();
const noValues = (): ReadonlyMap<string, string> => NO_VALUES;

/** The resource with its annotation's column, which the table, cards, column chooser and views then treat as one of its own. */
function withAnnotation(resource: ListResource, annotation: RowAnnotation | undefined): ListResource {
  return annotation ? { ...resource, fields: [...resource.fields, annotation.field] } : resource;
}

/** A management list: server-side paging, sorting and filters kept in the URL, actions, forms, CSV. */
export function ListScreen({
  resource: contractResource,
  options = {},
}: {
  resource: ListResource;
  options?: ListScreenOptions;
}) {
  useSignals();
  const annotation = options.annotate;
  const resource = useMemo(() => withAnnotation(contractResource, annotation), [contractResource, annotation]);
  const t = useLabelT();
  const density = useDensity();
  const narrow = useNarrow();
  const { path, search } = useScreenLocation();
  // The resource as the address reads it: with the filters the screen opens on (a review queue's pending state).
  const { defaultFilters } = options;
  const shape = useMemo(() => listShape(resource, defaultFilters), [resource, defaultFilters]);
  const state = useMemo(() => parseListState(search, shape), [search, shape]);
  const params = useMemo(() => listQueryParams(state), [state]);
  const listQuery = listQueryOptions(resource, params);
  const client = useQueryClient();
  // A screen built afresh sends for its page as it starts to render rather than once it is
  // committed, so the call is under way while the screen is built (about 30 ms on a first visit).
  // A page or sort change within the screen is left to the query as it is: its answer landing in
  // the click's own render would only hold that render up. A page cached but stale is left to the
  // query too, which shows it while asking again.
  useState(() => {
    if (!client.getQueryState(listQuery.queryKey)) sendEarly(client, listQuery);
  });
  const query = useQuery(listQuery);
  useHeldWhileHidden(listQuery.queryKey);

  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<string[] | null>(null);
  const [importing, setImporting] = useState(false);
  // The import as this backend offers it: none when the create (or the action) it needs is not offered.
  const csvImport = useMemo(
    () => (options.import ? importSpec(resource, options.import) : null),
    [resource, options.import],
  );
  // "Select all N matching" was chosen; it holds only while the whole page stays selected.
  const [matchingChosen, setMatchingChosen] = useState(false);

  // Rows of another page, sort or filter are not the rows selected, however the address changed
  // (a link, the browser's history, the menu back to a screen kept from before): the selection goes.
  const rowsKey = useMemo(() => serialiseListState({ ...state, columns: [] }, shape), [state, shape]);
  const [selectionRows, setSelectionRows] = useState(rowsKey);
  if (selectionRows !== rowsKey) {
    setSelectionRows(rowsKey);
    setSelected(new Set());
    setMatchingChosen(false);
  }

  const clearSelection = () => {
    setSelected(new Set());
    setMatchingChosen(false);
  };

  const save = useSaveMutation(resource);
  const remove = useDeleteMutation(resource);
  // The record's row or card on screen, for dialogs about it to keep clear of it.
  const rowElement = (id: unknown) =>
    document.querySelector<HTMLElement>(
      `[data-testid="list-screen"][data-resource="${resource.id}"] [data-row-id="${CSS.escape(String(id))}"]`,
    );
  const runner = useActionRunner(
    resource,
    options.results,
    (action, target) => {
      clearSelection();
      options.afterAction?.(action, target);
    },
    options.context,
    rowElement,
  );
  // Held calls (two-person approval) are asked for only where money moves: nothing else is held.
  const holds = useHolds(resource.id, resource.actions?.some((a) => a.money) ?? false);
  const holdDialogs = useHoldDialogs(resource, t, options.context);
  const held = useMemo(() => new Map([...holds.byTarget].map(([id, hold]) => [id, heldMark(hold)])), [holds.byTarget]);

  const here = search ? `${path}?${search}` : path;
  // A record's page returns to the list as it is now, and going back puts the scroll back too.
  useEffect(() => rememberListQuery(path, search), [path, search]);
  useScrollMemory(here, !!query.data && !query.isPlaceholderData);
  // Every record has its page at the list's path plus its id.
  const openRecord = (row: Row) => {
    const to = recordPath(path, row.id);
    if (!to) return;
    // The page draws the record from this row at once, then from its own call.
    seedRecord(resource.id, row);
    openFromList(to, here);
  };

  const go = (next: ListState, replace = false) => {
    const qs = serialiseListState(next, shape);
    // Showing, hiding or moving a column changes no row: the selection stays.
    const sameRows =
      serialiseListState({ ...next, columns: state.columns }, shape) === serialiseListState(state, shape);
    if (!sameRows) clearSelection();
    navigate(qs ? `${path}?${qs}` : path, { replace });
  };

  const answered = query.data?.list;
  // The same hook on every render of a screen: its options never change while it is shown.
  const useAnnotationValues = annotation?.useValues ?? noValues;
  const annotated = useAnnotationValues(contractResource, answered ?? []);
  const rows = useMemo(() => {
    const list = answered ?? [];
    if (!annotation) return list;
    const key = annotation.field.key;
    return list.map((r) => ({ ...r, [key]: annotated.get(String(r.id)) ?? '' }));
  }, [answered, annotation, annotated]);
  const total = query.data?.total ?? 0;
  const cols = useListColumns(resource, state, go);
  const columns = cols.fields;
  const bulk = bulkActions(resource);
  const selectable = bulk.length > 0 || !!resource.remove;
  const selectedRows = rows.filter((r) => selected.has(String(r.id)));
  const allMatching = matchingChosen && rows.length > 0 && selectedRows.length === rows.length && total > rows.length;
  // What fits the selection: Unban for banned users, Ban for the others, both for a mix. Over
  // every matching record nothing is known of the rows yet: all are offered, the summary tells.
  const offeredBulk = allMatching ? bulk : bulk.filter((a) => eligibleRows(a, selectedRows).length > 0);

  const removedRows = removing ? rows.filter((r) => removing.includes(String(r.id))) : [];
  const nameOf = (row: Row) => recordName(t, resource, row);

  /** A row action, or, on a row someone else's held call waits on, that call's confirmation. */
  const runRowAction = (action: ActionDef, row: Row) => {
    const hold = holds.byTarget.get(String(row.id));
    if (hold && hold.action === action.name) {
      if (hold.mine) toast.info(t('approvals.waiting'));
      else holdDialogs.askConfirm(hold);
      return;
    }
    runner.start(action, { id: row.id }, [row]);
  };
  const keys = options.keys;
  const rowKeys = useRowKeys({
    enabled: !!keys,
    rowCount: rows.length,
    onKey: (key, index) => {
      const name = keys?.[key];
      const row = rows[index];
      const action = name && row ? rowActions(resource, row).find((a) => a.name === name) : undefined;
      if (!action || !row) return false;
      runRowAction(action, row);
      return true;
    },
  });

  const runBulk = (action: ActionDef) => {
    if (allMatching) {
      // Which of them apply is known only once they are read; the summary reports the rest.
      runner.start(action, { matching: params, total });
      return;
    }
    const targets = eligibleRows(action, selectedRows);
    if (targets.length < selectedRows.length)
      toast.warning(t('engine.skipped', { count: selectedRows.length - targets.length }));
    if (targets.length > 0) runner.start(action, { ids: targets.map((r) => r.id) }, targets);
  };

  // What the table and the phone's cards share.
  const listProps = {
    resource,
    columns,
    rows,
    sort: state.sort,
    selectable,
    selected,
    onSelect: (ids: string[], on: boolean) => {
      if (!on) setMatchingChosen(false);
      setSelected((prev) => {
        const next = new Set(prev);
        for (const id of ids)
          if (on) next.add(id);
          else next.delete(id);
        return next;
      });
    },
    commands: {
      detail: resource.detail ? openRecord : undefined,
      open: openRecord,
      edit: resource.edit ? (row: Row) => setEditing({ mode: 'edit', row }) : undefined,
      remove: resource.remove ? (row: Row) => setRemoving([String(row.id)]) : undefined,
      action: runRowAction,
      links: options.links,
    },
    totals: resource.totals ? query.data?.totals : undefined,
    t,
    density,
    busy: query.isPlaceholderData || query.isFetching,
    self: resource.selfField ? accountName.value : '',
    recordBase: path,
    held,
    current: rowKeys.current,
    navigable: !!keys,
  };

  const pages = Math.max(1, Math.ceil(total / state.pageSize));
  // A stale link past the last page (rows were deleted) moves back to the last real page.
  if (query.data && state.pageNum > pages && !query.isPlaceholderData)
    queueMicrotask(() => go({ ...state, pageNum: pages }, true));

  return (
    <div className="flex flex-col gap-4" data-testid="list-screen" data-resource={resource.id}>
      <ListToolbar
        resource={resource}
        exported={contractResource}
        shape={shape}
        state={state}
        params={params}
        path={path}
        cols={cols}
        total={total}
        t={t}
        density={density}
        narrow={narrow}
        go={go}
        onPageAction={(a) => runner.start(a, {})}
        csvImport={csvImport}
        onImport={() => setImporting(true)}
        onCreate={resource.create ? () => setEditing({ mode: 'create' }) : undefined}
      />

      {options.watch && (
        <NewRecordsBar
          count={options.watch}
          t={t}
          dataUpdatedAt={query.dataUpdatedAt}
          onShow={() => void query.refetch()}
        />
      )}

      <HeldApprovalsPanel
        holds={holds.holds}
        failed={holds.failed}
        resource={resource}
        t={t}
        onConfirm={holdDialogs.askConfirm}
        onDecline={holdDialogs.askDecline}
      />

      {selectedRows.length > 0 && (
        <SelectionBar
          t={t}
          count={selectedRows.length}
          pageRows={rows.length}
          total={total}
          allMatching={allMatching}
          actions={offeredBulk}
          canRemove={!!resource.remove}
          onSelectAllMatching={() => setMatchingChosen(true)}
          onAction={runBulk}
          onRemove={() => setRemoving(selectedRows.map((r) => String(r.id)))}
          onClear={clearSelection}
        />
      )}

      {query.isPending ? (
        <>
          <Loading hidden />
          <TableSkeleton columns={columns.length} density={density} />
        </>
      ) : query.isError && !query.data ? (
        <LoadFailed error={query.error} onRetry={() => void query.refetch()} testId="list-error" />
      ) : rows.length === 0 ? (
        <Empty testId="list-empty" />
      ) : narrow ? (
        <ListCards
          {...listProps}
          columns={cols.cardFields}
          onSort={(sort) => go(withChange(state, { sort }))}
          runningOn={(id) => (runner.running.size ? runningOn(runner.running, id) : '')}
        />
      ) : (
        <ListTable
          {...listProps}
          onSort={(key) => go(withChange(state, { sort: nextSort(state.sort, key, resource.defaultSort) }))}
          running={runner.running}
        />
      )}

      {keys && rows.length > 0 && (
        // Keys are for a keyboard: a phone has none, and its cards are not walked with j/k.
        <p className="text-xs text-slate-500 max-sm:hidden" data-testid="list-keys-hint">
          {t('approvals.keysHint', {
            keys: Object.entries(keys)
              .map(([key, name]) => `${key} ${actionLabel(t, name)}`)
              .join(', '),
          })}
        </p>
      )}

      {!query.isPending && !(query.isError && !query.data) && (
        <Pagination
          pageNum={state.pageNum}
          pageSize={state.pageSize}
          total={total}
          sizes={PAGE_SIZES}
          onPage={(n) => go({ ...state, pageNum: n })}
          onSize={(n) => go(withChange(state, { pageSize: n }))}
          t={t}
          density={density}
        />
      )}

      <FormDialog
        open={editing !== null}
        title={
          editing?.mode === 'edit'
            ? `${t('engine.edit')} · ${resourceTitle(t, resource.id)}: ${nameOf(editing.row)}`
            : `${t('engine.create')} · ${resourceTitle(t, resource.id)}`
        }
        anchor={editing?.mode === 'edit' ? () => rowElement(editing.row.id) : undefined}
        fields={formFields(resource, editing?.mode ?? 'create')}
        rules={resource.rules}
        initial={editing?.mode === 'edit' ? editing.row : undefined}
        submitLabel={t('engine.save')}
        keepsOldSecret={editing?.mode === 'edit'}
        onClose={() => setEditing(null)}
        onSubmit={async (values) => {
          const isEdit = editing?.mode === 'edit';
          await save.mutateAsync(isEdit ? { ...values, id: editing.row.id } : values);
          toast.success(t(isEdit ? 'engine.saved' : 'engine.created'));
          setEditing(null);
        }}
      />
      <ConfirmDialog
        open={removing !== null}
        text={removedRows.length > 0 ? deleteQuestion(t, removedRows.map(nameOf)) : ''}
        anchor={removedRows.length === 1 ? () => rowElement(removedRows[0]!.id) : undefined}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          const named = namesText(t, removedRows.map(nameOf));
          setRemoving(null);
          remove.mutate(
            removedRows.map((r) => r.id),
            {
              onSuccess: () => {
                clearSelection();
                toast.success(t('engine.deletedNamed', { name: named }));
              },
            },
          );
        }}
      />
      {csvImport && importing && (
        <ImportDialog open resource={resource} spec={csvImport} t={t} onClose={() => setImporting(false)} />
      )}
      {runner.dialogs}
      {holdDialogs.dialogs}
    </div>
  );
}
