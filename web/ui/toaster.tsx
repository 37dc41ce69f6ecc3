import { useSignals } from '@preact/signals-react/runtime';
import { dismissToast, holdToast, releaseToast, toasts, type ToastKind } from '../lib/toast.js';

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
    <div
      className="pointer-events-none fixed inset-x-0 top-3 z-[100] flex flex-col items-center gap-2 px-3"
      aria-live="polite"
    >
      {list.map((x) => (
        <div
          key={x.id}
          role={x.kind === 'error' ? 'alert' : 'status'}
          data-toast={x.kind}
          className={`toast-in pointer-events-auto flex max-w-lg items-start gap-3 rounded-md border px-4 py-2 text-sm shadow-md ${KIND_CLASS[x.kind]}`}
          onMouseEnter={() => holdToast(x.id)}
          onMouseLeave={() => releaseToast(x.id)}
          onFocus={() => holdToast(x.id)}
          onBlur={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget)) releaseToast(x.id);
          }}
        >
          <span className="break-words">{x.text}</span>
          {x.action && (
            <button
              type="button"
              className="shrink-0 rounded font-semibold underline underline-offset-2 hover:no-underline focus-visible:outline-2 focus-visible:outline-current"
              data-toast-action
              onClick={() => {
                dismissToast(x.id);
                x.action!.run();
              }}
            >
              {x.action.label}
            </button>
          )}
          <button
            type="button"
            className="ml-auto opacity-60 hover:opacity-100"
            aria-label="×"
            onClick={() => dismissToast(x.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
