import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSignals } from '@preact/signals-react/runtime';
import type { SettingsResource } from '#contract';
import { toast } from '../../lib/toast.js';
import { ApiError } from '../../api/client.js';
import { useLabelT } from '../../i18n/resources/index.js';
import { useDensity } from '../../ui/density.js';
import { LeaveGuard } from '../../ui/leave-guard.js';
import { FieldInput } from '../form/field-input.js';
import { language } from '../../lib/settings.js';
import {
  draftFromRecord,
  onlyFields,
  recordFromDraft,
  serverFieldErrors,
  serverFieldLimit,
  sameDraft,
  type Draft,
  type FieldErrorCode,
} from '../form/form-values.js';
import { actionLabel } from '../shared/labels.js';
import { configQueryOptions, useConfigMutation } from '../shared/queries.js';
import type { SettingsScreenOptions } from '../shared/types.js';
import { useActionRunner } from '../actions/use-action-runner.js';
import { LoadFailed, Loading } from '../shared/states.js';
import { useHeldAnswer } from '../actions/approvals.js';
import { useHeldApprovals } from '../actions/use-held-approvals.js';

/** A settings page: GET {path}/config into typed fields, validated, saved with POST {path}/config. */
export function SettingsScreen({
  resource,
  options = {},
}: {
  resource: SettingsResource;
  options?: SettingsScreenOptions;
}) {
  const t = useLabelT();
  const density = useDensity();
  const query = useQuery(configQueryOptions(resource));
  const save = useConfigMutation(resource);
  const runner = useActionRunner(resource, options.results);
  // A held save is checked against the rules with the settings as they are now (it may send only some fields).
  const holds = useHeldApprovals(resource, t, { ruleCheck: { rules: resource.rules, current: query.data } });
  const heldAnswer = useHeldAnswer();
  const fields = resource.fields;
  useSignals();
  // A clean form is filled again in a new language, so its amounts stay in the form it reads.
  const lang = language.value;

  const loaded = useMemo(
    () => (query.data ? draftFromRecord(fields, query.data, lang) : null),
    [query.data, fields, lang],
  );
  const [draft, setDraft] = useState<Draft | null>(null);
  const [baseline, setBaseline] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, FieldErrorCode>>({});
  const [limits, setLimits] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState('');

  const dirty = draft !== null && baseline !== null && !sameDraft(draft, baseline);

  // A fresh answer fills the form unless the administrator is in the middle of changing it.
  useEffect(() => {
    if (!loaded || dirty) return;
    setDraft(loaded);
    setBaseline(loaded);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new answer fills the form; becoming clean must not
  }, [loaded]);

  // The form calls it without awaiting (`void`): every failure is caught below and shown on the form.
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    const outcome = recordFromDraft(fields, draft, lang, resource.rules);
    setErrors(outcome.errors);
    setLimits(outcome.limits);
    setServerError('');
    if (Object.keys(outcome.errors).length > 0) {
      const first = fields.find((f) => outcome.errors[f.key]);
      if (first)
        document.querySelector<HTMLElement>(`[data-testid="settings-form"] [data-field="${first.key}"]`)?.focus();
      return;
    }
    try {
      const answer = await save.mutateAsync(outcome.values);
      if (heldAnswer(answer)) {
        // Nothing changed yet: the form shows the settings as they are, the panel the change that waits.
        toast.info(t('approvals.heldSettings'));
        if (loaded) {
          setDraft(loaded);
          setBaseline(loaded);
        }
        return;
      }
      toast.success(t('engine.saved'));
      // What was sent is the new baseline; write-only secrets are not kept in the form.
      const saved = { ...draft };
      for (const f of fields) if (f.kind === 'password') saved[f.key] = '';
      setDraft(saved);
      setBaseline(saved);
    } catch (error) {
      // The envelope's msg goes on the form; a field the backend names is marked as well.
      const data = error instanceof ApiError ? error.data : null;
      setErrors(serverFieldErrors(data, fields));
      setLimits(serverFieldLimit(data));
      setServerError(error instanceof Error && error.message ? error.message : t('engine.loadFailed'));
    }
  };

  if (query.isPending || (!query.isError && !draft)) {
    return (
      <div className="grid max-w-3xl gap-4" aria-hidden="true" data-testid="settings-skeleton">
        {fields.map((f) => (
          <div key={f.key} className="h-10 animate-pulse rounded bg-slate-200" />
        ))}
        <Loading hidden />
      </div>
    );
  }
  if (query.isError || !draft)
    return <LoadFailed error={query.error} onRetry={() => void query.refetch()} testId="settings-error" />;

  const pageActions = (resource.actions ?? []).filter((a) => a.target === 'page');

  return (
    <div className="flex max-w-3xl flex-col gap-4">
      {holds.panel}
      {pageActions.length > 0 && (
        <div className="flex flex-wrap gap-2">
          {pageActions.map((a) => (
            <button key={a.name} type="button" className="btn" onClick={() => runner.start(a, {})} data-action={a.name}>
              {actionLabel(t, a.name)}
            </button>
          ))}
        </div>
      )}
      <form
        onSubmit={(e) => void submit(e)}
        noValidate
        className="flex flex-col gap-5 rounded-md border border-slate-200 bg-white p-5"
        data-testid="settings-form"
        data-resource={resource.id}
      >
        <div className="grid gap-5 md:grid-cols-2">
          {fields.map((f) => (
            <div key={f.key} className={f.kind === 'longtext' || f.kind === 'lines' ? 'md:col-span-2' : ''}>
              <FieldInput
                field={f}
                value={draft[f.key]}
                onChange={(v) => setDraft((d) => ({ ...(d ?? {}), [f.key]: v }))}
                errorCode={errors[f.key]}
                errorLimit={limits[f.key]}
                t={t}
                density={density}
                keepsOldSecret
                onFill={(values) => setDraft((d) => ({ ...(d ?? {}), ...onlyFields(fields, values) }))}
              />
            </div>
          ))}
        </div>
        {serverError && (
          <p
            role="alert"
            className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
            data-testid="form-server-error"
          >
            {serverError}
          </p>
        )}
        <div className="flex items-center gap-3">
          <button type="submit" className="btn btn-primary" disabled={save.isPending || !dirty}>
            {save.isPending ? t('engine.saving') : t('engine.save')}
          </button>
          <button
            type="button"
            className="btn"
            disabled={!dirty || save.isPending}
            onClick={() => {
              setDraft(baseline);
              setErrors({});
              setServerError('');
            }}
          >
            {t('engine.reset')}
          </button>
          {dirty && (
            <span className="text-sm text-amber-700" data-testid="unsaved">
              {t('engine.unsavedBadge')}
            </span>
          )}
        </div>
      </form>
      <LeaveGuard dirty={dirty} />
      {runner.dialogs}
      {holds.dialogs}
    </div>
  );
}
