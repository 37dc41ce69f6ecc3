import { useMemo, useRef } from 'react';
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import type { Signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import type { FieldDef, ListResource } from '#contract';
import type { LabelT } from '../../i18n/resources/index.js';
import { persistedSignal } from '../../lib/persisted.js';
import {
  choiceFromVisible,
  columnFields,
  currentChoice,
  isColumnChoice,
  isDefaultChoice,
  isDefaultColumns,
  moveColumn,
  resolveChoice,
  toggleColumn,
  visibleOf,
  type ColumnChoice,
} from './column-choice.js';
import { fieldLabel } from '../shared/labels.js';
import { mainFieldKey } from '../record/record-summary.js';
import type { ListState } from './url-state.js';

const prefs = new Map<string, Signal<ColumnChoice | null>>();
const isStoredChoice = (v: unknown): v is ColumnChoice | null => v === null || isColumnChoice(v);

/** This browser's column choice for one resource, `null` for the default; made on first use. */
export function columnPref(resourceId: string): Signal<ColumnChoice | null> {
  let pref = prefs.get(resourceId);
  if (!pref) {
    pref = persistedSignal(`columns.${resourceId}`, null, isStoredChoice);
    prefs.set(resourceId, pref);
  }
  return pref;
}

export interface ListColumns {
  /** The columns to draw, in order. */
  fields: FieldDef[];
  /** A phone card's fields: the visible ones, and its heading (the record's name) even when hidden. */
  cardFields: FieldDef[];
  visible: string[];
  choice: ColumnChoice;
  all: string[];
  /** Keeps a new choice in this browser and in the URL; `null` goes back to the default. */
  change: (choice: ColumnChoice | null) => void;
  /** Makes a state's columns (a saved view's) this browser's choice too, then shows the state. */
  apply: (state: ListState) => void;
}

/**
 * The columns a list shows: the URL's `cols` when a link names them, otherwise this browser's
 * choice. A change is written to both, so the address bar always shares what is on screen.
 */
export function useListColumns(
  resource: ListResource,
  state: ListState,
  go: (next: ListState, replace?: boolean) => void,
): ListColumns {
  useSignals();
  const pref = columnPref(resource.id);
  const stored = pref.value;
  const all = useMemo(() => columnFields(resource), [resource]);
  const keys = useMemo(() => all.map((f) => f.key), [all]);
  const choice = useMemo(() => currentChoice(keys, state.columns, stored), [keys, state.columns, stored]);
  const fields = useMemo(() => visibleOf(choice).map((k) => all.find((f) => f.key === k)!), [choice, all]);
  const cardFields = useMemo(() => {
    const main = all.find((f) => f.key === mainFieldKey(resource));
    return main && !fields.includes(main) ? [main, ...fields] : fields;
  }, [all, fields, resource]);
  const urlColumns = (visible: string[]) => (isDefaultColumns(keys, visible) ? undefined : visible);
  return {
    fields,
    cardFields,
    visible: fields.map((f) => f.key),
    choice,
    all: keys,
    change: (next) => {
      const whole = next && resolveChoice(keys, next);
      pref.value = whole && isDefaultChoice(keys, whole) ? null : whole;
      go({ ...state, columns: whole ? urlColumns(visibleOf(whole)) : undefined }, true);
    },
    apply: (next) => {
      pref.value = next.columns ? choiceFromVisible(keys, next.columns) : null;
      go({ ...next, columns: next.columns && urlColumns(next.columns) });
    },
  };
}

/** Show, hide and reorder a list's columns; every control a plain button or checkbox, so keys work. */
export function ColumnChooser({ columns, t }: { columns: ListColumns; t: LabelT }) {
  const { choice, change } = columns;
  const panel = useRef<HTMLDivElement>(null);
  const shown = visibleOf(choice).length;
  const move = (key: string, by: -1 | 1) => {
    change(moveColumn(choice, key, by));
    // The moved row is re-inserted and loses focus; put it back on its button, or the other one at an end.
    requestAnimationFrame(() => {
      const find = (dir: string) =>
        panel.current?.querySelector<HTMLButtonElement>(`[data-move="${dir}"][data-key="${key}"]:not(:disabled)`);
      (find(by < 0 ? 'up' : 'down') ?? find(by < 0 ? 'down' : 'up'))?.focus();
    });
  };
  const arrow = 'btn h-7 w-7 justify-center px-0 py-0 text-xs';
  return (
    <Popover>
      <PopoverButton className="btn" data-testid="columns-button">
        {t('engine.columns')}
        {shown < choice.order.length && (
          <span className="ml-1 text-slate-500">{`${shown}/${choice.order.length}`}</span>
        )}
      </PopoverButton>
      <PopoverPanel
        ref={panel}
        anchor={{ to: 'bottom end', gap: 4, padding: 8 }}
        className="z-40 flex w-72 max-w-[calc(100vw-1rem)] flex-col gap-1 rounded-md border border-slate-200 bg-white p-2 text-sm shadow-lg"
        data-testid="column-chooser"
      >
        <ul className="flex flex-col gap-1" aria-label={t('engine.columns')}>
          {choice.order.map((key, i) => {
            const name = fieldLabel(t, key);
            const visible = !choice.hidden.includes(key);
            return (
              <li key={key} className="flex items-center gap-1" data-column={key}>
                <label className="flex min-w-0 flex-1 items-center gap-2 px-1 py-0.5">
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-primary"
                    checked={visible}
                    disabled={visible && shown <= 1}
                    title={visible && shown <= 1 ? t('engine.lastColumn') : undefined}
                    onChange={(e) => change(toggleColumn(choice, key, e.target.checked))}
                  />
                  <span className="truncate">{name}</span>
                </label>
                <button
                  type="button"
                  className={arrow}
                  disabled={i === 0}
                  onClick={() => move(key, -1)}
                  aria-label={t('engine.moveUp', { name })}
                  data-move="up"
                  data-key={key}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className={arrow}
                  disabled={i === choice.order.length - 1}
                  onClick={() => move(key, 1)}
                  aria-label={t('engine.moveDown', { name })}
                  data-move="down"
                  data-key={key}
                >
                  ↓
                </button>
              </li>
            );
          })}
        </ul>
        <button
          type="button"
          className="btn mt-1 justify-center"
          onClick={() => change(null)}
          data-testid="columns-reset"
        >
          {t('engine.resetColumns')}
        </button>
      </PopoverPanel>
    </Popover>
  );
}
