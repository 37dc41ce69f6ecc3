import { useMemo, useRef, useState } from 'react';
import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions } from '@headlessui/react';
import { navigate } from 'wouter/use-browser-location';
import { createSearch, searchEntries, SEARCH_MAX_QUERY, type SearchEntry } from '../search.js';
import type { Unoffered } from '../routes.js';
import { useT } from '../../i18n/index.js';
import { UiIcon } from '../../ui/icons.js';

/** Fuzzy search over the permitted menu entries; choosing one opens it. */
export function HeaderSearch({ held, unoffered }: { held: readonly string[]; unoffered: Unoffered }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  // Titles are translated, so the index follows the language (t changes with it).
  const search = useMemo(() => createSearch(searchEntries(held, t, undefined, unoffered)), [held, t, unoffered]);
  const results = search(query);

  const choose = (entry: SearchEntry | null) => {
    if (!entry) return;
    setQuery('');
    setOpen(false);
    navigate(entry.path);
  };

  return (
    <div className="flex items-center">
      <button
        type="button"
        className="nav-btn"
        aria-label={t('nav.search')}
        title={t('nav.search')}
        aria-expanded={open}
        data-testid="header-search-toggle"
        onClick={() => {
          setOpen((v) => !v);
          setTimeout(() => inputRef.current?.focus(), 0);
        }}
      >
        <UiIcon name="search" />
      </button>
      {open && (
        <Combobox<SearchEntry | null> value={null} onChange={choose} onClose={() => setQuery('')}>
          <div className="relative">
            <ComboboxInput
              ref={inputRef}
              aria-label={t('nav.search')}
              placeholder={t('nav.searchPlaceholder')}
              maxLength={SEARCH_MAX_QUERY}
              className="w-48 rounded-md border border-slate-300 px-2 py-1 text-sm outline-none focus:border-primary sm:w-60"
              data-testid="header-search-input"
              displayValue={() => query}
              onChange={(e) => setQuery(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape' && !query) setOpen(false);
              }}
            />
            {query.trim() !== '' && (
              <ComboboxOptions static className="absolute right-0 z-50 mt-1 max-h-80 w-72 overflow-auto rounded-md bg-white py-1 shadow-lg ring-1 ring-black/5">
                {results.length === 0 ? (
                  <div className="px-3 py-2 text-sm text-slate-500">{t('nav.searchEmpty')}</div>
                ) : (
                  results.map((r) => (
                    <ComboboxOption key={r.path} value={r} className="cursor-pointer px-3 py-2 text-sm data-[focus]:bg-primary/10" data-search-path={r.path}>
                      <div className="text-slate-800">{r.title}</div>
                      <div className="text-xs text-slate-500">{r.path}</div>
                    </ComboboxOption>
                  ))
                )}
              </ComboboxOptions>
            )}
          </div>
        </Combobox>
      )}
    </div>
  );
}
