import { Suspense, useEffect, useRef, useState } from 'react';
import type { Unoffered } from '../routes.js';
import { useT } from '../../i18n/index.js';
import { UiIcon } from '../../ui/icons.js';

import SearchPanel from './search-panel.js';
import { SEARCH_FIELD } from './search-field.js';

/** Ctrl+K, or ⌘K on a Mac: the shortcut web consoles share for their search. */
function isSearchShortcut(e: KeyboardEvent): boolean {
  return (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && (e.code === 'KeyK' || e.key.toLowerCase() === 'k');
}

/** The header search: screens and records; its button, or Ctrl+K / ⌘K from anywhere, opens it. */
export function HeaderSearch({ held, unoffered }: { held: readonly string[]; unoffered: Unoffered }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  // Bumped to put the focus in the field, also when it is already open.
  const [focusToken, setFocusToken] = useState(0);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isSearchShortcut(e)) return;
      e.preventDefault();
      setOpen(true);
      setFocusToken((n) => n + 1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

  return (
    <div className="flex items-center">
      <button
        ref={button}
        type="button"
        className="nav-btn"
        aria-label={t('nav.search')}
        title={`${t('nav.search')} (${mac ? '⌘K' : 'Ctrl+K'})`}
        aria-expanded={open}
        aria-keyshortcuts="Control+K Meta+K"
        data-testid="header-search-toggle"
        onClick={() => {
          setOpen((v) => !v);
          setFocusToken((n) => n + 1);
        }}
      >
        <UiIcon name="search" />
      </button>
      {open && (
        // On a phone the field covers the header's whole width (beside its buttons it would be a
        // few letters wide); wider, it sits beside its button.
        <div
          className="absolute inset-0 z-40 flex items-center bg-white px-2 sm:static sm:z-auto sm:bg-transparent sm:px-0"
          data-testid="header-search"
        >
          <Suspense
            fallback={
              <input
                disabled
                aria-label={t('nav.search')}
                placeholder={t('nav.searchPlaceholder')}
                className={SEARCH_FIELD}
              />
            }
          >
            <SearchPanel held={held} unoffered={unoffered} focusToken={focusToken} onClose={close} />
          </Suspense>
        </div>
      )}
    </div>
  );
}
