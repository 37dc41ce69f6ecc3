import { memo, use, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { Link, useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { accountName } from '../../api/session.js';
import { pageMessagesReady, useT, type MessageKey, type TitleKey } from '../../i18n/index.js';
import { recordTitle } from '../../lib/record-nav.js';
import { UiIcon } from '../../ui/icons.js';
import { REDIRECT_PREFIX } from '../navigation.js';
import { HOME_PATH, LEAF_ROUTES } from '../routes.js';
import {
  close,
  closeAll,
  closeOthers,
  named,
  neighbourOf,
  parseStored,
  serialise,
  visit,
  withAffixed,
  type VisitedView,
} from './visited-views.js';

/** Per browser tab, like the pages it lists: a second browser tab starts its own bar. */
const STORAGE_KEY = 'console.visitedViews';

/** The fixed tabs (the dashboard), from the route table. */
const AFFIXED: readonly VisitedView[] = LEAF_ROUTES.filter((r) => r.meta.affix).map((r) => ({
  path: r.path,
  fullPath: r.path,
  title: r.meta.title,
  affix: true,
}));

function readStored(account: string): VisitedView[] {
  try {
    return parseStored(sessionStorage.getItem(STORAGE_KEY), account);
  } catch {
    return [];
  }
}

/** The page shown now, as the layout knows it. */
export interface CurrentView {
  path: string;
  title: TitleKey;
  record?: string;
  affix?: boolean;
  noCache?: boolean;
}

type MenuAt = { view: VisitedView; left: number; top: number };

/**
 * The tab bar: one tab per page opened in this browser tab, the dashboard fixed first. A tab goes
 * back to its page as it was left (a list's page, sort and filters). Each tab but the fixed one
 * has a close button; its context menu (right click, or the context-menu key or Shift+F10 on a
 * focused tab) refreshes, closes, closes the others or closes all.
 */
export const TagsView = memo(function TagsView({ current }: { current: CurrentView }) {
  useSignals();
  // The bar's words load behind the login with the other pages' messages.
  use(pageMessagesReady());
  const t = useT();
  const search = useSearch();
  const account = accountName.value;
  const [views, setViews] = useState(() => readStored(account));
  const [menu, setMenu] = useState<MenuAt | null>(null);
  const list = useRef<HTMLUListElement>(null);
  // The tab to give the focus to once the bar is drawn again (after a close from the keyboard).
  const focusNext = useRef<string | null>(null);
  const { path, title, record, affix, noCache } = current;
  const fullPath = search ? `${path}?${search}` : path;

  useEffect(() => {
    setViews((known) => visit(known, { path, fullPath, title, record, affix, noCache }));
  }, [path, fullPath, title, record, affix, noCache]);

  // A record's page names its tab once it has read the record.
  const recordName = recordTitle.value;
  useEffect(() => {
    if (recordName) setViews((known) => named(known, recordName.path, recordName.name));
  }, [recordName]);

  useEffect(() => {
    try {
      sessionStorage.setItem(STORAGE_KEY, serialise(views, account));
    } catch {
      // Storage full or refused: the bar still works for this page's life.
    }
  }, [views, account]);

  // The current page always has its tab, even while a close of it waits on unsaved changes.
  const shown = useMemo(() => {
    const here = views.some((v) => v.path === path)
      ? views
      : visit(views, { path, fullPath, title, record, affix, noCache });
    return withAffixed(here, AFFIXED);
  }, [views, path, fullPath, title, record, affix, noCache]);

  // The current tab is scrolled into the bar's view, sideways only: the page itself does not move.
  useEffect(() => {
    const bar = list.current;
    const tab = bar?.querySelector<HTMLElement>(`[data-tag-path="${CSS.escape(path)}"]`);
    if (!bar || !tab) return;
    if (tab.offsetLeft < bar.scrollLeft) bar.scrollLeft = tab.offsetLeft;
    else if (tab.offsetLeft + tab.offsetWidth > bar.scrollLeft + bar.clientWidth)
      bar.scrollLeft = tab.offsetLeft + tab.offsetWidth - bar.clientWidth;
  }, [path, shown.length]);

  useEffect(() => {
    if (!focusNext.current) return;
    list.current?.querySelector<HTMLElement>(`[data-tag-path="${CSS.escape(focusNext.current)}"] a`)?.focus();
    focusNext.current = null;
  });

  const label = (v: VisitedView) =>
    v.record === undefined ? t(v.title) : `${t(v.title)} · ${v.name ?? `#${v.record}`}`;

  const closeTab = (v: VisitedView) => {
    if (v.affix) return;
    // The focus goes where the closed tab was: its neighbour, which is also the page opened when
    // the closed tab was the current one.
    const neighbour = neighbourOf(shown, v.path);
    setViews(close(shown, v.path));
    focusNext.current = neighbour?.path ?? null;
    if (v.path === path) navigate(neighbour?.fullPath ?? HOME_PATH);
  };
  const closeOtherTabs = (v: VisitedView) => {
    setViews(closeOthers(shown, v.path));
    focusNext.current = v.path;
    if (v.path !== path) navigate(v.fullPath);
  };
  const closeAllTabs = () => {
    const left = closeAll(shown);
    setViews(left);
    focusNext.current = left[left.length - 1]?.path ?? null;
    if (!affix) navigate(left[left.length - 1]?.fullPath ?? HOME_PATH);
  };

  const openMenu = (v: VisitedView, tab: HTMLElement) => {
    const box = tab.getBoundingClientRect();
    setMenu({ view: v, left: Math.min(box.left, window.innerWidth - 200), top: box.bottom + 4 });
  };

  return (
    <nav
      aria-label={t('tags.label')}
      className="border-b border-slate-200 bg-white"
      data-testid="tags-view"
      // The page's scroll padding makes room for the bar under the sticky header (styles.css).
      data-tab-bar=""
    >
      {/* Positioned, so that a tab's offsetLeft is measured from the bar, whatever the header is. */}
      <ul ref={list} className="relative flex gap-1 overflow-x-auto px-2 py-1 [scrollbar-width:thin]">
        {shown.map((v) => {
          const active = v.path === path;
          return (
            <li
              key={v.path}
              data-tag-path={v.path}
              data-active={active ? '' : undefined}
              className={`flex shrink-0 items-center rounded border text-xs ${
                active ? 'border-primary bg-primary text-on-primary' : 'border-slate-200 bg-white text-slate-700'
              }`}
            >
              <Link
                href={v.fullPath}
                aria-current={active ? 'page' : undefined}
                className="inline-flex min-h-[24px] items-center px-2 leading-6 whitespace-nowrap focus-visible:outline-2 focus-visible:outline-primary"
                onContextMenu={(e) => {
                  e.preventDefault();
                  openMenu(v, e.currentTarget.parentElement!);
                }}
              >
                {active && <span aria-hidden="true" className="mr-1 inline-block h-2 w-2 rounded-full bg-current" />}
                {label(v)}
              </Link>
              {!v.affix && (
                <button
                  type="button"
                  className="inline-flex h-[24px] w-[24px] items-center justify-center rounded hover:bg-black/10 focus-visible:outline-2 focus-visible:outline-primary"
                  aria-label={t('tags.closeNamed', { name: label(v) })}
                  title={t('tags.close')}
                  data-tag-close=""
                  onClick={() => closeTab(v)}
                >
                  <UiIcon name="close" className="h-3 w-3" />
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {menu && (
        <TagMenu
          at={menu}
          t={t}
          onClose={() => setMenu(null)}
          onRefresh={() => navigate(`${REDIRECT_PREFIX}${menu.view.fullPath}`, { replace: menu.view.path === path })}
          onCloseTab={menu.view.affix ? undefined : () => closeTab(menu.view)}
          onCloseOthers={() => closeOtherTabs(menu.view)}
          onCloseAll={closeAllTabs}
        />
      )}
    </nav>
  );
});

/**
 * A tab's context menu, under its tab. A menu of buttons: the arrow keys move between them,
 * Escape or a click elsewhere closes it and gives the focus back to the tab.
 */
function TagMenu({
  at,
  t,
  onClose,
  onRefresh,
  onCloseTab,
  onCloseOthers,
  onCloseAll,
}: {
  at: MenuAt;
  t: ReturnType<typeof useT>;
  onClose: () => void;
  onRefresh: () => void;
  onCloseTab: (() => void) | undefined;
  onCloseOthers: () => void;
  onCloseAll: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  // Read when an outside click or a scroll comes: the listeners are added once, with the menu.
  const closeNow = useRef(onClose);
  closeNow.current = onClose;
  const tabLink = () =>
    document.querySelector<HTMLElement>(`[data-testid="tags-view"] [data-tag-path="${CSS.escape(at.view.path)}"] a`);
  const dismiss = (refocus: boolean) => {
    onClose();
    if (refocus) tabLink()?.focus();
  };
  useEffect(() => {
    box.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const outside = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) closeNow.current();
    };
    const away = () => closeNow.current();
    document.addEventListener('pointerdown', outside, true);
    window.addEventListener('resize', away);
    window.addEventListener('scroll', away, true);
    return () => {
      document.removeEventListener('pointerdown', outside, true);
      window.removeEventListener('resize', away);
      window.removeEventListener('scroll', away, true);
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(box.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => items[(to + items.length) % items.length]?.focus();
    if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(items.length - 1);
    else if (e.key === 'Escape') dismiss(true);
    else if (e.key === 'Tab') dismiss(false);
    else return;
    e.preventDefault();
  };
  const item = (labelKey: MessageKey, run: () => void, testId: string) => (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      data-tag-action={testId}
      className="block w-full px-4 py-2 text-left text-sm text-slate-700 hover:bg-primary/10 focus:bg-primary/10 focus:outline-none"
      onClick={() => {
        onClose();
        run();
      }}
    >
      {t(labelKey)}
    </button>
  );
  return (
    <div
      ref={box}
      role="menu"
      aria-label={t('tags.menu')}
      data-testid="tags-menu"
      onKeyDown={onKeyDown}
      className="fixed z-50 min-w-44 rounded-md bg-white py-1 shadow-lg ring-1 ring-black/5"
      style={{ left: Math.max(4, at.left), top: at.top }}
    >
      {item('tags.refresh', onRefresh, 'refresh')}
      {onCloseTab && item('tags.close', onCloseTab, 'close')}
      {item('tags.closeOthers', onCloseOthers, 'close-others')}
      {item('tags.closeAll', onCloseAll, 'close-all')}
    </div>
  );
}
