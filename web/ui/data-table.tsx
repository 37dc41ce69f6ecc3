import type { HTMLAttributes, ReactNode } from 'react';
import { useDensity } from './density.js';
import { useNarrow } from './use-narrow.js';

/*
 * The one table of the console: the engine's lists and the hand-made pages (service monitor, error
 * log) draw their frame, header, rows and sticky last column with these, so every table looks,
 * scrolls and takes the keyboard focus alike. On a phone a table becomes cards (`DataView`), drawn
 * instead of the table rather than beside it hidden by CSS.
 */
export const tableStyle = {
  /** Scrolls sideways on its own, so a wide table never widens the page. */
  frame: 'overflow-x-auto rounded-md border border-slate-200 bg-white',
  head: 'bg-slate-100 text-slate-600',
  /** A row takes the focus (keyboard work on a list) with the same ring everywhere. */
  row: 'border-t border-slate-100 align-top hover:bg-slate-50 focus:outline-2 focus:-outline-offset-2 focus:outline-primary',
  /** The last column (a row's commands) stays in reach when a wide table scrolls sideways. */
  stickyEnd: 'sticky right-0 whitespace-nowrap bg-white shadow-[-4px_0_4px_-4px_rgba(0,0,0,0.15)]',
  stickyEndHead: 'sticky right-0 whitespace-nowrap bg-slate-100 shadow-[-4px_0_4px_-4px_rgba(0,0,0,0.15)]',
  /** Figures line up on the right and keep their digits' width. */
  numeric: 'text-right tabular-nums',
} as const;

/** How a cell's text may wrap: figures never, prose between words, long tokens (addresses) anywhere. */
export type Wrap = 'none' | 'words' | 'anywhere';
const WRAP: Record<Wrap, string> = { none: 'whitespace-nowrap', words: 'break-words', anywhere: 'wrap-anywhere' };

export interface DataColumn<T> {
  key: string;
  header: ReactNode;
  /** Read by screen readers only (a column of buttons needs a name, not a visible heading). */
  headerHidden?: boolean;
  cell: (row: T) => ReactNode;
  numeric?: boolean;
  wrap?: Wrap;
  /** The column that names the row: its cell is the row's header, and the card's title on a phone. */
  rowHeader?: boolean;
  /** The row's commands: the sticky last column, and the foot of the card. */
  commands?: boolean;
  /** Left out of the phone's card (shown there some other way, or not needed on a phone). */
  noCard?: boolean;
  className?: string;
}

interface TableProps<T> {
  columns: readonly DataColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => string;
  /** What the row's element carries besides its look: data attributes for tests, tabIndex for keys. */
  rowProps?: (row: T) => HTMLAttributes<HTMLElement> & Record<`data-${string}`, string | undefined>;
  /** Shown under the row's cells, across the table (a row's details). */
  below?: (row: T) => ReactNode;
  testId?: string;
  /** An accessible name when the page has several tables. */
  label?: string;
}

function cellClass<T>(c: DataColumn<T>, cell: string) {
  return [
    cell,
    c.numeric ? tableStyle.numeric : '',
    c.wrap ? WRAP[c.wrap] : '',
    c.commands ? tableStyle.stickyEnd : '',
    c.className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** The wide-screen form: a header row of column headers, and each row named by its row header. */
export function DataTable<T>({ columns, rows, rowKey, rowProps, below, testId, label }: TableProps<T>) {
  // The reader's density, as the lists have it.
  const density = useDensity();
  const detailsAt = detailsColumn(columns);
  return (
    <div className={tableStyle.frame}>
      <table className={`w-full text-left ${density.text}`} data-testid={testId} aria-label={label}>
        <thead className={tableStyle.head}>
          <tr>
            {columns.map((c) => (
              <th
                key={c.key}
                scope="col"
                className={[density.cell, c.numeric ? 'text-right' : '', c.commands ? tableStyle.stickyEndHead : '']
                  .filter(Boolean)
                  .join(' ')}
              >
                {c.headerHidden ? <span className="sr-only">{c.header}</span> : c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const extra = below?.(row);
            return (
              <tr key={rowKey(row, index)} className={tableStyle.row} {...rowProps?.(row)}>
                {columns.map((c, i) =>
                  c.rowHeader ? (
                    <th
                      key={c.key}
                      scope="row"
                      className={`${cellClass(c, density.cell)} font-medium text-slate-800`}
                      data-col={c.key}
                    >
                      {c.cell(row)}
                    </th>
                  ) : (
                    <td key={c.key} className={cellClass(c, density.cell)} data-col={c.key}>
                      {c.cell(row)}
                      {/* Details open inside the row's widest text column, so the row stays one row for readers. */}
                      {extra && i === detailsAt ? extra : null}
                    </td>
                  ),
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Where a row's details go: the first column that wraps between words (its prose), else the first. */
function detailsColumn<T>(columns: readonly DataColumn<T>[]): number {
  const at = columns.findIndex((c) => c.wrap === 'words' && !c.rowHeader);
  return at >= 0 ? at : columns.findIndex((c) => !c.rowHeader);
}

/**
 * The phone form: one card a row, its title the row header, the other columns as label and value,
 * its commands across the foot, nothing past the screen's edge.
 */
export function DataCards<T>({ columns, rows, rowKey, rowProps, below, testId, label }: TableProps<T>) {
  const title = columns.find((c) => c.rowHeader);
  const fields = columns.filter((c) => !c.rowHeader && !c.commands && !c.noCard);
  const commands = columns.filter((c) => c.commands);
  const density = useDensity();
  return (
    <ul className="flex flex-col gap-2" data-testid={testId} aria-label={label}>
      {rows.map((row, index) => (
        <li
          key={rowKey(row, index)}
          className={`rounded-md border border-slate-200 bg-white p-3 ${density.text} focus:outline-2 focus:outline-primary`}
          {...rowProps?.(row)}
        >
          {title && (
            <p className="font-medium break-words text-slate-900" data-col={title.key}>
              {title.cell(row)}
            </p>
          )}
          <dl className="mt-1 grid gap-y-1">
            {fields.map((c) => (
              // Prose gets the card's whole width under its label: beside it, a word would have to break.
              <div key={c.key} className={c.wrap === 'words' ? 'min-w-0' : 'flex min-w-0 items-baseline gap-2'}>
                <dt className="shrink-0 text-xs text-slate-500">{c.header}</dt>
                <dd
                  className={`min-w-0 text-slate-800 ${c.wrap ? WRAP[c.wrap] : 'wrap-anywhere'} ${c.numeric ? 'tabular-nums' : ''}`}
                  data-col={c.key}
                >
                  {c.cell(row)}
                </dd>
              </div>
            ))}
          </dl>
          {below?.(row)}
          {commands.map((c) => (
            <div key={c.key} className="mt-2 flex gap-2 [&>.btn]:flex-1 [&>.btn]:justify-center">
              {c.cell(row)}
            </div>
          ))}
        </li>
      ))}
    </ul>
  );
}

/** The table on a wide screen, its cards on a phone: one drawn, never both. */
export function DataView<T>(props: TableProps<T> & { cardsTestId?: string }) {
  const narrow = useNarrow();
  const { cardsTestId, ...rest } = props;
  return narrow ? <DataCards {...rest} testId={cardsTestId ?? rest.testId} /> : <DataTable {...rest} />;
}
