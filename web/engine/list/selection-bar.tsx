import type { ActionDef } from '#contract';
import type { LabelT } from '../../i18n/resources/index.js';
import { actionLabel } from '../shared/labels.js';

export interface SelectionBarProps {
  t: LabelT;
  /** Rows selected on the page on screen. */
  count: number;
  /** Rows on the page on screen. */
  pageRows: number;
  /** Records matching the list's filters, over every page. */
  total: number;
  /** Every matching record is chosen, not only the page's rows. */
  allMatching: boolean;
  actions: readonly ActionDef[];
  /** Delete is offered (never over all matching records: that many deletes deserve more than a click). */
  canRemove: boolean;
  onSelectAllMatching: () => void;
  onAction: (action: ActionDef) => void;
  onRemove: () => void;
  onClear: () => void;
}

/**
 * What the selected rows can be given, over the list. With the whole page selected and more
 * records matching beyond it, it offers to take every one of them (Gmail style).
 */
export function SelectionBar(p: SelectionBarProps) {
  const { t } = p;
  const wholePage = p.count === p.pageRows && p.pageRows > 0;
  const label = p.allMatching
    ? t('engine.allMatchingSelected', { count: p.total })
    : t('engine.selected', { count: p.count });
  return (
    <div
      className="flex flex-wrap items-center gap-2 rounded-md border border-primary/30 bg-primary/5 px-3 py-2 text-sm"
      role="region"
      aria-label={label}
      data-testid="selection-bar"
    >
      <span data-testid="selection-count" data-all-matching={p.allMatching || undefined}>
        {label}
      </span>
      {wholePage && !p.allMatching && p.total > p.pageRows && (
        <button
          type="button"
          className="rounded px-1 font-medium text-primary underline underline-offset-2 hover:no-underline"
          onClick={p.onSelectAllMatching}
          data-testid="select-all-matching"
        >
          {t('engine.selectAllMatching', { count: p.total })}
        </button>
      )}
      {p.actions.map((a) => (
        <button
          key={a.name}
          type="button"
          className={`btn ${a.destructive ? 'btn-danger' : ''}`}
          onClick={() => p.onAction(a)}
          data-bulk-action={a.name}
        >
          {actionLabel(t, a.name)}
        </button>
      ))}
      {p.canRemove && !p.allMatching && (
        <button type="button" className="btn btn-danger" onClick={p.onRemove}>
          {t('engine.deleteSelected')}
        </button>
      )}
      <button type="button" className="btn ml-auto" onClick={p.onClear}>
        {t('engine.clearSelection')}
      </button>
    </div>
  );
}
