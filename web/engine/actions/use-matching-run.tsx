import { useRef, useState, type ReactNode } from 'react';
import type { ActionDef, FieldDef, Resource } from '#contract';
import type { Query } from '../../api/client.js';
import type { LabelT } from '../../i18n/resources/index.js';
import { BulkProgressDialog, type BulkProgressState } from './bulk-progress.js';
import type { BulkOutcome } from './bulk-report.js';
import { collectMatching, readerOf, sendInChunks } from './bulk-run.js';
import { actionLabel, fieldLabel, optionLabel } from '../shared/labels.js';
import type { Row } from '../shared/queries.js';

type Send = (name: string, body: Row) => Promise<unknown>;

/** Why an action's `when` leaves a row out, in words: "Status: Normal". */
export function whyNotApplied(t: LabelT, action: Pick<ActionDef, 'when'>): string {
  if (!action.when) return '';
  const { field, in: values } = action.when;
  return `${fieldLabel(t, field)}: ${values.map((v) => optionLabel(t, field, v)).join(' / ')}`;
}

/**
 * An action over every record matching the list's filters (the "select all N matching" of a
 * list): reads them page by page, sends the action in chunks with a progress dialog the
 * administrator may stop, and ends with a report of what went through (with Undo where the action has
 * one), what did not apply and what was refused.
 */
export function useMatchingRun(
  resource: Pick<Resource, 'id' | 'path'> & { fields?: readonly FieldDef[] },
  t: LabelT,
  send: Send,
  nameOf: (row: Row) => string,
  report: (action: ActionDef, outcome: BulkOutcome, done: readonly Row[]) => void,
) {
  const [progress, setProgress] = useState<BulkProgressState | null>(null);
  const stop = useRef<AbortController | null>(null);

  /** `named`: the dialogs' title naming the records ("Ban: all 1,234 matching records"); the action's name when absent. */
  const run = async (action: ActionDef, params: Query, inputs: Row, named?: string) => {
    const controller = new AbortController();
    stop.current = controller;
    const title = named ?? actionLabel(t, action.name);
    setProgress({ title, phase: 'reading', count: 0, total: 0 });
    try {
      let rows: Row[];
      try {
        rows = await collectMatching(readerOf(resource), params, controller.signal, (count, total) =>
          setProgress({ title, phase: 'reading', count, total }),
        );
      } catch (error) {
        // Stopped while reading: nothing was sent, so there is nothing to report.
        if (controller.signal.aborted) return;
        throw error;
      }
      const result = await sendInChunks({
        action,
        rows,
        send: (body) => send(action.name, { ...body, ...inputs }),
        nameOf,
        fallbackMessage: t('engine.loadFailed'),
        signal: controller.signal,
        onProgress: (count, total) => setProgress({ title, phase: 'sending', count, total }),
      });
      report(
        action,
        {
          done: result.done.map(nameOf),
          refused: result.refused,
          skipped: { count: result.skipped, why: whyNotApplied(t, action) },
          cancelled: result.cancelled,
        },
        result.done,
      );
    } finally {
      stop.current = null;
      setProgress(null);
    }
  };

  const dialog: ReactNode = <BulkProgressDialog progress={progress} t={t} onCancel={() => stop.current?.abort()} />;
  return { run, dialog };
}
