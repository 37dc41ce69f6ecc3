import { memo, useMemo } from 'react';
import type { FieldDef, ListResource } from '#contract';
import { fieldLabel } from '../shared/labels.js';
import type { Row } from '../shared/queries.js';
import { mainFieldKey, recordName } from '../record/record-summary.js';
import { RecordLink } from '../record/record-link.js';
import { HeldChip, RowCommands } from '../actions/row-commands.js';
import { moneyText, ValueView, valueText } from '../shared/value-cell.js';
import { rowCommandsOf, rowId, useListRows, type ListRowsProps, type RowItemProps } from './list-rows.js';

const STATUS_KEYS = ['status', 'state'];

/** Which column heads a card (the record's name), which one is its status badge, and the rest. */
export function cardLayout(resource: ListResource, columns: readonly FieldDef[]) {
  const mainKey = mainFieldKey(resource);
  const main = columns.find((f) => f.key === mainKey) ?? columns[0];
  const status = columns.find((f) => STATUS_KEYS.includes(f.key) && f.kind === 'select' && f !== main);
  const rest = columns.filter((f) => f !== main && f !== status);
  return { main, status, rest };
}

interface CardProps extends RowItemProps {
  layout: ReturnType<typeof cardLayout>;
}

/** A fact too long for half a phone's width takes the card's whole width rather than breaking. */
const HALF_WIDTH_CHARS = 16;

/**
 * Whether a field is one of the card's facts for this row: a value to read (an empty one says
 * nothing on a card), and not the record's number, which the phone reader never acts on.
 */
const isFact = (f: FieldDef, row: Row) =>
  !(f.key === 'id' && f.identifier) && row[f.key] !== null && row[f.key] !== undefined && row[f.key] !== '';

const Card = memo(function Card(props: CardProps) {
  const { row, resource, layout, selectable, checked, handlers, t, density, held, index, current, navigable } = props;
  const id = rowId(row);
  const { main, status, rest } = layout;
  const { commands, href } = rowCommandsOf(props);
  // The actions that move money are what a reviewer is here for: buttons of their own, in reach
  // of a thumb. The rest wait behind "⋯".
  const money = commands.filter(
    (c) => c.action !== undefined && resource.actions?.some((a) => a.name === c.action && a.money),
  );
  const others = commands.filter((c) => !money.includes(c));
  const facts = rest.filter((f) => isFact(f, row));
  const name = recordName(t, resource, row);
  return (
    <li
      className={`rounded-md border bg-white focus:outline-2 focus:outline-primary ${current ? 'border-primary' : 'border-slate-200'} ${density.cell}`}
      data-row-id={id}
      data-row-index={index}
      data-current={current ? '' : undefined}
      data-held={held || undefined}
      tabIndex={navigable ? -1 : undefined}
      data-testid="list-card"
    >
      <HeldChip mark={held} t={t} />
      <div className="flex items-start gap-2">
        {selectable && (
          <input
            type="checkbox"
            className="mt-1 h-4 w-4 accent-primary"
            aria-label={t('engine.selectRow', { id })}
            checked={checked}
            onChange={(e) => handlers.select(id, e.target.checked)}
          />
        )}
        <div className="min-w-0 flex-1 font-medium break-words text-slate-900" data-main-field={main?.key}>
          {href ? (
            <RecordLink href={href} onOpen={() => handlers.open(row)}>
              {main ? <ValueView t={t} field={main} value={row[main.key]} /> : `#${id}`}
            </RecordLink>
          ) : main ? (
            <ValueView t={t} field={main} value={row[main.key]} />
          ) : (
            `#${id}`
          )}
        </div>
        {status && (
          <span className="shrink-0 text-sm text-slate-600" data-col={status.key}>
            <ValueView t={t} field={status} value={row[status.key]} />
          </span>
        )}
        {others.length > 0 && <RowCommands commands={others} inline={0} t={t} name={name} />}
      </div>
      {facts.length > 0 && (
        <dl className="mt-1.5 grid grid-cols-2 gap-x-3 gap-y-0.5 text-sm">
          {facts.map((f) => (
            <div
              key={f.key}
              className={`flex min-w-0 items-baseline gap-1.5 ${valueText(t, f, row[f.key]).length > HALF_WIDTH_CHARS ? 'col-span-2' : ''}`}
            >
              <dt className="shrink-0 text-xs text-slate-500">{fieldLabel(t, f.key)}</dt>
              <dd
                className={`min-w-0 text-slate-800 wrap-anywhere ${f.kind === 'money' ? 'font-semibold' : ''}`}
                data-col={f.key}
              >
                <ValueView t={t} field={f} value={row[f.key]} />
              </dd>
            </div>
          ))}
        </dl>
      )}
      {money.length > 0 && (
        <div className="mt-2 flex gap-2" data-testid="card-money-actions">
          {money.map((c) => (
            <button
              key={c.key}
              type="button"
              className={`btn min-h-9 flex-1 justify-center ${c.danger ? 'border-red-300 text-red-700 hover:bg-red-50' : 'btn-primary'}`}
              onClick={c.onClick}
              disabled={c.busy || !!c.refused}
              aria-busy={c.busy || undefined}
              aria-label={`${c.label}: ${name}`}
              title={c.refused}
              data-action={c.action}
              data-command={c.key}
            >
              {c.label}
            </button>
          ))}
        </div>
      )}
    </li>
  );
});

/**
 * A phone's list: one card per row (its name, status and the facts it has), the money actions as
 * buttons and the other commands behind "⋯", sorting by a select.
 */
export function ListCards(props: ListRowsProps) {
  const { resource, columns, rows, sort, onSort, selectable, totals, t, density, busy } = props;
  const layout = useMemo(() => cardLayout(resource, columns), [resource, columns]);
  const wiring = useListRows(props);
  const sortable = columns.filter((f) => f.sortable);

  return (
    <div
      className={`flex flex-col gap-2 transition-opacity ${busy ? 'opacity-60' : ''}`}
      data-testid="list-cards"
      aria-busy={busy || undefined}
    >
      {(selectable || sortable.length > 0) && (
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
          {selectable && (
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                className="h-4 w-4 accent-primary"
                checked={wiring.allSelected}
                onChange={(e) => wiring.selectAll(e.target.checked)}
              />
              {t('engine.selectAll')}
            </label>
          )}
          {sortable.length > 0 && (
            <label className="ml-auto flex items-center gap-2">
              {t('engine.sortBy')}
              <select
                className={`rounded-md border border-slate-300 bg-white ${density.input}`}
                value={sort}
                onChange={(e) => onSort(e.target.value)}
                data-testid="card-sort"
              >
                {!sortable.some((f) => sort === f.key || sort === `-${f.key}`) && <option value={sort}>—</option>}
                {sortable.flatMap((f) => [
                  <option key={`-${f.key}`} value={`-${f.key}`}>
                    {fieldLabel(t, f.key)} ▼
                  </option>,
                  <option key={f.key} value={f.key}>
                    {fieldLabel(t, f.key)} ▲
                  </option>,
                ])}
              </select>
            </label>
          )}
        </div>
      )}
      <ul className="flex flex-col gap-2">
        {rows.map((row, index) => (
          <Card key={rowId(row)} {...wiring.itemProps(row, index)} layout={layout} />
        ))}
      </ul>
      {totals && (
        <dl
          className="grid grid-cols-[auto_1fr] gap-x-3 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm font-medium"
          data-testid="list-totals"
        >
          {Object.entries(totals).map(([key, value]) => (
            <div key={key} className="contents">
              <dt>
                {t('engine.total')} · {fieldLabel(t, key)}
              </dt>
              <dd className="text-right tabular-nums" data-total={key}>
                {moneyText(value)}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
