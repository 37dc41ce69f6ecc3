import { useState, type ReactNode } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import type { ApprovalView, FieldDef, FieldRule } from '#contract';
import { APPROVAL_LIMITS, checkRules } from '#contract';
import type { LabelT } from '../../i18n/resources/index.js';
import { formatDateTime } from '../../lib/format.js';
import { language } from '../../lib/settings.js';
import { toast } from '../../lib/toast.js';
import { ConfirmDialog } from '../../ui/confirm-dialog.js';
import { useSettleApproval } from './approvals.js';
import { FormDialog } from '../form/form-dialog.js';
import { fieldLabel } from '../shared/labels.js';
import { RecordSummary } from '../record/record-summary.js';
import { holdSubject } from './hold-subject.js';
import type { ActionContextRenderer, Described } from './action-context.js';
import { valueText } from '../shared/value-cell.js';

const REASON: readonly FieldDef[] = [
  { key: 'reason', kind: 'text', required: true, maxLength: APPROVAL_LIMITS.reasonMaxChars },
];

/** What an action hold moves ("Approve #459 · ¥1,013.00 to Santander ...8759"), as every place it shows says it. */
const subjectOf = (t: LabelT, resource: Described, hold: ApprovalView) =>
  holdSubject(t, resource, hold.action ?? '', hold.records, hold.targets);

/** Who asked, by the account they logged in with; their user id for a hold kept from before names were. */
const requesterOf = (t: LabelT, hold: ApprovalView) =>
  hold.requestedByName ?? t('approvals.administratorId', { id: hold.requestedBy });

/** A held settings save, field by field: what the screen holds now, and what the save would make it. */
export function ChangesTable({ hold, resource, t }: { hold: ApprovalView; resource: Described; t: LabelT }) {
  const fieldOf = (key: string): FieldDef => resource.fields.find((f) => f.key === key) ?? { key, kind: 'text' };
  const shown = (change: ApprovalView['changes'][number], value: unknown) =>
    change.secret ? t('approvals.secretChanged') : valueText(t, fieldOf(change.key), value) || '—';
  return (
    <table className="w-full text-left text-sm" data-testid="held-changes">
      <thead className="text-slate-500">
        <tr>
          <th scope="col" className="py-1 pr-3 font-medium">
            {t('approvals.field')}
          </th>
          <th scope="col" className="py-1 pr-3 font-medium">
            {t('approvals.before')}
          </th>
          <th scope="col" className="py-1 font-medium">
            {t('approvals.after')}
          </th>
        </tr>
      </thead>
      <tbody>
        {hold.changes.map((change) => (
          <tr key={change.key} className="border-t border-slate-100 align-top" data-change={change.key}>
            <th scope="row" className="py-1 pr-3 font-normal text-slate-600">
              {fieldLabel(t, change.key)}
            </th>
            <td className="py-1 pr-3 break-words text-slate-700" data-before>
              {shown(change, change.before)}
            </td>
            <td className="py-1 break-words font-medium text-slate-900" data-after>
              {shown(change, change.after)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What a settings screen's rules are checked on: its rules and the settings as they are now. */
export interface HeldRuleCheck {
  rules?: readonly FieldRule[] | undefined;
  current?: Record<string, unknown> | undefined;
}

/**
 * The rules a held settings save would break once applied to the settings as they are now: the
 * gateway refuses a save that breaks them by itself, but a save of some fields only, or settings
 * changed since it was held, can still make a minimum pass its maximum. The checker is told before
 * confirming.
 */
function RuleWarnings({ hold, check, t }: { hold: ApprovalView; check: HeldRuleCheck; t: LabelT }) {
  if (hold.kind !== 'settings' || !check.rules?.length) return null;
  const after: Record<string, unknown> = { ...check.current };
  for (const change of hold.changes) if (!change.secret) after[change.key] = change.after;
  const breaches = checkRules(check.rules, after);
  if (breaches.length === 0) return null;
  return (
    <ul
      role="alert"
      className="mt-3 flex flex-col gap-1 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
      data-testid="held-rule-warning"
    >
      {breaches.map((b) => (
        <li key={`${b.field}-${b.limit}`} data-rule-field={b.field}>
          {t('approvals.ruleBroken', { field: fieldLabel(t, b.field), limit: fieldLabel(t, b.limit) })}
        </li>
      ))}
    </ul>
  );
}

/** What a hold is about, as its confirmation and its place in the list show it. */
function HoldBody({
  hold,
  resource,
  t,
  context,
}: {
  hold: ApprovalView;
  resource: Described;
  t: LabelT;
  context?: ActionContextRenderer | undefined;
}) {
  if (hold.kind === 'settings') return <ChangesTable hold={hold} resource={resource} t={t} />;
  const Context = context;
  // Side by side on a laptop, as the approve dialog lays them out.
  return (
    <div className="flex flex-col gap-3 lg:flex-row lg:items-start">
      <div className="lg:w-72 lg:shrink-0">
        <RecordSummary t={t} resource={resource} rows={hold.records} />
      </div>
      {Context && (
        <div className="min-w-0 lg:flex-1">
          <Context resource={resource} rows={hold.records} t={t} />
        </div>
      )}
    </div>
  );
}

/**
 * Confirming and declining holds: the confirmation names what will be sent and shows the screen's
 * context for it; declining asks a reason. The first approver may withdraw their own hold (a
 * decline) but never confirm it; the gateway refuses that too.
 */
export function useHoldDialogs(
  resource: Described,
  t: LabelT,
  context?: ActionContextRenderer,
  ruleCheck: HeldRuleCheck = {},
) {
  const { confirm, decline } = useSettleApproval();
  const [confirming, setConfirming] = useState<ApprovalView | null>(null);
  const [declining, setDeclining] = useState<ApprovalView | null>(null);

  const question = (hold: ApprovalView) =>
    hold.kind === 'settings'
      ? t('approvals.confirmSettings', { name: requesterOf(t, hold) })
      : t('approvals.confirmQuestion', { subject: subjectOf(t, resource, hold), name: requesterOf(t, hold) });

  const dialogs: ReactNode = (
    <>
      <ConfirmDialog
        open={confirming !== null}
        text={confirming ? question(confirming) : ''}
        busy={confirm.isPending}
        busyLabel={t('engine.running')}
        confirmLabel={t('approvals.confirm')}
        tone="primary"
        wide={confirming?.kind === 'action' && context !== undefined}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          const hold = confirming;
          if (!hold || confirm.isPending) return;
          confirm.mutate(hold, {
            onSuccess: () =>
              toast.success(
                hold.kind === 'settings'
                  ? t('approvals.confirmedSettings')
                  : t('approvals.confirmed', { name: subjectOf(t, resource, hold) }),
              ),
            // The API client has told the refusal (same approver, expired...); the hold list is read again.
            onSettled: () => setConfirming(null),
          });
        }}
      >
        {confirming && <HoldBody hold={confirming} resource={resource} t={t} context={context} />}
        {confirming && <RuleWarnings hold={confirming} check={ruleCheck} t={t} />}
      </ConfirmDialog>
      <FormDialog
        open={declining !== null}
        title={declining?.mine ? t('approvals.withdraw') : t('approvals.decline')}
        fields={REASON}
        submitLabel={declining?.mine ? t('approvals.withdraw') : t('approvals.decline')}
        danger
        intro={
          <p>
            {declining?.kind === 'action'
              ? t('approvals.declineSubject', { subject: subjectOf(t, resource, declining) })
              : t('approvals.declineQuestion')}
          </p>
        }
        onClose={() => setDeclining(null)}
        onSubmit={async (values) => {
          if (!declining) return;
          await decline.mutateAsync({ hold: declining, reason: String(values.reason ?? '').trim() });
          toast.success(t('approvals.declined'));
          setDeclining(null);
        }}
      />
    </>
  );
  return { askConfirm: setConfirming, askDecline: setDeclining, dialogs };
}

interface PanelProps {
  holds: readonly ApprovalView[];
  failed: boolean;
  resource: Described;
  t: LabelT;
  onConfirm: (hold: ApprovalView) => void;
  onDecline: (hold: ApprovalView) => void;
}

/** The screen's holds above its list or form: who asked, until when, and Confirm or Decline. */
export function HeldApprovalsPanel({ holds, failed, resource, t, onConfirm, onDecline }: PanelProps) {
  useSignals();
  const lang = language.value;
  if (failed) {
    return (
      <p
        role="status"
        className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-800"
        data-testid="held-failed"
      >
        {t('approvals.loadFailed')}
      </p>
    );
  }
  if (holds.length === 0) return null;
  return (
    <section
      className="rounded-md border border-amber-300 bg-amber-50 p-3"
      aria-labelledby="held-approvals-title"
      data-testid="held-approvals"
    >
      <h2 id="held-approvals-title" className="mb-2 text-sm font-semibold text-amber-900">
        {t('approvals.panelTitle')} ({holds.length})
      </h2>
      <ul className="flex flex-col gap-2">
        {holds.map((hold) => (
          <li
            key={hold.id}
            className="flex flex-wrap items-start gap-3 rounded-md border border-amber-200 bg-white p-3"
            data-approval-id={hold.id}
            data-mine={hold.mine ? '' : undefined}
          >
            <div className="min-w-0 flex-1">
              <p className="text-sm font-medium text-slate-800" data-testid="held-subject">
                {hold.kind === 'settings' ? t('approvals.waiting') : subjectOf(t, resource, hold)}
              </p>
              <p className="mt-0.5 text-xs text-slate-600" data-testid="held-meta">
                {hold.mine ? t('approvals.requestedByYou') : t('approvals.requestedBy', { name: requesterOf(t, hold) })}
                {' · '}
                {formatDateTime(hold.requestedAt, lang)}
                {' · '}
                {hold.expired ? (
                  <span className="font-medium text-red-700">{t('approvals.expired')}</span>
                ) : (
                  t('approvals.expiresAt', { time: formatDateTime(hold.expiresAt, lang) })
                )}
                {hold.state === 'confirming' && ` · ${t('approvals.confirming')}`}
              </p>
              {hold.kind === 'settings' && (
                <div className="mt-2">
                  <ChangesTable hold={hold} resource={resource} t={t} />
                </div>
              )}
            </div>
            <div className="flex shrink-0 gap-2">
              {!hold.mine && (
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={hold.expired || hold.state === 'confirming'}
                  onClick={() => onConfirm(hold)}
                  data-testid="held-confirm"
                >
                  {t('approvals.confirm')}
                </button>
              )}
              <button
                type="button"
                className="btn"
                disabled={hold.state === 'confirming'}
                onClick={() => onDecline(hold)}
                data-testid="held-decline"
              >
                {hold.mine ? t('approvals.withdraw') : t('approvals.decline')}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
