import { useEffect, useId, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ListResource } from '#contract';
import { SAVED_VIEW_LIMITS } from '#contract/saved-views';
import { ApiError } from '../../api/client.js';
import { deleteView, saveView, savedViewKeys, savedViewsQueryOptions } from '../../api/saved-views.js';
import type { LabelT } from '../../i18n/resources/index.js';
import { toast } from '../../lib/toast.js';
import type { ListColumns } from './column-chooser.js';
import {
  MAX_VIEW_NAME,
  normalisedQuery,
  sanitiseViews,
  viewHref,
  viewQuery,
  viewState,
  type SavedView,
} from './saved-views.js';
import { markUploaded, viewsToUpload } from './saved-views-migration.js';
import type { ListState } from './url-state.js';

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

/** Why a save or delete failed, in the reader's words; the session's end is the session dialog's to tell. */
function failureText(error: unknown, t: LabelT, fallback: 'views.saveFailed' | 'views.deleteFailed'): string | null {
  if (error instanceof ApiError && error.code === 401) return null;
  if (error instanceof ApiError && error.code === 409) {
    // The gateway says which cap was reached: this list's, or the administrator's over every list.
    const data = (error.data ?? {}) as { max?: unknown; per?: unknown };
    const max = typeof data.max === 'number' ? data.max : SAVED_VIEW_LIMITS.maxPerResource;
    return t(data.per === 'administrator' ? 'views.fullAdmin' : 'views.full', { max });
  }
  return t(fallback);
}

/**
 * The browser's views of this list from before they were kept at the gateway, uploaded once when
 * the gateway has none of this administrator's (saved-views-migration.ts).
 */
function useUploadOnce(resourceId: string, atGateway: readonly SavedView[] | undefined, t: LabelT): void {
  const client = useQueryClient();
  const started = useRef(false);
  useEffect(() => {
    if (!atGateway || started.current) return;
    const local = viewsToUpload(resourceId, atGateway);
    if (local.length === 0) return;
    started.current = true;
    void (async () => {
      let list: SavedView[] = [];
      try {
        for (const view of local) list = await saveView(resourceId, view);
      } catch {
        // Kept in the browser for the next visit: nothing of it is lost.
        started.current = false;
        void client.invalidateQueries({ queryKey: savedViewKeys.of(resourceId) });
        return;
      }
      markUploaded(resourceId);
      client.setQueryData(savedViewKeys.of(resourceId), list);
      toast.info(t('views.uploaded', { count: local.length }));
    })();
  }, [resourceId, atGateway, client, t]);
}

/** Named views of a list, kept at the gateway for this administrator: save the one on screen, apply, share or delete one. */
export function SavedViews({ resource, state, path, columns, t }: Props) {
  const id = useId();
  const client = useQueryClient();
  const query = useQuery(savedViewsQueryOptions(resource.id));
  const views = sanitiseViews(query.data ?? []);
  useUploadOnce(resource.id, query.data, t);
  const [name, setName] = useState('');
  const [deleted, setDeleted] = useState<SavedView | null>(null);
  const current = viewQuery(state, columns.visible, resource);
  const active = views.find((v) => normalisedQuery(v, resource) === current);
  const setList = (list: SavedView[]) => client.setQueryData(savedViewKeys.of(resource.id), list);

  const saving = useMutation({
    mutationFn: (view: SavedView) => saveView(resource.id, view),
    onSuccess: (list, view) => {
      setList(list);
      toast.success(t('engine.viewSaved', { name: view.name }));
    },
    onError: (error) => {
      const text = failureText(error, t, 'views.saveFailed');
      if (text) toast.error(text);
    },
  });
  const deleting = useMutation({
    mutationFn: (view: SavedView) => deleteView(resource.id, view.name),
    onSuccess: (_none, view) => {
      setList(views.filter((v) => v.name !== view.name));
      setDeleted(view);
    },
    onError: (error) => {
      const text = failureText(error, t, 'views.deleteFailed');
      if (text) toast.error(text);
      void client.invalidateQueries({ queryKey: savedViewKeys.of(resource.id) });
    },
  });
  const busy = saving.isPending || deleting.isPending;

  const save = (e: FormEvent) => {
    e.preventDefault();
    const clean = name.trim();
    if (!clean || busy) return;
    saving.mutate({ name: clean, query: current }, { onSuccess: () => setName('') });
  };
  const remove = (view: SavedView) => {
    if (!busy) deleting.mutate(view);
  };
  // Saved again, it goes last: the gateway keeps a list's views in the order they were first saved.
  const undo = () => {
    if (!deleted || busy) return;
    saving.mutate(deleted, { onSuccess: () => setDeleted(null) });
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
            {query.isPending ? (
              <p role="status" className="px-1 text-slate-500" data-testid="views-loading">
                {t('views.loading')}
              </p>
            ) : query.isError ? (
              <p role="alert" className="flex items-center gap-2 px-1 text-red-700" data-testid="views-error">
                <span className="min-w-0 flex-1">{t('views.loadFailed')}</span>
                <button type="button" className={small} onClick={() => void query.refetch()}>
                  {t('views.retry')}
                </button>
              </p>
            ) : views.length === 0 ? (
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
                      <button
                        type="button"
                        className={small}
                        onClick={() => void copyLink(href, t)}
                        aria-label={t('engine.copyViewLink', { name: v.name })}
                      >
                        {t('engine.link')}
                      </button>
                      <button
                        type="button"
                        className={`${small} text-red-700`}
                        onClick={() => remove(v)}
                        disabled={busy}
                        aria-label={t('engine.deleteView', { name: v.name })}
                      >
                        ✕
                      </button>
                    </li>
                  );
                })}
              </ul>
            )}
            {deleted && (
              <p role="status" className="flex items-center gap-2 rounded bg-slate-50 px-1 py-1 text-slate-600">
                <span className="min-w-0 flex-1 truncate">{t('engine.viewDeleted', { name: deleted.name })}</span>
                <button type="button" className={small} onClick={undo} disabled={busy}>
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
              <button
                type="submit"
                className="btn btn-primary"
                disabled={!name.trim() || busy || !query.isSuccess}
                data-testid="view-save"
              >
                {saving.isPending ? t('views.saving') : t('engine.saveView')}
              </button>
            </form>
          </>
        )}
      </PopoverPanel>
    </Popover>
  );
}
