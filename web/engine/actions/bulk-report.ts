import { showToast, type ToastAction } from '../../lib/toast.js';
import type { LabelT } from '../../i18n/resources/index.js';
import { doneText, namesText } from '../record/record-names.js';

export interface Refusal {
  id: string;
  name: string;
  message: string;
}

export interface BulkOutcome {
  /** The names of the records the action went through on, in the order they were sent. */
  done: readonly string[];
  /** Held by the gateway for a second approver: nothing changed yet. */
  held?: number;
  refused: readonly Refusal[];
  /** Rows left out because the action does not apply to them, and why in words. */
  skipped?: { count: number; why: string };
  /** Stopped by the administrator before every row was sent. */
  cancelled?: boolean;
}

/**
 * A bulk report stays longer than a single action's toast: it may say several things at once
 * (done, skipped, refused), each worth reading, and an Undo over many records is worth reaching.
 */
export const BULK_TOAST_MS = 10_000;

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

/** What a bulk report says, one toast each: the kind and the words. */
export function bulkReport(
  t: LabelT,
  action: string,
  outcome: BulkOutcome,
): { kind: 'success' | 'info' | 'warning'; text: string }[] {
  const lines: { kind: 'success' | 'info' | 'warning'; text: string }[] = [];
  if (outcome.done.length > 0) lines.push({ kind: 'success', text: doneText(t, action, namesText(t, outcome.done)) });
  if (outcome.held) lines.push({ kind: 'info', text: t('approvals.bulkHeld', { count: outcome.held }) });
  if (outcome.skipped && outcome.skipped.count > 0)
    lines.push({
      kind: 'info',
      text: t('engine.bulkSkipped', { count: outcome.skipped.count, why: outcome.skipped.why }),
    });
  for (const { message, rows } of groupRefusals(outcome.refused))
    lines.push({
      kind: 'warning',
      text: t('engine.bulkRefusedOn', {
        count: rows.length,
        names: namesText(
          t,
          rows.map((r) => r.name),
        ),
        why: message,
      }),
    });
  if (outcome.cancelled) lines.push({ kind: 'warning', text: t('engine.bulkCancelled') });
  return lines;
}

/**
 * After an action ran over a selection, the same way a single action ends: a toast naming the
 * records it went through on, with Undo where the action has one; beside it what was held, what
 * did not apply and, against its records, each reason a record was refused. No dialog to close.
 */
export function showBulkReport(t: LabelT, action: string, outcome: BulkOutcome, undo?: ToastAction): void {
  for (const line of bulkReport(t, action, outcome))
    showToast(line.kind, line.text, BULK_TOAST_MS, line.kind === 'success' ? undo : undefined);
}
