import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import type { LabelT } from '../../i18n/resources/index.js';

export interface BulkProgressState {
  title: string;
  /** Reading the matching rows, then sending the action over them. */
  phase: 'reading' | 'sending';
  count: number;
  total: number;
}

/** While an action runs over every matching record: how far it is, and a way to stop it between two calls. */
export function BulkProgressDialog({
  progress,
  t,
  onCancel,
}: {
  progress: BulkProgressState | null;
  t: LabelT;
  onCancel: () => void;
}) {
  if (progress === null) return null;
  const share = progress.total > 0 ? Math.min(100, Math.round((progress.count / progress.total) * 100)) : 0;
  return (
    <Dialog open={progress !== null} onClose={() => undefined} className="relative z-50">
      <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
      <div className="fixed inset-0 flex items-end justify-center sm:items-center sm:p-4">
        <DialogPanel
          className="w-full rounded-t-lg bg-white px-5 py-4 shadow-xl sm:max-w-md sm:rounded-lg"
          data-testid="bulk-progress"
          aria-busy="true"
        >
          <DialogTitle className="text-lg font-semibold text-slate-800">{progress?.title}</DialogTitle>
          <p
            className="mt-3 text-sm text-slate-700"
            role="status"
            data-testid="bulk-progress-text"
            data-phase={progress?.phase}
          >
            {progress &&
              t(progress.phase === 'reading' ? 'engine.bulkReading' : 'engine.bulkSending', {
                count: progress.count,
                total: progress.total,
              })}
          </p>
          <div
            className="mt-2 h-2 overflow-hidden rounded bg-slate-200"
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={progress?.total ?? 0}
            aria-valuenow={progress?.count ?? 0}
            aria-label={progress?.title}
          >
            {/* A new bar for each phase: reading's full bar must not shrink back, animated, as sending starts. */}
            <div
              key={progress?.phase}
              className="h-full bg-primary transition-[width]"
              style={{ width: `${share}%` }}
            />
          </div>
          <div className="mt-4 flex justify-end">
            <button type="button" className="btn" onClick={onCancel} data-testid="bulk-cancel">
              {t('engine.cancel')}
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
