import { memo, useLayoutEffect, useRef } from 'react';
import type { FieldDef } from '#contract';
import type { LabelT } from '../../i18n/resources/index.js';
import type { Density } from '../../ui/density.js';
import { tableStyle } from '../../ui/data-table.js';
import { fieldLabel } from '../shared/labels.js';
import { mainFieldKey, recordName } from '../record/record-summary.js';
import { RecordLink } from '../record/record-link.js';
import { HeldChip, INLINE_COMMANDS, RowCommands } from '../actions/row-commands.js';
import { moneyText, valueNode } from '../shared/value-cell.js';
import { rowCommandsOf, rowId, useListRows, type ListRowsProps, type RowItemProps } from './list-rows.js';
import { useRowWindow } from './row-window.js';
import { nextSort } from './url-state.js';

/**
 * Short values kept on one line: a number or a status broken in two doubles the row's height
 * for nothing.
 * Words (accounts, wallet addresses) may break anywhere and a time after its date, so a laptop's
 * table fits its columns rather than hiding some under the Actions column.
 */
const ONE_LINE = new Set<FieldDef['kind']>(['date', 'money', 'number', 'bytes', 'switch', 'ip']);
const NUMERIC = new Set<FieldDef['kind']>(['money', 'number', 'bytes']);

/**
 * How a cell may wrap: figures on one line; an option's label ("Official site") only between its
 * words, never inside one, not even between the characters of a Chinese or Japanese label; other
 * text anywhere, since valueNode keeps phone numbers and accounts whole itself.
 */
function wrapping(kind: FieldDef['kind']): string {
  if (ONE_LINE.has(kind)) return 'whitespace-nowrap';
  return kind === 'select' ? 'break-keep' : 'wrap-anywhere';
}

function SortHeader({
  field,
  sort,
  onSort,
  t,
}: {
  field: FieldDef;
  sort: string;
  onSort: (key: string) => void;
  t: LabelT;
}) {
  const label = fieldLabel(t, field.key);
  if (!field.sortable) return <>{label}</>;
  const dir = sort === field.key ? 'asc' : sort === `-${field.key}` ? 'desc' : null;
  return (
    <button
      type="button"
      className="inline-flex items-center gap-1 font-medium hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-primary"
      onClick={() => onSort(field.key)}
      data-sort={field.key}
    >
      {label}
      <span aria-hidden="true" className={dir ? 'text-primary' : 'text-slate-300'}>
        {dir === 'desc' ? '▼' : dir === 'asc' ? '▲' : '↕'}
      </span>
      {dir && <span className="sr-only">{t(dir === 'asc' ? 'engine.sortAsc' : 'engine.sortDesc')}</span>}
    </button>
  );
}

interface RowProps extends RowItemProps {
  columns: readonly FieldDef[];
  hasCommands: boolean;
  /** The column whose cell links to the record's page. */
  linkKey: string;
  /** Measures the drawn row's height, on a page drawn only near the view. */
  measure: ((element: HTMLTableRowElement | null) => void) | undefined;
  /** The row's place among all the table's rows (header first), told where not all are drawn. */
  ariaRowIndex: number | undefined;
}

const TableRow = memo(function TableRow(props: RowProps) {
  const { row, resource, columns, selectable, checked, hasCommands, handlers, t, density } = props;
  const { held, index, current, navigable, linkKey, measure, ariaRowIndex } = props;
  const id = rowId(row);
  const { commands, href } = rowCommandsOf(props);
  return (
    <tr
      ref={measure}
      className={`${tableStyle.row} ${current ? 'bg-primary/5' : ''}`}
      data-row-id={id}
      data-row-index={index}
      data-current={current ? '' : undefined}
      data-held={held || undefined}
      tabIndex={navigable ? -1 : undefined}
      aria-current={current ? 'true' : undefined}
      aria-rowindex={ariaRowIndex}
    >
      {selectable && (
        <td className={density.cell}>
          <input
            type="checkbox"
            className="accent-primary"
            aria-label={t('engine.selectRow', { id })}
            checked={checked}
            onChange={(e) => handlers.select(id, e.target.checked)}
          />
        </td>
      )}
      {columns.map((f) => (
        <td
          key={f.key}
          className={`${density.cell} ${NUMERIC.has(f.kind) ? 'text-right' : ''} ${f.kind === 'longtext' ? 'max-w-xs' : ''} ${wrapping(f.kind)}`}
          data-col={f.key}
        >
          {href && f.key === linkKey ? (
            <RecordLink href={href} onOpen={() => handlers.open(row)}>
              {valueNode(t, f, row[f.key])}
            </RecordLink>
          ) : (
            valueNode(t, f, row[f.key])
          )}
        </td>
      ))}
      {hasCommands && (
        <td className={`${density.cell} ${tableStyle.stickyEnd}`}>
          <HeldChip mark={held} t={t} />
          <RowCommands commands={commands} inline={INLINE_COMMANDS} t={t} name={recordName(t, resource, row)} />
        </td>
      )}
    </tr>
  );
});

/** The table of one page: sortable headers, selection, row commands and the totals row. */
export function ListTable(props: ListRowsProps) {
  const { resource, columns, rows, sort, onSort, selectable, commands, totals, t, density, busy } = props;
  const current = props.current ?? null;
  const wiring = useListRows(props);
  const hasCommands = !!(
    commands.detail ||
    commands.edit ||
    commands.remove ||
    resource.actions?.some((a) => a.target === 'row')
  );
  // A header click goes ascending, then descending, then back to the default.
  const sortBy = (key: string) => onSort(nextSort(sort, key, resource.defaultSort));
  const ariaSort = (f: FieldDef) => (sort === f.key ? 'ascending' : sort === `-${f.key}` ? 'descending' : undefined);
  // The record's name links to its page; without that column, its id.
  const main = mainFieldKey(resource);
  const linkKey = columns.some((f) => f.key === main) ? main : 'id';
  const body = useRef<HTMLTableSectionElement>(null);
  const drawn = useRowWindow(rows.length, body);
  // The row keys move to is drawn before it takes the focus.
  const { reveal } = drawn;
  useLayoutEffect(() => {
    if (current !== null && (current < drawn.first || current > drawn.last)) reveal(current);
    // Only a move of the current row asks for it; scrolling away from it afterwards is the reader's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current, reveal]);
  const span = (selectable ? 1 : 0) + columns.length + (hasCommands ? 1 : 0);

  return (
    <div className={`${tableStyle.frame} [contain:content] ${busy ? 'opacity-60' : ''}`}>
      <table
        className={`w-full text-left ${density.text}`}
        data-testid="list-table"
        aria-busy={busy || undefined}
        // Rows not drawn are still the table's: a screen reader is told how many there are.
        aria-rowcount={drawn.windowed ? rows.length + 1 + (totals ? 1 : 0) : undefined}
      >
        <thead className={tableStyle.head}>
          <tr>
            {selectable && (
              <th scope="col" className={`${density.cell} w-8`}>
                <input
                  type="checkbox"
                  className="accent-primary"
                  aria-label={t('engine.selectAll')}
                  checked={wiring.allSelected}
                  onChange={(e) => wiring.selectAll(e.target.checked)}
                />
              </th>
            )}
            {columns.map((f) => (
              <th
                key={f.key}
                scope="col"
                className={`${density.cell} ${NUMERIC.has(f.kind) ? 'text-right' : ''}`}
                aria-sort={ariaSort(f)}
              >
                <SortHeader field={f} sort={sort} onSort={sortBy} t={t} />
              </th>
            ))}
            {/* Sticky so the row's actions stay in reach when a wide table scrolls sideways. */}
            {hasCommands && (
              <th scope="col" className={`${density.cell} ${tableStyle.stickyEndHead}`}>
                {t('engine.actions')}
              </th>
            )}
          </tr>
        </thead>
        <tbody ref={body}>
          {drawn.padTop > 0 && <RowsLeftOut height={drawn.padTop} span={span} />}
          {/* Keyed by place, not by id: a new page then updates the rows' cells where they are
              instead of removing a hundred rows and building a hundred others, which was most of
              the time a page change took. Nothing in a row keeps state that belongs to its record. */}
          {rows.slice(drawn.first, drawn.last + 1).map((row, at) => {
            const index = drawn.first + at;
            return (
              <TableRow
                key={index}
                {...wiring.itemProps(row, index)}
                columns={columns}
                hasCommands={hasCommands}
                linkKey={linkKey}
                measure={drawn.measure}
                ariaRowIndex={drawn.windowed ? index + 2 : undefined}
              />
            );
          })}
          {drawn.padBottom > 0 && <RowsLeftOut height={drawn.padBottom} span={span} />}
        </tbody>
        {totals && (
          <tfoot className="border-t-2 border-slate-200 bg-slate-50 font-medium" data-testid="list-totals">
            <tr>
              {selectable && <td className={density.cell} />}
              {columns.map((f, i) => (
                <td
                  key={f.key}
                  className={`${density.cell} ${NUMERIC.has(f.kind) ? 'text-right tabular-nums' : ''}`}
                  data-total={f.key in totals ? f.key : undefined}
                >
                  {f.key in totals ? moneyText(totals[f.key]) : i === 0 ? t('engine.total') : ''}
                </td>
              ))}
              {hasCommands && <td className={density.cell} />}
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}

/** Holds the place of the rows not drawn, so the page is as tall and scrolls as if they were. */
function RowsLeftOut({ height, span }: { height: number; span: number }) {
  return (
    <tr aria-hidden="true" data-rows-left-out="" style={{ height }}>
      <td colSpan={span} className="p-0" />
    </tr>
  );
}

export function TableSkeleton({ columns, density }: { columns: number; density: Density }) {
  return (
    <div
      className="overflow-hidden rounded-md border border-slate-200 bg-white"
      aria-hidden="true"
      data-testid="list-skeleton"
    >
      {Array.from({ length: 8 }, (_, r) => (
        <div key={r} className={`flex gap-4 border-t border-slate-100 first:border-t-0 ${density.cell}`}>
          {Array.from({ length: Math.max(3, Math.min(columns, 8)) }, (_, c) => (
            <div key={c} className="h-4 flex-1 animate-pulse rounded bg-slate-200" />
          ))}
        </div>
      ))}
    </div>
  );
}
