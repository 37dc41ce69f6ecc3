import { use, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions } from '@headlessui/react';
import { navigate } from 'wouter/use-browser-location';
import { LIST_RESOURCES } from '#contract';
import {
  createSearch,
  groupResults,
  searchEntries,
  searchSources,
  settled,
  SEARCH_MAX_QUERY,
  type SearchGroup,
  type SearchOption,
} from '../search.js';
import type { Unoffered } from '../routes.js';
import { backendOffer } from '../../api/session.js';
import { offeredResource } from '../../engine/shared/offer.js';
import { resourceTitle } from '../../engine/shared/labels.js';
import { rankHits, recordKeyword, useRecordSearch, type SearchSource } from '../../engine/record/record-search.js';
import { seedRecord } from '../../engine/record/record-query.js';
import { useT } from '../../i18n/index.js';
import { SEARCH_FIELD } from './search-field.js';
import { UiIcon } from '../../ui/icons.js';
import { labelsReady, useLabelT } from '../../i18n/resources/index.js';

/**
 * The header search once opened: the permitted screens by fuzzy title, and the records of the
 * searchable lists (users, groups, withdrawals) by the backend's keyword, grouped by kind. Arrows
 * move through every result, Enter opens it, Escape on an empty field closes the search.
 */
export default function SearchPanel({
  held,
  unoffered,
  focusToken,
  onClose,
}: {
  held: readonly string[];
  unoffered: Unoffered;
  /** A new value puts the focus back in the field (Ctrl+K while it is open). */
  focusToken: number;
  onClose: (refocus: boolean) => void;
}) {
  useSignals();
  // Resource titles and the panel's own words are screen labels, fetched with the first screen.
  use(labelsReady());
  const t = useT();
  const lt = useLabelT();
  const offer = backendOffer.value;
  const [query, setQuery] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => input.current?.focus(), [focusToken]);

  // Titles are translated, so the index follows the language (t changes with it).
  const pageSearch = useMemo(() => createSearch(searchEntries(held, t, undefined, unoffered)), [held, t, unoffered]);
  const sources = useMemo<SearchSource[]>(
    () =>
      searchSources(held, (id) => LIST_RESOURCES.get(id), undefined, unoffered).map(({ source, listPath }) => ({
        resource: offeredResource(source, offer),
        listPath,
      })),
    [held, unoffered, offer],
  );
  const search = useRecordSearch(sources, query);
  const keyword = recordKeyword(query);

  const records: SearchGroup[] =
    keyword === null
      ? []
      : sources.map(({ resource, listPath }) => {
          const answer = search.answers[resource.id];
          // Until this keyword's answer is in, the last answer's rows stay on screen.
          const status =
            answer && answer.keyword === keyword && answer.status !== 'loading' ? answer.status : 'loading';
          const options: SearchOption[] = answer
            ? rankHits(answer.rows, resource, listPath, answer.keyword, lt).map((hit) => ({
                key: `${resource.id}:${hit.id}`,
                path: hit.path,
                title: hit.name,
                detail: hit.detail,
                kind: 'record',
                seed: { resourceId: resource.id, row: hit.row },
              }))
            : [];
          if (answer && answer.total > answer.rows.length) {
            // The rest are in the list itself, searched by the same keyword.
            options.push({
              key: `${resource.id}:more`,
              path: `${listPath}?keyword=${encodeURIComponent(answer.keyword)}`,
              title: lt('search.more', { count: answer.total }),
              kind: 'more',
            });
          }
          return { key: resource.id, title: resourceTitle(lt, resource.id), status, options };
        });
  const groups = groupResults(lt('search.pages'), pageSearch(query), records);
  const done = settled(groups);

  const choose = (option: SearchOption | null) => {
    if (!option) return;
    setQuery('');
    onClose(false);
    if (option.seed) seedRecord(option.seed.resourceId, option.seed.row);
    navigate(option.path);
  };

  return (
    <Combobox<SearchOption | null> value={null} onChange={choose} onClose={() => setQuery('')}>
      <div className="relative flex min-w-0 flex-1 items-center gap-1">
        <ComboboxInput
          ref={input}
          aria-label={t('nav.search')}
          placeholder={t('nav.searchPlaceholder')}
          maxLength={SEARCH_MAX_QUERY}
          className={`${SEARCH_FIELD} outline-none focus:border-primary`}
          data-testid="header-search-input"
          displayValue={() => query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !query) onClose(true);
          }}
        />
        <button
          type="button"
          className="nav-btn shrink-0 sm:hidden"
          aria-label={lt('engine.close')}
          onClick={() => onClose(true)}
          data-testid="header-search-close"
        >
          <UiIcon name="close" />
        </button>
        {query.trim() !== '' && (
          <ComboboxOptions
            static
            // On a phone the results span the header's width under it; wider, they hang from the field.
            className="absolute top-full right-0 left-0 z-50 mt-1 max-h-[70vh] overflow-auto rounded-md bg-white py-1 shadow-lg ring-1 ring-black/5 sm:left-auto sm:w-96"
            data-testid="header-search-results"
            // What the results answer: the text typed, once every group has its answer for it.
            data-search-for={query.trim()}
            data-settled={done ? query.trim() : undefined}
          >
            {groups.length === 0 && done ? (
              <div className="px-3 py-2 text-sm text-slate-500">{t('nav.searchEmpty')}</div>
            ) : (
              groups.map((g) => (
                <div key={g.key} role="group" aria-label={g.title} data-search-group={g.key}>
                  <div
                    className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase"
                    aria-hidden="true"
                  >
                    {g.title}
                  </div>
                  {g.options.map((o) => (
                    <ComboboxOption
                      key={o.key}
                      value={o}
                      className={`cursor-pointer px-3 py-2 text-sm data-[focus]:bg-primary/10 ${g.status === 'loading' ? 'opacity-60' : ''}`}
                      data-search-path={o.path}
                      data-search-kind={o.kind}
                    >
                      <div className={o.kind === 'more' ? 'text-primary' : 'text-slate-800'}>{o.title}</div>
                      {o.detail && <div className="truncate text-xs text-slate-600">{o.detail}</div>}
                    </ComboboxOption>
                  ))}
                  {g.status === 'loading' && g.options.length === 0 && (
                    <div role="status" className="px-3 py-2 text-sm text-slate-500">
                      {lt('search.searching')}
                    </div>
                  )}
                  {g.status === 'error' && <div className="px-3 py-2 text-sm text-red-700">{lt('search.failed')}</div>}
                </div>
              ))
            )}
          </ComboboxOptions>
        )}
      </div>
    </Combobox>
  );
}
