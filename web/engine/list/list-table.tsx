import { memo, useLayoutEffect, useRef } from 'react';
import type { FieldDef, ListResource } from '#contract';
import type { LabelT } from '../../i18n/resources/index.js';
import type { Density } from '../../ui/density.js';
import { tableStyle } from '../../ui/data-table.js';
import { fieldLabel } from '../shared/labels.js';
import { mainFieldKey, recordName } from '../record/record-summary.js';
import { recordPath } from '../../lib/record-nav.js';
import { RecordLink } from '../record/record-link.js';
import {
  buildRowCommands,
  HeldChip,
  INLINE_COMMANDS,
  RowCommands,
  useStableRowHandlers,
  type ScreenRowCommands,
  type StableRowHandlers,
  type OfferedCommands,
} from '../actions/row-commands.js';
import type { Row } from '../shared/queries.js';
import { moneyText, valueNode } from '../shared/value-cell.js';
import { useRowWindow } from './row-window.js';

export type { ScreenRowCommands as RowCommands } from '../actions/row-commands.js';

interface Props {
  resource: ListResource;
  columns: readonly FieldDef[];
  rows: readonly Row[];
  sort: string;
  onSort: (key: string) => void;
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

const rowId = (row: Row) => String(row.id);

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

/** The action names of `running` (keys `name:id`) whose call is about this one row. */
export function runningOn(running: ReadonlySet<string>, id: string): string {
  const names: string[] = [];
  for (const key of running) {
    const at = key.lastIndexOf(':');
    if (key.slice(at + 1) === id) names.push(key.slice(0, at));
  }
  return names.join(',');
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

interface RowProps {
  row: Row;
  resource: ListResource;
  columns: readonly FieldDef[];
  selectable: boolean;
  checked: boolean;
  hasCommands: boolean;
  has: OfferedCommands;
  commands: StableRowHandlers;
  t: LabelT;
  density: Density;
  /** Names of this row's actions whose call is under way, joined (a string keeps the memo cheap). */
  runningNames: string;
  self: string;
  recordBase: string;
  /** The column whose cell links to the record's page. */
  linkKey: string;
  held: string;
  index: number;
  current: boolean;
  navigable: boolean;
  /** Measures the drawn row's height, on a page drawn only near the view. */
  measure: ((element: HTMLTableRowElement | null) => void) | undefined;
  /** The row's place among all the table's rows (header first), told where not all are drawn. */
  ariaRowIndex: number | undefined;
}

const TableRow = memo(function TableRow({
  row,
  resource,
  columns,
  selectable,
  checked,
  hasCommands,
  has,
  commands,
  t,
  density,
  runningNames,
  self,
  recordBase,
  linkKey,
  held,
  index,
  current,
  navigable,
  measure,
  ariaRowIndex,
}: RowProps) {
  const id = rowId(row);
  const href = recordBase ? recordPath(recordBase, row.id) : null;
  const waiting = runningNames ? runningNames.split(',') : [];
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
            onChange={(e) => commands.select(id, e.target.checked)}
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
            <RecordLink href={href} onOpen={() => commands.open(row)}>
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
          <RowCommands
            commands={buildRowCommands(resource, row, has, commands, t, waiting, self, held)}
            inline={INLINE_COMMANDS}
            t={t}
            name={recordName(t, resource, row)}
          />
        </td>
      )}
    </tr>
  );
});

/** The table of one page: sortable headers, selection, row commands and the totals row. */
export function ListTable({
  resource,
  columns,
  rows,
  sort,
  onSort,
  selectable,
  selected,
  onSelect,
  commands,
  totals,
  t,
  density,
  busy,
  running,
  self = '',
  recordBase = '',
  held,
  current = null,
  navigable = false,
}: Props) {
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(rowId(r)));
  const hasCommands = !!(
    commands.detail ||
    commands.edit ||
    commands.remove ||
    resource.actions?.some((a) => a.target === 'row')
  );
  const ariaSort = (f: FieldDef) => (sort === f.key ? 'ascending' : sort === `-${f.key}` ? 'descending' : undefined);
  const { handlers: stable, has } = useStableRowHandlers(commands, onSelect);
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
                  checked={allSelected}
                  onChange={(e) => onSelect(rows.map(rowId), e.target.checked)}
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
                <SortHeader field={f} sort={sort} onSort={onSort} t={t} />
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
            const id = rowId(row);
            return (
              <TableRow
                key={index}
                row={row}
                resource={resource}
                columns={columns}
                selectable={selectable}
                checked={selected.has(id)}
                hasCommands={hasCommands}
                has={has}
                commands={stable}
                t={t}
                density={density}
                runningNames={running?.size ? runningOn(running, id) : ''}
                self={self}
                recordBase={recordBase}
                linkKey={linkKey}
                held={held?.get(id) ?? ''}
                index={index}
                current={current === index}
                navigable={navigable}
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
