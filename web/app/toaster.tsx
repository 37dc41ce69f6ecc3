import { useEffect, useRef } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { dismissToast, loggedElsewhereOpen, toasts, type ToastKind } from './toast.js';
import { resetSessionAndReload } from '../engine/api-client.js';
import { useT } from '../i18n/index.js';

const KIND_CLASS: Record<ToastKind, string> = {
  success: 'border-green-200 bg-green-50 text-green-800',
  error: 'border-red-200 bg-red-50 text-red-800',
  warning: 'border-amber-200 bg-amber-50 text-amber-800',
  info: 'border-slate-200 bg-white text-slate-800',
};

export function Toaster() {
  useSignals();
  const list = toasts.value;
  return (
    <div className="pointer-events-none fixed inset-x-0 top-3 z-[100] flex flex-col items-center gap-2 px-3" aria-live="polite">
      {list.map((x) => (
        <div
          key={x.id}
          role={x.kind === 'error' ? 'alert' : 'status'}
          data-toast={x.kind}
          className={`toast-in pointer-events-auto flex max-w-lg items-start gap-3 rounded-md border px-4 py-2 text-sm shadow-md ${KIND_CLASS[x.kind]}`}
        >
          <span className="break-words">{x.text}</span>
          <button type="button" className="ml-auto opacity-60 hover:opacity-100" aria-label="×" onClick={() => dismissToast(x.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

/**
 * SPEC section 8: "logged in elsewhere", close button only. A native modal <dialog> keeps focus
 * inside by itself and needs nothing from the lazy layout chunk.
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
      <h2 id="logged-elsewhere-title" className="text-lg font-semibold">{t('api.loggedElsewhereTitle')}</h2>
      <p className="mt-2 text-slate-700">{t('api.loggedElsewhere')}</p>
      <div className="mt-5 flex justify-end">
        <button type="button" className="btn btn-primary" autoFocus onClick={() => void resetSessionAndReload()}>
          {t('api.close')}
        </button>
      </div>
    </dialog>
  );
}
