import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import type { LabelT } from '../../i18n/resources/index.js';
import { namesText } from '../record/record-names.js';

export interface Refusal {
  id: string;
  name: string;
  message: string;
}

export interface BulkOutcome {
  title: string;
  done: number;
  /** Held by the gateway for a second approver: nothing changed yet. */
  held?: number;
  refused: readonly Refusal[];
  /** Rows left out because the action does not apply to them, and why in words. */
  skipped?: { count: number; why: string };
  /** Stopped by the administrator before every row was sent. */
  cancelled?: boolean;
}

/** Refusals with the same reason, in the order they came: a chunk refused whole gives one reason for all its rows. */
export function groupRefusals(refused: readonly Refusal[]): { message: string; rows: Refusal[] }[] {
  const groups = new Map<string, Refusal[]>();
  for (const r of refused) {
    const rows = groups.get(r.message);
    if (rows) rows.push(r);
    else groups.set(r.message, [r]);
  }
  return [...groups].map(([message, rows]) => ({ message, rows }));
}

/** After an action ran over a selection: how many went through, how many did not apply, and why each other one was refused. */
export function BulkSummaryDialog({
  outcome,
  t,
  onClose,
}: {
  outcome: BulkOutcome | null;
  t: LabelT;
  onClose: () => void;
}) {
  if (outcome === null) return null;
  return (
    <Dialog open={outcome !== null} onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
      <div className="fixed inset-0 flex items-end justify-center sm:items-center sm:p-4">
        <DialogPanel
          className="flex max-h-full w-full flex-col rounded-t-lg bg-white shadow-xl sm:max-h-[90vh] sm:max-w-md sm:rounded-lg"
          data-testid="bulk-summary"
        >
          <DialogTitle className="border-b border-slate-200 px-5 py-3 text-lg font-semibold text-slate-800">
            {outcome?.title}
          </DialogTitle>
          <div className="min-h-0 overflow-y-auto px-5 py-4 text-sm text-slate-700">
            <p data-testid="bulk-done">{t('engine.bulkDone', { count: outcome?.done ?? 0 })}</p>
            {!!outcome?.held && (
              <p className="mt-2 font-medium text-amber-700" data-testid="bulk-held">
                {t('approvals.bulkHeld', { count: outcome.held })}
              </p>
            )}
            {outcome?.skipped && outcome.skipped.count > 0 && (
              <p className="mt-2" data-testid="bulk-skipped">
                {t('engine.bulkSkipped', { count: outcome.skipped.count, why: outcome.skipped.why })}
              </p>
            )}
            {outcome?.cancelled && (
              <p className="mt-2 font-medium text-amber-700" data-testid="bulk-cancelled">
                {t('engine.bulkCancelled')}
              </p>
            )}
            {outcome && outcome.refused.length > 0 && (
              <>
                <p className="mt-2 font-medium text-red-700" data-testid="bulk-refused">
                  {t('engine.bulkRefused', { count: outcome.refused.length })}
                </p>
                <ul className="mt-1 flex flex-col gap-1">
                  {groupRefusals(outcome.refused).map(({ message, rows }) =>
                    rows.length === 1 ? (
                      <li key={rows[0]!.id} data-refused-id={rows[0]!.id}>
                        <span className="font-medium">{rows[0]!.name}</span>: {message}
                      </li>
                    ) : (
                      // Many rows for one reason: the reason once, then whose.
                      <li key={`group:${message}`} data-refused-group={rows.length}>
                        <span className="font-medium">
                          {namesText(
                            t,
                            rows.map((r) => r.name),
                          )}
                        </span>
                        : {message}
                      </li>
                    ),
                  )}
                </ul>
              </>
            )}
          </div>
          <div className="flex justify-end border-t border-slate-200 px-5 py-3">
            <button type="button" className="btn btn-primary" onClick={onClose}>
              {t('engine.close')}
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
