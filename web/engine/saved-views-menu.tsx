import { useId, useState, type FormEvent, type MouseEvent } from 'react';
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import type { Signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import type { ListResource } from '#contract';
import type { LabelT } from '../i18n/resources/index.js';
import { persistedSignal } from '../lib/persisted.js';
import { toast } from '../lib/toast.js';
import type { ListColumns } from './column-chooser.js';
import { MAX_VIEW_NAME, normalisedQuery, sanitiseViews, viewHref, viewQuery, viewState, withView, type SavedView } from './saved-views.js';
import type { ListState } from './url-state.js';

const stores = new Map<string, Signal<unknown[]>>();

/** This browser's saved views of one resource, as stored: `sanitiseViews` reads them. */
function viewStore(resourceId: string): Signal<unknown[]> {
  let store = stores.get(resourceId);
  if (!store) {
    store = persistedSignal<unknown[]>(`views.${resourceId}`, [], Array.isArray);
    stores.set(resourceId, store);
  }
  return store;
}

interface Props {
  resource: ListResource;
  state: ListState;
  path: string;
  columns: ListColumns;
  t: LabelT;
}

async function copyLink(href: string, t: LabelT): Promise<void> {
  const url = new URL(href, window.location.origin).href;
  try {
    await navigator.clipboard.writeText(url);
    toast.success(t('engine.linkCopied'));
  } catch {
    // No clipboard (an insecure origin, a refused permission): the link is shown to copy by hand.
    toast.info(url);
  }
}

/** Named views of a list kept in this browser: save the one on screen, apply, share or delete one. */
export function SavedViews({ resource, state, path, columns, t }: Props) {
  useSignals();
  const id = useId();
  const store = viewStore(resource.id);
  const views = sanitiseViews(store.value);
  const [name, setName] = useState('');
  const [deleted, setDeleted] = useState<{ view: SavedView; at: number } | null>(null);
  const current = viewQuery(state, columns.visible, resource);
  const active = views.find((v) => normalisedQuery(v, resource) === current);

  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    store.value = withView(views, { name, query: current });
    toast.success(t('engine.viewSaved', { name: name.trim() }));
    setName('');
  };
  const remove = (view: SavedView) => {
    setDeleted({ view, at: views.indexOf(view) });
    store.value = views.filter((v) => v !== view);
  };
  const undo = () => {
    if (!deleted) return;
    const next = views.filter((v) => v.name !== deleted.view.name);
    next.splice(deleted.at, 0, deleted.view);
    store.value = next;
    setDeleted(null);
  };
  const apply = (e: MouseEvent, view: SavedView, close: () => void) => {
    // A plain click applies in place; a middle or modified click opens the link as links do.
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    columns.apply(viewState(view, resource));
    close();
  };
  const small = 'btn h-7 px-2 py-0 text-xs';

  return (
    <Popover>
      <PopoverButton className="btn" data-testid="views-button">
        {t('engine.views')}
        {active && <span className="ml-1 max-w-32 truncate text-slate-500">· {active.name}</span>}
      </PopoverButton>
      <PopoverPanel
        anchor={{ to: 'bottom end', gap: 4, padding: 8 }}
        className="z-40 flex w-80 max-w-[calc(100vw-1rem)] flex-col gap-2 rounded-md border border-slate-200 bg-white p-2 text-sm shadow-lg"
        data-testid="saved-views"
      >
        {({ close }) => (
          <>
            {views.length === 0 ? (
              <p className="px-1 text-slate-500">{t('engine.noViews')}</p>
            ) : (
              <ul className="flex flex-col gap-1" aria-label={t('engine.views')}>
                {views.map((v) => {
                  const href = viewHref(path, normalisedQuery(v, resource));
                  return (
                    <li key={v.name} className="flex items-center gap-1" data-view={v.name}>
                      <a
                        href={href}
                        className={`min-w-0 flex-1 truncate rounded px-1 py-0.5 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-primary ${v === active ? 'font-medium text-primary' : 'text-slate-700'}`}
                        aria-current={v === active ? 'true' : undefined}
                        onClick={(e) => apply(e, v, close)}
                        data-testid="view-apply"
                      >
                        {v.name}
                      </a>
                      <button type="button" className={small} onClick={() => void copyLink(href, t)} aria-label={t('engine.copyViewLink', { name: v.name })}>
                        {t('engine.link')}
                      </button>
                      <button type="button" className={`${small} text-red-700`} onClick={() => remove(v)} aria-label={t('engine.deleteView', { name: v.name })}>
                        ✕
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
            {deleted && (
              <p role="status" className="flex items-center gap-2 rounded bg-slate-50 px-1 py-1 text-slate-600">
                <span className="min-w-0 flex-1 truncate">{t('engine.viewDeleted', { name: deleted.view.name })}</span>
                <button type="button" className={small} onClick={undo}>
                  {t('engine.undo')}
                </button>
              </p>
            )}
            <form className="flex items-end gap-1 border-t border-slate-100 pt-2" onSubmit={save}>
              <label className="flex min-w-0 flex-1 flex-col text-xs text-slate-600" htmlFor={id}>
                {t('engine.viewName')}
                <input
                  id={id}
                  className="mt-0.5 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
                  value={name}
                  maxLength={MAX_VIEW_NAME}
                  onChange={(e) => setName(e.target.value)}
                  data-testid="view-name"
                />
              </label>
              <button type="submit" className="btn btn-primary" disabled={!name.trim()} data-testid="view-save">
                {t('engine.saveView')}
              </button>
            </form>
          </>
        )}
      </PopoverPanel>
    </Popover>
  );
}
