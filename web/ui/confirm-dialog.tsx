import type { ReactNode } from 'react';
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useT } from '../i18n/index.js';
import { DialogFrame, useAnchorPlacement, type Anchor } from './anchored-frame.js';

export interface ConfirmDialogProps {
  open: boolean;
  text: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** What the question is about, under it (the records an action will change). */
  children?: ReactNode;
  /** The answer is being carried out: both buttons wait, so nothing is sent twice. */
  busy?: boolean;
  /** The confirming button's label when "Confirm" says too little ("Approve"). */
  confirmLabel?: string;
  busyLabel?: string;
  /** A red button for what cannot be taken back (the default), the primary colour otherwise. */
  tone?: 'danger' | 'primary';
  /** The record the question is about, on screen: the dialog sits beside it, never over it. */
  anchor?: Anchor;
  /** Said under the question, before any click (an approval that will wait for a second approver). */
  note?: ReactNode;
  /** Room for a reviewer's facts side by side on a laptop, so they need no scrolling there. */
  wide?: boolean;
}

/**
 * A yes/no question; Headless UI keeps focus inside and Escape cancels. On a phone it is a sheet
 * as high as the screen allows, its buttons always in view below a scrolling body. With an
 * `anchor` it sits above or below that record instead, as high as the room there allows.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const {
    open,
    text,
    onConfirm,
    onCancel,
    children,
    busy = false,
    confirmLabel,
    busyLabel,
    tone = 'danger',
    anchor,
    note,
    wide = false,
  } = props;
  const t = useT();
  const placement = useAnchorPlacement(open, anchor);
  return (
    // Only Cancel or Escape answers no: the second click of a double click that opened the
    // question lands outside it and must not dismiss it.
    <Dialog open={open} onClose={() => undefined} className="relative z-50">
      <DialogFrame placement={placement} fallback="fixed inset-0 flex items-end justify-center sm:items-center sm:p-4">
        <DialogPanel
          className={`flex max-h-full w-full flex-col bg-white shadow-xl sm:max-w-md ${wide ? 'lg:max-w-5xl' : ''} ${placement ? 'rounded-lg' : 'rounded-t-lg sm:max-h-[90vh] sm:rounded-lg'}`}
          data-testid="confirm-dialog"
          aria-busy={busy || undefined}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !busy) onCancel();
          }}
        >
          {/* The question stays in view above what scrolls: it is what the buttons answer. */}
          <div className="shrink-0 px-6 pt-6 pb-3" data-testid="dialog-question">
            <DialogTitle className="text-base text-slate-800">{text}</DialogTitle>
            {note}
          </div>
          {/* A tab stop: when the reviewer's facts overflow (a phone, a dialog placed beside its
              row with little height), the keyboard must be able to scroll them. */}
          {children && (
            <div
              className="min-h-0 overflow-y-auto px-6 py-1 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-primary"
              tabIndex={0}
              data-testid="dialog-body"
            >
              {children}
            </div>
          )}
          <div className="flex shrink-0 justify-end gap-2 px-6 py-5">
            <button type="button" className="btn" onClick={onCancel} disabled={busy} autoFocus>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className={`btn ${tone === 'danger' ? 'btn-danger' : 'btn-primary'}`}
              onClick={() => !busy && onConfirm()}
              disabled={busy}
              data-testid="confirm-yes"
            >
              {busy ? (busyLabel ?? t('common.loading')) : (confirmLabel ?? t('common.confirm'))}
            </button>
          </div>
        </DialogPanel>
      </DialogFrame>
    </Dialog>
  );
}
