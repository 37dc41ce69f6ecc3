import { formFields, type ListResource } from '#contract';
import { ConfirmDialog } from '../../ui/confirm-dialog.js';
import { FormDialog } from '../form/form-dialog.js';
import { ImportDialog } from '../import/import-dialog.js';
import { deleteQuestion } from '../record/record-names.js';
import { actionLabel, fieldLabel, resourceTitle } from '../shared/labels.js';
import { Empty, LoadFailed, Loading } from '../shared/states.js';
import type { ListScreenOptions } from '../shared/types.js';
import { ListCards } from './list-cards.js';
import { ListTable, TableSkeleton } from './list-table.js';
import { ListToolbar } from './list-toolbar.js';
import { NewRecordsBar } from './new-records-bar.js';
import { Pagination } from './pagination.js';
import { SelectionBar } from './selection-bar.js';
import { PAGE_SIZES, withChange } from './url-state.js';
import { useListController, type ListController } from './use-list-controller.js';

/**
 * A management list: server-side paging, sorting and filters kept in the URL, actions, forms, CSV.
 * What it does is the controller's; this only draws what the controller returns.
 */
export function ListScreen({ resource, options = {} }: { resource: ListResource; options?: ListScreenOptions }) {
  const c = useListController(resource, options);
  const { state, query, rows, total, t, density, selection, keys } = c;
  const failed = query.isError && !query.data;

  return (
    <div className="flex flex-col gap-4" data-testid="list-screen" data-resource={c.resource.id}>
      <ListToolbar
        resource={c.resource}
        exported={c.contractResource}
        shape={c.shape}
        state={state}
        params={c.params}
        path={c.path}
        cols={c.cols}
        total={total}
        t={t}
        density={density}
        narrow={c.narrow}
        listed={!c.unlisted}
        go={c.go}
        onPageAction={(a) => c.runner.start(a, {})}
        csvImport={c.csvImport}
        onImport={c.dialogs.startImport}
        onCreate={c.dialogs.startCreate}
      />

      {c.watch && (
        <NewRecordsBar count={c.watch} t={t} dataUpdatedAt={query.dataUpdatedAt} onShow={() => void query.refetch()} />
      )}

      {c.holds.panel}

      {selection.selectedRows.length > 0 && (
        <SelectionBar
          t={t}
          count={selection.selectedRows.length}
          pageRows={rows.length}
          total={total}
          allMatching={selection.allMatching}
          actions={selection.offeredBulk}
          canRemove={!!c.resource.remove}
          onSelectAllMatching={selection.chooseAllMatching}
          onAction={selection.runBulk}
          onRemove={selection.remove}
          onClear={selection.clear}
        />
      )}

      {c.unlisted ? (
        <Empty testId="list-unlisted">{t('engine.notListed')}</Empty>
      ) : c.needed.length > 0 ? (
        <Empty testId="list-needs-filter">
          {t('engine.needsFilter', { fields: c.needed.map((key) => fieldLabel(t, key)).join(', ') })}
        </Empty>
      ) : query.isPending ? (
        <>
          <Loading hidden />
          <TableSkeleton columns={c.rowsProps.columns.length} density={density} />
        </>
      ) : failed ? (
        <LoadFailed error={query.error} onRetry={() => void query.refetch()} testId="list-error" />
      ) : rows.length === 0 ? (
        <Empty testId="list-empty" />
      ) : c.narrow ? (
        <ListCards {...c.rowsProps} columns={c.cols.cardFields} />
      ) : (
        <ListTable {...c.rowsProps} />
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

      {!query.isPending && !failed && (
        <Pagination
          pageNum={state.pageNum}
          pageSize={state.pageSize}
          total={total}
          sizes={PAGE_SIZES}
          onPage={(n) => c.go({ ...state, pageNum: n })}
          onSize={(n) => c.go(withChange(state, { pageSize: n }))}
          t={t}
          density={density}
        />
      )}

      <ListDialogsView c={c} />
      {c.runner.dialogs}
      {c.holds.dialogs}
    </div>
  );
}

/** The list's create or edit form, its delete confirmation and its CSV import. */
function ListDialogsView({ c }: { c: ListController }) {
  const { resource, t, dialogs, csvImport } = c;
  const { editing, removedRows, nameOf, rowElement } = dialogs;
  return (
    <>
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
        onClose={dialogs.closeEditor}
        onSubmit={dialogs.submitEdit}
      />
      <ConfirmDialog
        open={dialogs.removing}
        text={removedRows.length > 0 ? deleteQuestion(t, removedRows.map(nameOf)) : ''}
        anchor={removedRows.length === 1 ? () => rowElement(removedRows[0]!.id) : undefined}
        onCancel={dialogs.closeRemove}
        onConfirm={dialogs.confirmRemove}
      />
      {csvImport && dialogs.importing && (
        <ImportDialog open resource={resource} spec={csvImport} t={t} onClose={dialogs.closeImport} />
      )}
    </>
  );
}
