import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import type { FieldDef, FieldRule } from '#contract';
import { ApiError } from '../../api/client.js';
import { useLabelT } from '../../i18n/resources/index.js';
import { useDensity } from '../../ui/density.js';
import { LeaveGuard } from '../../ui/leave-guard.js';
import { DialogFrame, useAnchorPlacement, type Anchor } from '../../ui/anchored-frame.js';
import { confirmLeave } from '../../lib/leave-guard.js';
import { FieldInput } from './field-input.js';
import { language } from '../../lib/settings.js';
import {
  draftFromRecord,
  fillEmpty,
  onlyFields,
  recordFromDraft,
  serverFieldErrors,
  serverFieldLimit,
  type Draft,
  type FieldErrorCode,
} from './form-values.js';

export interface FormDialogProps {
  open: boolean;
  title: string;
  fields: readonly FieldDef[];
  /** Rules between the fields (a minimum not above its maximum). */
  rules?: readonly FieldRule[] | undefined;
  initial?: Record<string, unknown>;
  submitLabel: string;
  danger?: boolean;
  /** The question the form answers, under the title: it stays in view while the fields scroll. */
  question?: ReactNode;
  /** Text above the fields (what the action will do). */
  intro?: ReactNode;
  /** Room for a reviewer's facts side by side on a laptop, so they need no scrolling there. */
  wide?: boolean;
  /** Field labels other than the shared field.<key> ones. */
  labelOf?: (field: FieldDef) => string | undefined;
  keepsOldSecret?: boolean;
  /** The record the form is about, on screen: the dialog sits beside it, never over it. */
  anchor?: Anchor;
  /** Resolves when done; a rejection's message is shown on the form. */
  onSubmit: (values: Record<string, unknown>) => Promise<void>;
  onClose: () => void;
}

/**
 * A modal form (create, edit, action inputs): focus stays inside, Escape closes, errors stay on it.
 * Typed work is never dropped silently: closing it (Escape, a click outside, Cancel), leaving the
 * page or logging out with changes asks first, through the one leave guard. An edit cannot be
 * saved unchanged.
 */
export function FormDialog(props: FormDialogProps) {
  // Nothing while closed: a list keeps several forms at hand, and each closed one would be
  // rendered again with every page of rows. Each opening starts a fresh form.
  return props.open ? <OpenFormDialog {...props} /> : null;
}

function OpenFormDialog(props: FormDialogProps) {
  const {
    open,
    title,
    fields,
    rules,
    initial,
    submitLabel,
    danger,
    question,
    intro,
    wide = false,
    labelOf,
    keepsOldSecret,
    anchor,
    onSubmit,
    onClose,
  } = props;
  const placement = useAnchorPlacement(open, anchor);
  const t = useLabelT();
  const density = useDensity();
  const [draft, setDraft] = useState<Draft>(() => draftFromRecord(fields, initial, language.value));
  // What this opening started from: the draft differs from it once something was typed.
  const [start, setStart] = useState<Draft>(draft);
  const dirty = useMemo(() => open && JSON.stringify(draft) !== JSON.stringify(start), [open, draft, start]);
  const isEdit = initial !== undefined;
  const [errors, setErrors] = useState<Record<string, FieldErrorCode>>({});
  const [limits, setLimits] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState('');
  const [busy, setBusy] = useState(false);
  // `busy` disables the button one render late; a second press in between must not send again.
  const submitting = useRef(false);

  // Each opening starts from the record it was opened for; later renders must not wipe the typing.
  useEffect(() => {
    if (!open) return;
    const fresh = draftFromRecord(fields, initial, language.value);
    setDraft(fresh);
    setStart(fresh);
    setErrors({});
    setServerError('');
    // eslint-disable-next-line react-hooks/exhaustive-deps -- an opening resets the form, a new `initial` object does not
  }, [open]);

  // The form calls it without awaiting (`void`): every failure is caught below and shown on the form.
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting.current) return;
    const outcome = recordFromDraft(fields, draft, language.value, rules);
    setErrors(outcome.errors);
    setLimits(outcome.limits);
    setServerError('');
    if (Object.keys(outcome.errors).length > 0) {
      const first = fields.find((f) => outcome.errors[f.key]);
      if (first) document.querySelector<HTMLElement>(`[role="dialog"] [data-field="${first.key}"]`)?.focus();
      return;
    }
    setBusy(true);
    submitting.current = true;
    try {
      await onSubmit(outcome.values);
    } catch (error) {
      // The envelope's msg goes on the form; a field the backend names is marked as well.
      const data = error instanceof ApiError ? error.data : null;
      setErrors(serverFieldErrors(data, fields));
      setLimits(serverFieldLimit(data));
      setServerError(error instanceof Error && error.message ? error.message : t('engine.loadFailed'));
    } finally {
      submitting.current = false;
      setBusy(false);
    }
  };

  const requestClose = async () => {
    if (busy) return;
    // Closing a dialog leaves no page: the question is about the dialog's typed work.
    if (
      dirty &&
      !(await confirmLeave({
        title: t('engine.discardTitle'),
        text: t('engine.discardText'),
        stay: t('engine.discardKeep'),
        leave: t('engine.discard'),
      }))
    )
      return;
    onClose();
  };

  return (
    <Dialog open={open} onClose={() => void requestClose()} className="relative z-50">
      <LeaveGuard dirty={dirty && !busy} />
      {/* A full-height sheet on a phone (the body scrolls, the buttons stay in view); beside its record when it has one. */}
      <DialogFrame
        placement={placement}
        fallback="fixed inset-0 flex items-stretch justify-center sm:items-center sm:p-4"
      >
        <DialogPanel
          className={`flex w-full flex-col bg-white shadow-xl sm:max-w-lg ${wide ? 'lg:max-w-5xl' : ''} ${placement ? 'max-h-full rounded-lg' : 'h-full sm:h-auto sm:max-h-[90vh] sm:rounded-lg'}`}
          data-testid="form-dialog"
        >
          <form onSubmit={(e) => void submit(e)} noValidate className="flex min-h-0 flex-1 flex-col">
            <div className="shrink-0 border-b border-slate-200 px-5 py-3">
              <DialogTitle className="text-lg font-semibold text-slate-800">{title}</DialogTitle>
              {question && (
                <div className="mt-1 text-sm text-slate-700" data-testid="dialog-question">
                  {question}
                </div>
              )}
            </div>
            <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto px-5 py-4">
              {intro && <div className="text-sm text-slate-700">{intro}</div>}
              {fields.map((f, i) => (
                <FieldInput
                  key={f.key}
                  field={f}
                  value={draft[f.key]}
                  onChange={(v) => setDraft((d) => ({ ...d, [f.key]: v }))}
                  errorCode={errors[f.key]}
                  errorLimit={limits[f.key]}
                  t={t}
                  density={density}
                  label={labelOf?.(f)}
                  keepsOldSecret={keepsOldSecret}
                  autoFocus={i === 0}
                  onFill={(values, ifEmpty = {}) =>
                    setDraft((d) => ({ ...d, ...onlyFields(fields, values), ...fillEmpty(fields, d, ifEmpty) }))
                  }
                />
              ))}
              {serverError && (
                <p
                  role="alert"
                  className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
                  data-testid="form-server-error"
                >
                  {serverError}
                </p>
              )}
            </div>
            <div className="flex shrink-0 justify-end gap-2 border-t border-slate-200 px-5 py-3">
              <button type="button" className="btn" onClick={() => void requestClose()} disabled={busy}>
                {t('engine.cancel')}
              </button>
              <button
                type="submit"
                className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
                disabled={busy || (isEdit && !dirty)}
                data-testid="form-submit"
              >
                {busy ? t('engine.saving') : submitLabel}
              </button>
            </div>
          </form>
        </DialogPanel>
      </DialogFrame>
    </Dialog>
  );
}
