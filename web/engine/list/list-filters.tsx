import { useEffect, useId, useState } from 'react';
import type { FieldDef, ListResource } from '#contract';
import type { LabelT } from '../../i18n/resources/index.js';
import type { Density } from '../../ui/density.js';
import { fieldLabel, optionLabel } from '../shared/labels.js';
import { filterFields, filtersAreDefault, isRangeFilter, type ListState } from './url-state.js';

export const KEYWORD_DEBOUNCE_MS = 400;

/** Keeps a local copy of a URL value while typing, committing after a pause. */
function useDebouncedCommit(value: string, commit: (v: string) => void, ms = KEYWORD_DEBOUNCE_MS) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  useEffect(() => {
    if (draft.trim() === value) return;
    const timer = setTimeout(() => commit(draft.trim()), ms);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `commit` is a new closure each render; the text decides
  }, [draft, value]);
  return [draft, setDraft] as const;
}

function FilterControl({
  field,
  state,
  onChange,
  t,
  density,
  defaults,
}: {
  field: FieldDef;
  state: ListState;
  onChange: (filters: Record<string, string>) => void;
  t: LabelT;
  density: Density;
  /** The screen's default filters: clearing one of them means "All", kept as an empty value. */
  defaults: Readonly<Record<string, string>>;
}) {
  const id = useId();
  const box = `rounded-md border border-slate-300 bg-white ${density.input} ${density.text}`;
  const set = (key: string, value: string) => {
    const next = { ...state.filters };
    if (value) next[key] = value;
    else if (key in defaults) next[key] = '';
    else delete next[key];
    onChange(next);
  };
  const label = fieldLabel(t, field.key);
  const [text, setText] = useDebouncedCommit(state.filters[field.key] ?? '', (v) => set(field.key, v));

  if (isRangeFilter(field)) {
    const from = `${field.key}From`;
    const to = `${field.key}To`;
    return (
      <fieldset className="flex flex-col text-sm text-slate-700">
        <legend className="mb-1">{label}</legend>
        <div className="flex items-center gap-1">
          <label className="sr-only" htmlFor={`${id}-from`}>{`${label} ${t('engine.from')}`}</label>
          <input
            id={`${id}-from`}
            type="date"
            className={box}
            value={state.filters[from] ?? ''}
            max={state.filters[to]}
            onChange={(e) => set(from, e.target.value)}
            data-filter={from}
          />
          <span aria-hidden="true">–</span>
          <label className="sr-only" htmlFor={`${id}-to`}>{`${label} ${t('engine.to')}`}</label>
          <input
            id={`${id}-to`}
            type="date"
            className={box}
            value={state.filters[to] ?? ''}
            min={state.filters[from]}
            onChange={(e) => set(to, e.target.value)}
            data-filter={to}
          />
        </div>
      </fieldset>
    );
  }
  if (field.kind === 'select' || field.kind === 'switch') {
    const options = field.kind === 'switch' ? (['true', 'false'] as const) : (field.options ?? []);
    return (
      <label className="flex flex-col text-sm text-slate-700" htmlFor={id}>
        <span className="mb-1">{label}</span>
        <select
          id={id}
          className={box}
          value={state.filters[field.key] ?? ''}
          onChange={(e) => set(field.key, e.target.value)}
          data-filter={field.key}
        >
          <option value="">{t('engine.all')}</option>
          {options.map((o) => (
            <option key={o} value={o}>
              {field.kind === 'switch' ? t(o === 'true' ? 'engine.yes' : 'engine.no') : optionLabel(t, field.key, o)}
            </option>
          ))}
        </select>
      </label>
    );
  }
  return (
    <label className="flex flex-col text-sm text-slate-700" htmlFor={id}>
      <span className="mb-1">{label}</span>
      <input id={id} className={box} value={text} onChange={(e) => setText(e.target.value)} data-filter={field.key} />
    </label>
  );
}

/** Keyword search (debounced) and the filters of `filter: true` fields, all written to the URL. */
export function ListFilters({
  resource,
  state,
  onChange,
  t,
  density,
}: {
  resource: ListResource & { defaultFilters?: Readonly<Record<string, string>> };
  state: ListState;
  onChange: (change: { keyword?: string; filters?: Record<string, string> }) => void;
  t: LabelT;
  density: Density;
}) {
  const id = useId();
  const [keyword, setKeyword] = useDebouncedCommit(state.keyword, (v) => onChange({ keyword: v }));
  const fields = filterFields(resource);
  const active = state.keyword !== '' || !filtersAreDefault(resource, state.filters);
  return (
    <div className="flex flex-wrap items-end gap-3" role="search" aria-label={t('engine.filters')}>
      <label className="flex flex-col text-sm text-slate-700" htmlFor={id}>
        <span className="mb-1">{t('engine.search')}</span>
        <input
          id={id}
          type="search"
          className={`w-56 rounded-md border border-slate-300 bg-white ${density.input} ${density.text}`}
          placeholder={resource.keywordFields.map((k) => fieldLabel(t, k)).join(' / ')}
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') onChange({ keyword: keyword.trim() });
          }}
          data-testid="list-keyword"
        />
      </label>
      {fields.map((f) => (
        <FilterControl
          key={f.key}
          field={f}
          state={state}
          onChange={(filters) => onChange({ filters })}
          t={t}
          density={density}
          defaults={resource.defaultFilters ?? {}}
        />
      ))}
      {active && (
        <button
          type="button"
          className="btn"
          onClick={() => {
            setKeyword('');
            onChange({ keyword: '', filters: {} });
          }}
        >
          {t('engine.resetFilters')}
        </button>
      )}
    </div>
  );
}
