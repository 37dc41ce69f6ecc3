import { useEffect, useRef, useState } from 'react';
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useLabelT } from '../i18n/resources/index.js';

type HistoryMethod = typeof history.pushState;

/**
 * Warns before unsaved changes are lost: the browser's own prompt on reload or close
 * (beforeunload), and a dialog on in-app navigation. wouter navigates through
 * history.pushState/replaceState, so while dirty those are held back until the user decides; the
 * back button is undone and then asked about the same way.
 */
export function useLeaveGuard(dirty: boolean) {
  const [pending, setPending] = useState<{ url: string; replace: boolean } | null>(null);
  const originals = useRef<{ push: HistoryMethod; replace: HistoryMethod } | null>(null);

  useEffect(() => {
    if (!dirty) return;
    const here = location.pathname + location.search;
    const push = history.pushState;
    const replace = history.replaceState;
    originals.current = { push, replace };
    const samePage = (url: string | URL | null | undefined) => {
      if (url === null || url === undefined) return true;
      return new URL(String(url), location.href).pathname === location.pathname;
    };
    history.pushState = function (data, unused, url) {
      if (samePage(url)) return push.call(history, data, unused, url);
      setPending({ url: String(url), replace: false });
    };
    history.replaceState = function (data, unused, url) {
      if (samePage(url)) return replace.call(history, data, unused, url);
      setPending({ url: String(url), replace: true });
    };
    const onPopState = () => {
      if (location.pathname + location.search === here) return;
      const wanted = location.pathname + location.search;
      // Put the form's URL back before the router renders the other page, then ask.
      push.call(history, null, '', here);
      setPending({ url: wanted, replace: false });
    };
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers need returnValue set to show their prompt.
      e.returnValue = '';
    };
    addEventListener('popstate', onPopState);
    addEventListener('beforeunload', onBeforeUnload);
    return () => {
      history.pushState = push;
      history.replaceState = replace;
      originals.current = null;
      removeEventListener('popstate', onPopState);
      removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [dirty]);

  const leave = () => {
    const target = pending;
    setPending(null);
    if (!target) return;
    const methods = originals.current;
    const method = target.replace ? methods?.replace ?? history.replaceState : methods?.push ?? history.pushState;
    // The saved methods are the router's own (wouter patches them to announce changes).
    method.call(history, null, '', target.url);
  };

  return { pending: pending !== null, leave, stay: () => setPending(null) };
}

/** The in-app "leave with unsaved changes?" question. */
export function LeaveDialog({ open, onLeave, onStay }: { open: boolean; onLeave: () => void; onStay: () => void }) {
  const t = useLabelT();
  return (
    <Dialog open={open} onClose={onStay} className="relative z-50">
      <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-sm rounded-lg bg-white p-6 shadow-xl" data-testid="leave-dialog">
          <DialogTitle className="text-lg font-semibold text-slate-800">{t('engine.unsavedTitle')}</DialogTitle>
          <p className="mt-2 text-slate-700">{t('engine.unsavedText')}</p>
          <div className="mt-5 flex justify-end gap-2">
            <button type="button" className="btn btn-primary" onClick={onStay} autoFocus>
              {t('engine.stay')}
            </button>
            <button type="button" className="btn btn-danger" onClick={onLeave}>
              {t('engine.leave')}
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
