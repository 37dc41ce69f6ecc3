import { useState, type ReactNode } from 'react';
import type { ActionDef, Resource } from '#contract';
import { toast } from '../lib/toast.js';
import { useLabelT } from '../i18n/resources/index.js';
import { ConfirmDialog } from '../ui/confirm-dialog.js';
import { FormDialog } from './form-dialog.js';
import { actionLabel, fieldLabel } from './labels.js';
import { useActionMutation, type Row } from './queries.js';
import { ResultDialog, type ResultRenderer } from './result-view.js';

/** Who an action is about: one row ({id}), a selection ({ids}) or the page ({}). */
export type ActionTarget = { id: unknown } | { ids: unknown[] } | Record<string, never>;

type Step =
  | { kind: 'idle' }
  | { kind: 'confirm'; action: ActionDef; target: ActionTarget }
  | { kind: 'inputs'; action: ActionDef; target: ActionTarget }
  | { kind: 'result'; action: ActionDef; data: unknown };

/**
 * Runs a named action the way its definition asks: inputs in a dialog, a confirmation first when
 * destructive, and the answer in a dialog when it `showsResult`.
 */
export function useActionRunner(
  resource: Pick<Resource, 'id' | 'path'>,
  results?: Readonly<Record<string, ResultRenderer>>,
  onDone?: (action: ActionDef, target: ActionTarget) => void,
) {
  const t = useLabelT();
  const mutation = useActionMutation(resource);
  const [step, setStep] = useState<Step>({ kind: 'idle' });

  const question = (action: ActionDef, target: ActionTarget) => {
    const name = actionLabel(t, action.name);
    if ('ids' in target) return t('engine.confirmActionMany', { action: name, count: target.ids.length });
    if ('id' in target) return t('engine.confirmAction', { action: name });
    return t('engine.confirmPageAction', { action: name });
  };

  const finish = (action: ActionDef, target: ActionTarget, data: unknown) => {
    onDone?.(action, target);
    if (action.showsResult) setStep({ kind: 'result', action, data });
    else {
      setStep({ kind: 'idle' });
      toast.success(t('engine.actionDone', { action: actionLabel(t, action.name) }));
    }
  };

  const run = async (action: ActionDef, target: ActionTarget, inputs: Row = {}, quiet = false) => {
    const data = await mutation.mutateAsync({ name: action.name, body: { ...target, ...inputs }, quiet });
    finish(action, target, data);
  };

  const start = (action: ActionDef, target: ActionTarget) => {
    if (action.inputs?.length) setStep({ kind: 'inputs', action, target });
    else if (action.destructive) setStep({ kind: 'confirm', action, target });
    else void run(action, target).catch(() => setStep({ kind: 'idle' }));
  };

  const close = () => setStep({ kind: 'idle' });

  const dialogs: ReactNode = (
    <>
      <ConfirmDialog
        open={step.kind === 'confirm'}
        text={step.kind === 'confirm' ? question(step.action, step.target) : ''}
        onCancel={close}
        onConfirm={() => {
          if (step.kind !== 'confirm') return;
          const { action, target } = step;
          setStep({ kind: 'idle' });
          void run(action, target).catch(() => undefined);
        }}
      />
      <FormDialog
        open={step.kind === 'inputs'}
        title={step.kind === 'inputs' ? actionLabel(t, step.action.name) : ''}
        fields={step.kind === 'inputs' ? (step.action.inputs ?? []) : []}
        submitLabel={step.kind === 'inputs' ? actionLabel(t, step.action.name) : ''}
        danger={step.kind === 'inputs' && step.action.destructive}
        intro={step.kind === 'inputs' && step.action.destructive ? question(step.action, step.target) : undefined}
        labelOf={(f) => fieldLabel(t, f.key)}
        onClose={close}
        onSubmit={async (values) => {
          if (step.kind !== 'inputs') return;
          await run(step.action, step.target, values, true);
        }}
      />
      <ResultDialog
        open={step.kind === 'result'}
        title={step.kind === 'result' ? actionLabel(t, step.action.name) : ''}
        data={step.kind === 'result' ? step.data : null}
        renderer={step.kind === 'result' ? results?.[step.action.name] : undefined}
        onClose={close}
      />
    </>
  );

  return { start, dialogs, pending: mutation.isPending };
}
