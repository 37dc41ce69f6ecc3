import { useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { HELD_APPROVAL, resourceCalls, type ActionDef, type FieldDef, type Resource } from '#contract';
import { api, type Query } from '../../api/client.js';
import { toast } from '../../lib/toast.js';
import { useLabelT } from '../../i18n/resources/index.js';
import { ConfirmDialog } from '../../ui/confirm-dialog.js';
import { asksFirst, undoAction } from './actions.js';
import { showBulkReport, type BulkOutcome, type Refusal } from './bulk-report.js';
import { BULK_CHUNK_SIZE, chunk } from './bulk-run.js';
import { FormDialog } from '../form/form-dialog.js';
import { actionLabel, fieldLabel } from '../shared/labels.js';
import { resourceKeys, useActionMutation, type Row } from '../shared/queries.js';
import { doneText, namesText } from '../record/record-names.js';
import { actionQuestion, actionTitle, type ActionTarget, type WordingContext } from './action-wording.js';
import { currencyOfRows, recordMoney } from '../shared/money-currency.js';
import { RecordSummary, recordName } from '../record/record-summary.js';
import { ResultDialog, type ResultRenderer } from '../operation/result-view.js';
import { useMatchingRun } from './use-matching-run.js';
import { partlyDone } from './partly-done.js';
import { useHeldAbove, useHeldAnswer } from './approvals.js';
import { holdSubject } from './hold-subject.js';
import { NeedsSecondApprover } from './needs-second-approver.js';
import type { ActionContextRenderer } from './action-context.js';

/**
 * Who an action is about: one row ({id}), a selection ({ids}), every record matching the list's
 * filters ({matching}, `total` of them when asked) or the page ({}).
 */
export type { ActionTarget };

type Matching = { matching: Query; total: number };
const isMatching = (target: ActionTarget): target is Matching => 'matching' in target;

type Step =
  | { kind: 'idle' }
  | { kind: 'confirm'; action: ActionDef; target: ActionTarget; rows: readonly Row[] }
  | { kind: 'inputs'; action: ActionDef; target: ActionTarget; rows: readonly Row[] }
  | { kind: 'result'; action: ActionDef; data: unknown; title: string };

type Described = Pick<Resource, 'id' | 'path'> & {
  fields?: readonly FieldDef[];
  recordFields?: readonly string[];
  payee?: { field: string; account?: string };
  actions?: readonly ActionDef[];
};

/** One call of one action on one target: the unit that is never sent twice at the same time. */
export const callKey = (name: string, target: ActionTarget) =>
  `${name}:${'id' in target ? String(target.id) : 'ids' in target ? target.ids.map(String).join(',') : 'matching' in target ? '*' : ''}`;

/**
 * Runs a named action the way its definition asks: inputs in a dialog, a confirmation naming the
 * records first when it moves money or is destructive beyond undoing, and the answer in a dialog
 * when it `showsResult`. An action with an `undo` runs at once and its toast offers the undo.
 * A call already under way is not sent again, whatever is clicked meanwhile; a `perSelectedRow`
 * action over a selection goes row by row and ends with what went through and what was refused.
 */
export function useActionRunner(
  resource: Described,
  results?: Readonly<Record<string, ResultRenderer>>,
  onDone?: (action: ActionDef, target: ActionTarget) => void,
  /** Shown under the records in a money action's confirmation. */
  context?: ActionContextRenderer,
  /** The element showing a record on screen: a dialog about that one record keeps clear of it. */
  rowElement?: (id: unknown) => HTMLElement | null,
) {
  const t = useLabelT();
  const client = useQueryClient();
  const mutation = useActionMutation(resource);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [running, setRunning] = useState<ReadonlySet<string>>(new Set());
  // State arrives one render late; a second click in the same frame must already see the first.
  const inFlight = useRef(new Set<string>());
  const heldAnswer = useHeldAnswer();
  const described = {
    id: resource.id,
    fields: resource.fields ?? [],
    recordFields: resource.recordFields,
    payee: resource.payee,
  };
  const nameOf = (row: Row) => recordName(t, described, row);
  const names = (rows: readonly Row[]) => namesText(t, rows.map(nameOf));
  const wording: WordingContext = {
    t,
    described,
    nameOf,
    money: (cents, rows) => recordMoney(cents, currencyOfRows(rows)),
  };
  // The one action dual control may hold: its dialog says beforehand when it will be held.
  const heldAbove = useHeldAbove(resource.id === HELD_APPROVAL.resource);
  const question = (action: ActionDef, target: ActionTarget, rows: readonly Row[]) =>
    actionQuestion(wording, action, target, rows);
  const title = (action: ActionDef, target: ActionTarget, rows: readonly Row[]) =>
    actionTitle(wording, action, target, rows);
  const anchorOf = (target: ActionTarget) => ('id' in target && rowElement ? () => rowElement(target.id) : undefined);

  const mark = (key: string, on: boolean) => {
    if (on) inFlight.current.add(key);
    else inFlight.current.delete(key);
    setRunning(new Set(inFlight.current));
  };

  /** Runs the reverse of `action` on the records it has just changed. */
  const undo = async (action: ActionDef, ids: readonly unknown[], rows: readonly Row[]) => {
    const reverse = undoAction(resource, action, ids.length > 1);
    if (!reverse) return;
    const key = callKey(reverse.name, { ids: [...ids] });
    if (inFlight.current.has(key)) return;
    mark(key, true);
    try {
      // A selection of thousands goes back in chunks, as it went.
      if (reverse.target === 'bulk')
        for (const part of chunk(ids, BULK_CHUNK_SIZE))
          await mutation.mutateAsync({ name: reverse.name, body: { ids: part } });
      else for (const id of ids) await mutation.mutateAsync({ name: reverse.name, body: { id } });
      onDone?.(reverse, ids.length === 1 ? { id: ids[0] } : { ids: [...ids] });
      toast.success(doneText(t, reverse.name, names(rows)));
    } catch {
      // The API client has already told the user what went wrong.
    } finally {
      mark(key, false);
    }
  };

  /** The report of a run over several records: a toast naming those done, Undo on it where the action has one. */
  const report = (action: ActionDef, outcome: Omit<BulkOutcome, 'done'>, done: readonly Row[]) => {
    const ids = done.map((r) => r.id);
    const canUndo = ids.length > 0 && undoAction(resource, action, ids.length > 1) !== undefined;
    showBulkReport(
      t,
      action.name,
      { ...outcome, done: done.map(nameOf) },
      canUndo ? { label: t('engine.undo'), run: () => void undo(action, ids, done) } : undefined,
    );
  };

  const finish = (action: ActionDef, target: ActionTarget, rows: readonly Row[], data: unknown) => {
    onDone?.(action, target);
    if (action.showsResult) {
      setStep({ kind: 'result', action, data, title: title(action, target, rows) });
      return;
    }
    setStep({ kind: 'idle' });
    const ids = 'id' in target ? [target.id] : 'ids' in target ? target.ids : [];
    const named = rows.length > 0 && rows.length === ids.length ? names(rows) : '';
    const canUndo = ids.length > 0 && undoAction(resource, action, ids.length > 1) !== undefined;
    toast.success(
      doneText(t, action.name, named),
      canUndo ? { label: t('engine.undo'), run: () => void undo(action, ids, rows) } : undefined,
    );
  };

  const run = async (
    action: ActionDef,
    target: ActionTarget,
    rows: readonly Row[],
    inputs: Row = {},
    quiet = false,
  ) => {
    const key = callKey(action.name, target);
    if (inFlight.current.has(key)) return;
    mark(key, true);
    try {
      const data = await mutation.mutateAsync({ name: action.name, body: { ...target, ...inputs }, quiet });
      if (heldAnswer(data)) {
        // Nothing changed yet: the gateway keeps the call until a second administrator confirms it.
        setStep({ kind: 'idle' });
        const ids = 'id' in target ? [String(target.id)] : 'ids' in target ? target.ids.map(String) : [];
        toast.info(t('approvals.heldAction', { subject: holdSubject(t, described, action.name, rows, ids) }));
        return;
      }
      finish(action, target, rows, data);
    } catch (error) {
      // A selection the backend took in part: what went through and why each other row did not.
      const partly = 'ids' in target ? partlyDone(error) : null;
      if (!partly) throw error;
      const why = new Map(partly.refused.map((r) => [r.id, r.message]));
      const refused = rows
        .filter((r) => why.has(String(r.id)))
        .map((r) => ({ id: String(r.id), name: nameOf(r), message: why.get(String(r.id))! }));
      const done = rows.filter((r) => partly.done.includes(String(r.id)));
      setStep({ kind: 'idle' });
      report(action, { refused }, done);
      if (done.length > 0) onDone?.(action, { ids: done.map((r) => r.id) });
    } finally {
      mark(key, false);
    }
  };

  /** A row action over several rows, one call each, so one refusal does not hide the others' outcome. */
  const runEach = async (action: ActionDef, rows: readonly Row[], inputs: Row = {}) => {
    const key = callKey(action.name, { ids: rows.map((r) => r.id) });
    if (inFlight.current.has(key)) return;
    mark(key, true);
    const done: Row[] = [];
    let held = 0;
    const refused: Refusal[] = [];
    try {
      for (const row of rows) {
        try {
          const data = await mutation.mutateAsync({ name: action.name, body: { id: row.id, ...inputs }, quiet: true });
          if (heldAnswer(data)) {
            held++;
            continue;
          }
          done.push(row);
          onDone?.(action, { id: row.id });
        } catch (error) {
          refused.push({
            id: String(row.id),
            name: nameOf(row),
            message: error instanceof Error && error.message ? error.message : t('engine.loadFailed'),
          });
        }
      }
    } finally {
      mark(key, false);
    }
    setStep({ kind: 'idle' });
    report(action, { held, refused }, done);
  };

  // Chunks go straight to the API, the list refreshed once at the end rather than after each call.
  const matching = useMatchingRun(
    resource,
    t,
    async (name, body) => (await api.post<unknown>(resourceCalls(resource).action(name), body, { quiet: true })).data,
    nameOf,
    (action, outcome, done) => {
      void client.invalidateQueries({ queryKey: resourceKeys.all(resource) });
      report(action, outcome, done);
      if (done.length > 0) onDone?.(action, { ids: done.map((r) => r.id) });
    },
  );

  const runMatching = async (action: ActionDef, target: Matching, inputs: Row = {}) => {
    const key = callKey(action.name, target);
    if (inFlight.current.has(key)) return;
    mark(key, true);
    setStep({ kind: 'idle' });
    try {
      await matching.run(action, target.matching, inputs, title(action, target, []));
    } finally {
      mark(key, false);
    }
  };

  const execute = (action: ActionDef, target: ActionTarget, rows: readonly Row[], inputs?: Row, quiet?: boolean) =>
    isMatching(target)
      ? runMatching(action, target, inputs)
      : 'ids' in target && action.target === 'row'
        ? runEach(action, rows, inputs)
        : run(action, target, rows, inputs, quiet);

  /** `rows`: the records the target names, shown in the confirmation. */
  const start = (action: ActionDef, target: ActionTarget, rows: readonly Row[] = []) => {
    if (inFlight.current.has(callKey(action.name, target))) return;
    if (action.inputs?.length) setStep({ kind: 'inputs', action, target, rows });
    else if (asksFirst(action)) setStep({ kind: 'confirm', action, target, rows });
    else void execute(action, target, rows).catch(() => setStep({ kind: 'idle' }));
  };

  const close = () => setStep({ kind: 'idle' });
  const confirming = step.kind === 'confirm' ? step : null;
  const asking = step.kind === 'inputs' ? step : null;
  const Context = context;
  // Side by side on a laptop: the record, then the reviewer's facts, all in view without scrolling.
  const summary = (s: { action: ActionDef; rows: readonly Row[] }) =>
    s.action.money && s.rows.length > 0 ? (
      <div className="flex flex-col gap-3 lg:flex-row lg:items-start">
        <div className="lg:w-72 lg:shrink-0">
          <RecordSummary t={t} resource={described} rows={s.rows} />
        </div>
        {Context && (
          <div className="min-w-0 lg:flex-1">
            <Context resource={described} rows={s.rows} t={t} />
          </div>
        )}
      </div>
    ) : null;
  const wide = (s: { action: ActionDef } | null) => !!(s?.action.money && Context);
  const secondNote = (s: { action: ActionDef; rows: readonly Row[] } | null) =>
    s && s.action.name === HELD_APPROVAL.action && heldAbove !== null ? (
      <NeedsSecondApprover t={t} rows={s.rows} above={heldAbove} />
    ) : undefined;

  const dialogs: ReactNode = (
    <>
      <ConfirmDialog
        open={confirming !== null}
        text={confirming ? question(confirming.action, confirming.target, confirming.rows) : ''}
        anchor={confirming ? anchorOf(confirming.target) : undefined}
        busy={confirming !== null && running.has(callKey(confirming.action.name, confirming.target))}
        confirmLabel={confirming?.action.money ? actionLabel(t, confirming.action.name) : undefined}
        busyLabel={t('engine.running')}
        tone={confirming?.action.destructive ? 'danger' : 'primary'}
        note={secondNote(confirming)}
        wide={wide(confirming)}
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
        title={asking ? title(asking.action, asking.target, asking.rows) : ''}
        anchor={asking ? anchorOf(asking.target) : undefined}
        fields={asking ? (asking.action.inputs ?? []) : []}
        submitLabel={asking ? actionLabel(t, asking.action.name) : ''}
        danger={asking?.action.destructive}
        wide={wide(asking)}
        question={
          asking && asksFirst(asking.action) ? (
            <>
              <p>{question(asking.action, asking.target, asking.rows)}</p>
              {secondNote(asking)}
            </>
          ) : undefined
        }
        intro={
          asking && asksFirst(asking.action) ? (
            (summary(asking) ?? undefined)
          ) : asking && asking.rows.length > 0 && !isMatching(asking.target) ? (
            // Whom the inputs are for, field by field, as in a confirmation: the title alone
            // names them, the summary tells two alike apart.
            <RecordSummary t={t} resource={described} rows={asking.rows} />
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
        title={step.kind === 'result' ? step.title : ''}
        data={step.kind === 'result' ? step.data : null}
        renderer={step.kind === 'result' ? results?.[step.action.name] : undefined}
        onClose={close}
      />
      {matching.dialog}
    </>
  );

  /** Whether this action's call on this row is under way (its button waits). */
  const isRunning = (name: string, id: unknown) => running.has(callKey(name, { id }));

  return { start, dialogs, pending: mutation.isPending || running.size > 0, running, isRunning };
}
