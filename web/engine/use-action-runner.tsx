import { useRef, useState, type ReactNode } from 'react';
import type { ActionDef, FieldDef, Resource } from '#contract';
import { toast } from '../lib/toast.js';
import { useLabelT } from '../i18n/resources/index.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';
import { BulkSummaryDialog, type BulkOutcome, type Refusal } from './bulk-summary.js';
import { FormDialog } from './form-dialog.js';
import { actionLabel, fieldLabel } from './labels.js';
import { useActionMutation, type Row } from './queries.js';
import { RecordSummary, recordName } from './record-summary.js';
import { ResultDialog, type ResultRenderer } from './result-view.js';

/** Who an action is about: one row ({id}), a selection ({ids}) or the page ({}). */
export type ActionTarget = { id: unknown } | { ids: unknown[] } | Record<string, never>;

type Step =
  | { kind: 'idle' }
  | { kind: 'confirm'; action: ActionDef; target: ActionTarget; rows: readonly Row[] }
  | { kind: 'inputs'; action: ActionDef; target: ActionTarget; rows: readonly Row[] }
  | { kind: 'result'; action: ActionDef; data: unknown };

type Described = Pick<Resource, 'id' | 'path'> & { fields?: readonly FieldDef[]; recordFields?: readonly string[] };

/** One call of one action on one target: the unit that is never sent twice at the same time. */
export const callKey = (name: string, target: ActionTarget) =>
  `${name}:${'id' in target ? String(target.id) : 'ids' in target ? target.ids.map(String).join(',') : ''}`;

/**
 * Runs a named action the way its definition asks: inputs in a dialog, a confirmation naming the
 * records first when destructive or moving money, and the answer in a dialog when it `showsResult`.
 * A call already under way is not sent again, whatever is clicked meanwhile; a `perSelectedRow`
 * action over a selection goes row by row and ends with what went through and what was refused.
 */
export function useActionRunner(
  resource: Described,
  results?: Readonly<Record<string, ResultRenderer>>,
  onDone?: (action: ActionDef, target: ActionTarget) => void,
) {
  const t = useLabelT();
  const mutation = useActionMutation(resource);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [running, setRunning] = useState<ReadonlySet<string>>(new Set());
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);
  // State arrives one render late; a second click in the same frame must already see the first.
  const inFlight = useRef(new Set<string>());
  const described = { fields: resource.fields ?? [], recordFields: resource.recordFields };
  const nameOf = (row: Row) => recordName(t, described, row);
  // A resource that says which fields name its records gets questions and toasts naming them.
  const named = (rows: readonly Row[]) => (resource.recordFields?.length ? rows[0] : undefined);

  const question = (action: ActionDef, target: ActionTarget, rows: readonly Row[]) => {
    const name = actionLabel(t, action.name);
    if ('ids' in target) return t('engine.confirmActionMany', { action: name, count: target.ids.length });
    const row = named(rows);
    if ('id' in target) return row ? t('engine.confirmActionOn', { action: name, name: nameOf(row) }) : t('engine.confirmAction', { action: name });
    return t('engine.confirmPageAction', { action: name });
  };

  const mark = (key: string, on: boolean) => {
    if (on) inFlight.current.add(key);
    else inFlight.current.delete(key);
    setRunning(new Set(inFlight.current));
  };

  const finish = (action: ActionDef, target: ActionTarget, rows: readonly Row[], data: unknown) => {
    onDone?.(action, target);
    if (action.showsResult) setStep({ kind: 'result', action, data });
    else {
      setStep({ kind: 'idle' });
      const label = actionLabel(t, action.name);
      toast.success(
        rows.length === 1 && 'id' in target ? t('engine.actionDoneOn', { action: label, name: nameOf(rows[0]!) }) : t('engine.actionDone', { action: label }),
      );
    }
  };

  const run = async (action: ActionDef, target: ActionTarget, rows: readonly Row[], inputs: Row = {}, quiet = false) => {
    const key = callKey(action.name, target);
    if (inFlight.current.has(key)) return;
    mark(key, true);
    try {
      const data = await mutation.mutateAsync({ name: action.name, body: { ...target, ...inputs }, quiet });
      finish(action, target, rows, data);
    } finally {
      mark(key, false);
    }
  };

  /** A row action over several rows, one call each, so one refusal does not hide the others' outcome. */
  const runEach = async (action: ActionDef, rows: readonly Row[], inputs: Row = {}) => {
    const key = callKey(action.name, { ids: rows.map((r) => r.id) });
    if (inFlight.current.has(key)) return;
    mark(key, true);
    let done = 0;
    const refused: Refusal[] = [];
    try {
      for (const row of rows) {
        try {
          await mutation.mutateAsync({ name: action.name, body: { id: row.id, ...inputs }, quiet: true });
          done++;
          onDone?.(action, { id: row.id });
        } catch (error) {
          refused.push({ id: String(row.id), name: nameOf(row), message: error instanceof Error && error.message ? error.message : t('engine.loadFailed') });
        }
      }
    } finally {
      mark(key, false);
    }
    setStep({ kind: 'idle' });
    setOutcome({ title: actionLabel(t, action.name), done, refused });
  };

  const execute = (action: ActionDef, target: ActionTarget, rows: readonly Row[], inputs?: Row, quiet?: boolean) =>
    'ids' in target && action.target === 'row' ? runEach(action, rows, inputs) : run(action, target, rows, inputs, quiet);

  /** `rows`: the records the target names, shown in the confirmation. */
  const start = (action: ActionDef, target: ActionTarget, rows: readonly Row[] = []) => {
    if (inFlight.current.has(callKey(action.name, target))) return;
    if (action.inputs?.length) setStep({ kind: 'inputs', action, target, rows });
    else if (action.destructive || action.money) setStep({ kind: 'confirm', action, target, rows });
    else void run(action, target, rows).catch(() => setStep({ kind: 'idle' }));
  };

  const close = () => setStep({ kind: 'idle' });
  const confirming = step.kind === 'confirm' ? step : null;
  const asking = step.kind === 'inputs' ? step : null;
  const summary = (s: { action: ActionDef; rows: readonly Row[] }) =>
    s.action.money && s.rows.length > 0 ? <RecordSummary t={t} resource={described} rows={s.rows} /> : null;

  const dialogs: ReactNode = (
    <>
      <ConfirmDialog
        open={confirming !== null}
        text={confirming ? question(confirming.action, confirming.target, confirming.rows) : ''}
        busy={confirming !== null && running.has(callKey(confirming.action.name, confirming.target))}
        confirmLabel={confirming?.action.money ? actionLabel(t, confirming.action.name) : undefined}
        busyLabel={t('engine.running')}
        tone={confirming?.action.destructive ? 'danger' : 'primary'}
        onCancel={close}
        onConfirm={() => {
          if (!confirming) return;
          const { action, target, rows } = confirming;
          // The dialog stays, its buttons waiting, until the call has an answer.
          void execute(action, target, rows).catch(() => setStep({ kind: 'idle' }));
        }}
      >
        {confirming && summary(confirming)}
      </ConfirmDialog>
      <FormDialog
        open={asking !== null}
        title={asking ? actionLabel(t, asking.action.name) : ''}
        fields={asking ? (asking.action.inputs ?? []) : []}
        submitLabel={asking ? actionLabel(t, asking.action.name) : ''}
        danger={asking?.action.destructive}
        intro={
          asking && (asking.action.destructive || asking.action.money) ? (
            <>
              <p>{question(asking.action, asking.target, asking.rows)}</p>
              {summary(asking) && <div className="mt-2">{summary(asking)}</div>}
            </>
          ) : undefined
        }
        labelOf={(f) => fieldLabel(t, f.key)}
        onClose={close}
        onSubmit={async (values) => {
          if (!asking) return;
          await execute(asking.action, asking.target, asking.rows, values, true);
        }}
      />
      <ResultDialog
        open={step.kind === 'result'}
        title={step.kind === 'result' ? actionLabel(t, step.action.name) : ''}
        data={step.kind === 'result' ? step.data : null}
        renderer={step.kind === 'result' ? results?.[step.action.name] : undefined}
        onClose={close}
      />
      <BulkSummaryDialog outcome={outcome} t={t} onClose={() => setOutcome(null)} />
    </>
  );

  /** Whether this action's call on this row is under way (its button waits). */
  const isRunning = (name: string, id: unknown) => running.has(callKey(name, { id }));

  return { start, dialogs, pending: mutation.isPending || running.size > 0, running, isRunning };
}
