import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { resourceCalls, type OperationResource } from '#contract';
import { useLabelT } from '../../i18n/resources/index.js';
import { api } from '../../api/client.js';
import { useDensity } from '../../ui/density.js';
import { FieldInput } from '../form/field-input.js';
import { language } from '../../lib/settings.js';
import { draftFromRecord, recordFromDraft, type Draft, type FieldErrorCode } from '../form/form-values.js';
import { actionLabel } from '../shared/labels.js';
import { previewQueryOptions, resourceKeys, type Row } from '../shared/queries.js';
import { GenericResult } from './result-view.js';
import type { OperationScreenOptions } from '../shared/types.js';

/** Typed confirmation: exact text, no trimming, so "delete" does not pass for "DELETE". */
export function confirmationMatches(expected: string | undefined, typed: string): boolean {
  return expected === undefined || typed === expected;
}

/**
 * A form that starts one operation: inputs, a preview of what will happen (GET {path}/preview),
 * a typed confirmation when the resource asks for one, and the result in view.
 */
export function OperationScreen({
  resource,
  options = {},
}: {
  resource: OperationResource;
  options?: OperationScreenOptions;
}) {
  const t = useLabelT();
  const density = useDensity();
  const client = useQueryClient();
  const confirmId = useId();
  const [draft, setDraft] = useState<Draft>(() => draftFromRecord(resource.inputs, {}, language.value));
  const [errors, setErrors] = useState<Record<string, FieldErrorCode>>({});
  const [typed, setTyped] = useState('');
  const [preview, setPreview] = useState<{ inputs: Row; data: unknown } | null>(null);
  const [previewError, setPreviewError] = useState('');
  const [result, setResult] = useState<{ data: unknown } | null>(null);
  const [runError, setRunError] = useState('');

  const validInputs = (): Row | null => {
    const outcome = recordFromDraft(resource.inputs, draft, language.value);
    setErrors(outcome.errors);
    return Object.keys(outcome.errors).length ? null : outcome.values;
  };

  const loadPreview = useMutation({
    mutationFn: (inputs: Row) =>
      client.fetchQuery(previewQueryOptions(resource, inputs as Record<string, string | number>)),
  });
  const run = useMutation({
    mutationFn: async (body: Row) =>
      (await api.post<unknown>(resourceCalls(resource).action(resource.run), body, { quiet: true })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: resourceKeys.all(resource) }),
  });

  const change = (key: string, value: Draft[string]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    // What was previewed no longer matches the inputs.
    setPreview(null);
    setResult(null);
  };

  const onPreview = async () => {
    const inputs = validInputs();
    if (!inputs) return;
    setPreviewError('');
    try {
      setPreview({ inputs, data: await loadPreview.mutateAsync(inputs) });
    } catch (error) {
      setPreviewError(error instanceof Error ? error.message : String(error));
    }
  };

  // The form calls it without awaiting (`void`): every failure is caught below and shown on the form.
  const onRun = async (e: FormEvent) => {
    e.preventDefault();
    const inputs = validInputs();
    if (!inputs || !confirmationMatches(resource.confirmText, typed)) return;
    setRunError('');
    try {
      const data = await run.mutateAsync(resource.confirmText ? { ...inputs, confirm: typed } : inputs);
      setResult({ data });
      setTyped('');
      setPreview(null);
    } catch (error) {
      setRunError(error instanceof Error ? error.message : String(error));
    }
  };

  const needsPreview = !!resource.preview && preview === null;
  const canRun = !needsPreview && confirmationMatches(resource.confirmText, typed) && !run.isPending;
  const PreviewView = options.preview ?? GenericResult;
  const ResultView = options.result ?? GenericResult;

  return (
    <form
      onSubmit={(e) => void onRun(e)}
      noValidate
      className="flex max-w-2xl flex-col gap-5 rounded-md border border-slate-200 bg-white p-5"
      data-testid="operation-form"
      data-resource={resource.id}
    >
      {resource.inputs.map((f, i) => (
        <FieldInput
          key={f.key}
          field={f}
          value={draft[f.key]}
          onChange={(v) => change(f.key, v)}
          errorCode={errors[f.key]}
          t={t}
          density={density}
          autoFocus={i === 0}
        />
      ))}

      {resource.preview && (
        <div className="flex flex-col gap-2">
          <div className="flex items-center gap-3">
            <button
              type="button"
              className="btn"
              onClick={() => void onPreview()}
              disabled={loadPreview.isPending}
              data-testid="operation-preview"
            >
              {loadPreview.isPending ? t('engine.loading') : t('engine.preview')}
            </button>
            {needsPreview && <span className="text-sm text-slate-500">{t('engine.previewHint')}</span>}
          </div>
          {previewError && (
            <p role="alert" className="text-sm text-red-700">
              {previewError}
            </p>
          )}
          {preview && (
            <section
              className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm"
              aria-label={t('engine.preview')}
              data-testid="operation-preview-result"
              aria-live="polite"
            >
              <PreviewView data={preview.data} t={t} />
            </section>
          )}
        </div>
      )}

      {resource.confirmText && (
        <div className="flex flex-col gap-1">
          <label htmlFor={confirmId} className="text-sm font-medium text-slate-700">
            {t('engine.typeToConfirm', { text: resource.confirmText })}
          </label>
          <input
            id={confirmId}
            className={`rounded-md border border-slate-300 font-mono ${density.input}`}
            value={typed}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setTyped(e.target.value)}
            data-testid="operation-confirm"
          />
        </div>
      )}

      {runError && (
        <p
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
          data-testid="form-server-error"
        >
          {runError}
        </p>
      )}

      <div>
        <button type="submit" className="btn btn-danger" disabled={!canRun} data-testid="operation-run">
          {run.isPending ? t('engine.running') : actionLabel(t, resource.run)}
        </button>
      </div>

      {result && (
        <section
          className="rounded-md border border-green-200 bg-green-50 p-3 text-sm"
          aria-label={t('engine.result')}
          data-testid="operation-result"
          aria-live="polite"
        >
          <h2 className="mb-2 font-semibold text-green-900">{t('engine.result')}</h2>
          <ResultView data={result.data} t={t} />
        </section>
      )}
    </form>
  );
}
