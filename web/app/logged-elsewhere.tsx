import { useEffect, useRef } from 'react';
import { signal } from '@preact/signals-react';
import { useSignals } from '@preact/signals-react/runtime';
import { resetSessionAndReload } from '../api/client.js';
import { useT } from '../i18n/index.js';

/** Open once the backend says the session ended (logged in elsewhere); closing it resets the session. */
export const loggedElsewhereOpen = signal(false);

/**
 * "Logged in elsewhere", with a close button only: there is nothing to do but log in again. A
 * native modal <dialog> keeps focus inside by itself and needs nothing from the lazy layout chunk.
 */
export function LoggedElsewhereDialog() {
  useSignals();
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const open = loggedElsewhereOpen.value;
  useEffect(() => {
    const d = ref.current;
    if (open && d && !d.open) d.showModal();
  }, [open]);
  if (!open) return null;
  return (
    <dialog
      ref={ref}
      aria-labelledby="logged-elsewhere-title"
      className="m-auto w-full max-w-sm rounded-lg p-6 shadow-xl backdrop:bg-black/40"
      onCancel={(e) => e.preventDefault()}
    >
      <h2 id="logged-elsewhere-title" className="text-lg font-semibold">
        {t('api.loggedElsewhereTitle')}
      </h2>
      <p className="mt-2 text-slate-700">{t('api.loggedElsewhere')}</p>
      <div className="mt-5 flex justify-end">
        <button type="button" className="btn btn-primary" autoFocus onClick={() => void resetSessionAndReload()}>
          {t('api.close')}
        </button>
      </div>
    </dialog>
  );
}
