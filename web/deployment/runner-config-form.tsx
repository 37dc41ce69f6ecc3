import { useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RunnerConfig, ValidationCode } from '#contract';
import { toast } from '../lib/toast.js';
import { useT, type MessageKey, type TFunction } from '../i18n/index.js';
import { useLocale } from '../ui/panel.js';
import { LeaveGuard } from '../ui/leave-guard.js';
import { saveRunnerConfigMutationOptions } from './queries.js';
import {
  LINK_FIELDS,
  LOG_LEVELS,
  NUMBER_FIELDS,
  NUMBER_LIMITS,
  changedFields,
  changesToSave,
  draftOf,
  validateDraft,
  type ConfigDraft,
  type ConfigField,
  type NumberField,
} from './runner-config.js';

const FIELD_LABELS: Record<ConfigField, MessageKey> = {
  apiUrl: 'deploy.field.apiUrl',
  websocketUrl: 'deploy.field.websocketUrl',
  fileServerUrl: 'deploy.field.fileServerUrl',
  maxUploadMb: 'deploy.field.maxUploadMb',
  messageRetentionDays: 'deploy.field.messageRetentionDays',
  maxGroupMembers: 'deploy.field.maxGroupMembers',
  workerCount: 'deploy.field.workerCount',
  logLevel: 'deploy.field.logLevel',
};

export function validationText(t: TFunction, code: ValidationCode, limits?: readonly [number, number]): string {
  switch (code) {
    case 'linkFormat':
      return t('deploy.error.linkFormat');
    case 'required':
      return t('deploy.error.required');
    case 'notInteger':
    case 'notNumber':
      return t('deploy.error.integer');
    case 'tooSmall':
    case 'tooLarge':
      return limits ? t('deploy.error.range', { min: limits[0], max: limits[1] }) : t('deploy.error.integer');
    default:
      return t('deploy.error.option');
  }
}

const INPUT = 'mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5 aria-[invalid=true]:border-red-500';

/** The runner settings: typed fields, link validation, unsaved-changes warning, save feedback. */
export function RunnerConfigForm({ config }: { config: RunnerConfig }) {
  const t = useT();
  const locale = useLocale();
  const client = useQueryClient();
  const saved = useMemo(() => draftOf(config), [config]);
  const [draft, setDraft] = useState<ConfigDraft>(saved);
  // Errors show after the first save attempt, then follow every keystroke.
  const [submitted, setSubmitted] = useState(false);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const save = useMutation(saveRunnerConfigMutationOptions(client));

  const changed = changedFields(draft, saved);
  const dirty = changed.length > 0;
  const errors = validateDraft(draft);

  // New values from the server (another administrator saved) replace an untouched draft only.
  const [base, setBase] = useState(saved);
  if (base !== saved) {
    setBase(saved);
    if (changedFields(draft, base).length === 0) setDraft(saved);
  }

  const set = (field: ConfigField, value: string) => setDraft((d) => ({ ...d, [field]: value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const first = (Object.keys(errors) as ConfigField[])[0];
    if (first) {
      document.getElementById(`runner-${first}`)?.focus();
      return;
    }
    if (!dirty) return;
    save.mutate(changesToSave(draft, saved), {
      onSuccess: (answer) => {
        if (answer) setDraft(draftOf(answer));
        setSubmitted(false);
        setSavedAt(Date.now());
        toast.success(t('deploy.saved'));
      },
    });
  };

  const fieldError = (field: ConfigField) => {
    const code = submitted ? errors[field] : undefined;
    if (!code) return null;
    const limits = (NUMBER_FIELDS as readonly string[]).includes(field)
      ? NUMBER_LIMITS[field as NumberField]
      : undefined;
    return (
      <p id={`runner-${field}-error`} className="mt-1 text-sm text-red-700" data-testid={`error-${field}`}>
        {validationText(t, code, limits)}
      </p>
    );
  };

  const inputProps = (field: ConfigField) => ({
    id: `runner-${field}`,
    name: field,
    value: draft[field],
    'aria-invalid': submitted && errors[field] ? true : undefined,
    'aria-describedby': submitted && errors[field] ? `runner-${field}-error` : undefined,
    className: INPUT,
  });

  return (
    <form onSubmit={onSubmit} noValidate data-testid="runner-config-form" data-dirty={dirty}>
      <div className="grid gap-4 md:grid-cols-2">
        {LINK_FIELDS.map((field) => (
          <div key={field} className="md:col-span-2">
            <label htmlFor={`runner-${field}`} className="text-sm font-medium text-slate-700">
              {t(FIELD_LABELS[field])}
            </label>
            <input
              type="url"
              inputMode="url"
              spellCheck={false}
              {...inputProps(field)}
              onChange={(e) => set(field, e.target.value)}
            />
            {fieldError(field)}
          </div>
        ))}
        {NUMBER_FIELDS.map((field) => {
          const [min, max] = NUMBER_LIMITS[field];
          return (
            <div key={field}>
              <label htmlFor={`runner-${field}`} className="text-sm font-medium text-slate-700">
                {t(FIELD_LABELS[field])}
              </label>
              <input
                type="number"
                inputMode="numeric"
                step={1}
                min={min}
                max={max}
                {...inputProps(field)}
                onChange={(e) => set(field, e.target.value)}
              />
              {fieldError(field)}
            </div>
          );
        })}
        <div>
          <label htmlFor="runner-logLevel" className="text-sm font-medium text-slate-700">
            {t(FIELD_LABELS.logLevel)}
          </label>
          <select {...inputProps('logLevel')} onChange={(e) => set('logLevel', e.target.value)}>
            {LOG_LEVELS.map((level) => (
              <option key={level} value={level}>
                {level}
              </option>
            ))}
          </select>
          {fieldError('logLevel')}
        </div>
      </div>

      <div className="mt-5 flex flex-wrap items-center gap-3">
        <button type="submit" className="btn btn-primary" disabled={save.isPending || !dirty} data-testid="runner-save">
          {save.isPending ? t('deploy.saving') : t('deploy.save')}
        </button>
        <button
          type="button"
          className="btn"
          disabled={save.isPending || !dirty}
          onClick={() => {
            setDraft(saved);
            setSubmitted(false);
          }}
        >
          {t('deploy.discard')}
        </button>
        <span role="status" className="text-sm" data-testid="runner-form-status">
          {dirty ? (
            <span className="text-amber-700">{t('deploy.unsaved', { count: changed.length })}</span>
          ) : savedAt ? (
            <span className="text-green-700">
              {t('deploy.savedAt', { time: new Date(savedAt).toLocaleTimeString(locale, { hour12: false }) })}
            </span>
          ) : null}
        </span>
      </div>
      <LeaveGuard dirty={dirty} />
    </form>
  );
}
