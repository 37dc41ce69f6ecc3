import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useT } from '../i18n/index.js';

/** A yes/no question; Headless UI keeps focus inside and Escape cancels. */
export function ConfirmDialog({ open, text, onConfirm, onCancel }: { open: boolean; text: string; onConfirm: () => void; onCancel: () => void }) {
  const t = useT();
  return (
    <Dialog open={open} onClose={onCancel} className="relative z-50">
      <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-sm rounded-lg bg-white p-6 shadow-xl" data-testid="confirm-dialog">
          <DialogTitle className="text-base text-slate-800">{text}</DialogTitle>
          <div className="mt-5 flex justify-end gap-2">
            <button type="button" className="btn" onClick={onCancel} autoFocus>
              {t('common.cancel')}
            </button>
            <button type="button" className="btn btn-danger" onClick={onConfirm}>
              {t('common.confirm')}
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
