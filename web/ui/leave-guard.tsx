import { useEffect, useRef, useState } from 'react';
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useT } from '../i18n/index.js';
import { activateGuard, type LeaveWords } from '../lib/leave-guard.js';

type HistoryMethod = typeof history.pushState;

/**
 * Warns before unsaved changes are lost, whichever way the user leaves: the browser's own prompt
 * on reload or close (beforeunload); an in-app question on links, menu entries, the header search
 * and every other router navigation (wouter navigates through history.pushState/replaceState,
 * which are held back while dirty), on Back and Forward (undone, then asked about) and, through
 * confirmLeave() (web/lib/leave-guard.ts), on logout. Changes within the same page (its query
 * string) pass.
 */
export function LeaveGuard({ dirty }: { dirty: boolean }) {
  const t = useT();
  // The question open, with its own words when it is about something else than the page.
  const [asking, setAsking] = useState<{ words?: LeaveWords } | null>(null);
  const answer = useRef<((leave: boolean) => void) | null>(null);

  useEffect(() => {
    if (!dirty) return;
    // The router's own methods: wouter patches them to announce changes.
    const push = history.pushState;
    const replace = history.replaceState;
    const here = location.pathname + location.search;
    let released = false;

    const ask = (words?: LeaveWords) =>
      new Promise<boolean>((resolve) => {
        // A newer way out replaces a question still open.
        answer.current?.(false);
        answer.current = (leave) => {
          answer.current = null;
          setAsking(null);
          if (leave) release();
          resolve(leave);
        };
        setAsking({ words });
      });
    const samePage = (url: string | URL | null | undefined) =>
      url === null || url === undefined || new URL(String(url), location.href).pathname === location.pathname;
    const hold = (method: HistoryMethod): HistoryMethod =>
      function (data, unused, url) {
        if (samePage(url)) return method.call(history, data, unused, url);
        void ask().then((leave) => {
          if (leave) method.call(history, data, unused, url);
        });
      };
    const onBack = (event: PopStateEvent) => {
      const wanted = location.pathname + location.search;
      if (wanted === here) return;
      // Heard before the router (installLeaveGuard) and kept from it: the form's URL goes back
      // before anything renders the other page; then ask.
      event.stopImmediatePropagation();
      push.call(history, null, '', here);
      void ask().then((leave) => {
        if (leave) push.call(history, null, '', wanted);
      });
    };
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers need returnValue set to show their prompt.
      event.returnValue = '';
    };

    function release() {
      if (released) return;
      released = true;
      history.pushState = push;
      history.replaceState = replace;
      removeEventListener('beforeunload', onBeforeUnload);
      deactivate();
    }

    history.pushState = hold(push);
    history.replaceState = hold(replace);
    addEventListener('beforeunload', onBeforeUnload);
    const deactivate = activateGuard({ ask, onBack });
    return release;
  }, [dirty]);

  return (
    <LeaveDialog open={asking !== null} words={asking?.words} onAnswer={(leave) => answer.current?.(leave)} t={t} />
  );
}

function LeaveDialog({
  open,
  words,
  onAnswer,
  t,
}: {
  open: boolean;
  words?: LeaveWords;
  onAnswer: (leave: boolean) => void;
  t: ReturnType<typeof useT>;
}) {
  return (
    <Dialog open={open} onClose={() => onAnswer(false)} className="relative z-50">
      <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-sm rounded-lg bg-white p-6 shadow-xl" data-testid="leave-dialog">
          <DialogTitle className="text-lg font-semibold text-slate-800">{words?.title ?? t('leave.title')}</DialogTitle>
          <p className="mt-2 text-slate-700">{words?.text ?? t('leave.text')}</p>
          <div className="mt-5 flex justify-end gap-2">
            <button type="button" className="btn btn-primary" onClick={() => onAnswer(false)} autoFocus>
              {words?.stay ?? t('leave.stay')}
            </button>
            <button type="button" className="btn btn-danger" onClick={() => onAnswer(true)}>
              {words?.leave ?? t('leave.leave')}
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
