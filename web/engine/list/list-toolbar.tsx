import { useId, useState } from 'react';
import type { ActionDef, ListResource } from '#contract';
import type { Query } from '../../api/client.js';
import type { LabelT } from '../../i18n/resources/index.js';
import type { Density } from '../../ui/density.js';
import { toast } from '../../lib/toast.js';
import { pageActions } from '../actions/actions.js';
import type { ImportSpec } from '../import/import-rows.js';
import { exportListCsv } from '../shared/export-csv.js';
import { actionLabel } from '../shared/labels.js';
import { ColumnChooser, type ListColumns } from './column-chooser.js';
import { ListFilters } from './list-filters.js';
import { SavedViews } from './saved-views-menu.js';
import { filterFields, isRangeFilter, withChange, type ListState } from './url-state.js';

interface Props {
  /** The resource as the screen shows it (with an annotation's column). */
  resource: ListResource;
  /** The backend's own resource: an annotation is not in the rows the gateway exports. */
  exported: ListResource;
  /** The resource as the address reads it, with the filters the screen opens on. */
  shape: ListResource & { defaultFilters?: Readonly<Record<string, string>> };
  state: ListState;
  /** The list's query as the gateway takes it, for the export. */
  params: Query;
  path: string;
  cols: ListColumns;
  total: number;
  t: LabelT;
  density: Density;
  narrow: boolean;
  /** False where the backend keeps no list of these: only the page's own actions are offered. */
  listed?: boolean;
  go: (next: ListState, replace?: boolean) => void;
  onPageAction: (action: ActionDef) => void;
  csvImport: ImportSpec | null;
  onImport: () => void;
  /** Absent when the resource cannot be created. */
  onCreate?: (() => void) | undefined;
}

/**
 * What sits above a list: its search and filters (folded behind one button on a phone, so the first
 * screen shows records), saved views, columns, the page's own actions, import, export and "new".
 */
export function ListToolbar({
  resource,
  exported,
  shape,
  state,
  params,
  path,
  cols,
  total,
  t,
  density,
  narrow,
  listed = true,
  go,
  onPageAction,
  csvImport,
  onImport,
  onCreate,
}: Props) {
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();
  const [exporting, setExporting] = useState<number | null>(null);

  const startExport = async () => {
    setExporting(0);
    try {
      const { count, capped } = await exportListCsv(exported, params, t, setExporting);
      toast.success(t('engine.exported', { count }));
      if (capped) toast.warning(t('engine.exportCapped', { count }));
    } catch {
      // The API client has already told the user what went wrong.
    } finally {
      setExporting(null);
    }
  };

  // Filters the screen opens with (the queue's pending) are not the reader's own: not counted.
  const chosen = (key: string) => !!state.filters[key] && state.filters[key] !== shape.defaultFilters?.[key];
  const activeFilters =
    (state.keyword ? 1 : 0) +
    filterFields(resource).filter((f) =>
      isRangeFilter(f) ? chosen(`${f.key}From`) || chosen(`${f.key}To`) : chosen(f.key),
    ).length;
  const filters = (
    <ListFilters
      resource={shape}
      state={state}
      t={t}
      density={density}
      onChange={(change) => go(withChange(state, change), change.keyword !== undefined && change.filters === undefined)}
    />
  );

  if (!listed)
    return (
      <div className="flex flex-wrap justify-end gap-2">
        {pageActions(resource).map((a) => (
          <button key={a.name} type="button" className="btn" onClick={() => onPageAction(a)} data-action={a.name}>
            {actionLabel(t, a.name)}
          </button>
        ))}
      </div>
    );

  return (
    <>
      <div className={`flex flex-wrap items-end ${narrow ? 'gap-2' : 'gap-3'}`}>
        {narrow ? (
          <button
            type="button"
            className={`btn ${activeFilters > 0 ? 'border-primary text-primary' : ''}`}
            aria-expanded={filtersOpen}
            aria-controls={filtersId}
            onClick={() => setFiltersOpen((open) => !open)}
            data-testid="filters-toggle"
          >
            {activeFilters > 0 ? t('engine.filtersActive', { count: activeFilters }) : t('engine.filters')}
          </button>
        ) : (
          filters
        )}
        {/* On a phone the toolbar's buttons flow on with the filters' one, in as few lines as fit. */}
        <div className={narrow ? 'contents' : 'ml-auto flex flex-wrap gap-2'}>
          <SavedViews resource={shape} state={state} path={path} columns={cols} t={t} />
          <ColumnChooser columns={cols} t={t} />
          {pageActions(resource).map((a) => (
            <button key={a.name} type="button" className="btn" onClick={() => onPageAction(a)} data-action={a.name}>
              {actionLabel(t, a.name)}
            </button>
          ))}
          {csvImport && (
            <button type="button" className="btn" onClick={onImport} data-testid="list-import">
              {csvImport.action
                ? t('import.buttonAction', { action: actionLabel(t, csvImport.action.name) })
                : t('import.button')}
            </button>
          )}
          <button
            type="button"
            className="btn"
            disabled={exporting !== null || total === 0}
            onClick={() => void startExport()}
          >
            {exporting !== null ? t('engine.exporting', { count: exporting }) : t('engine.exportCsv')}
          </button>
          {onCreate && (
            <button type="button" className="btn btn-primary" onClick={onCreate} data-testid="list-create">
              {t('engine.create')}
            </button>
          )}
        </div>
      </div>

      {narrow && filtersOpen && (
        <div id={filtersId} className="rounded-md border border-slate-200 bg-white p-3" data-testid="filters-panel">
          {filters}
        </div>
      )}
    </>
  );
}
