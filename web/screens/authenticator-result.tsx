import { useMemo, useState, type FormEvent } from 'react';
import { encode } from 'uqr';
import { GOOGLE_VERIFY } from '#contract';
import type { ResultRendererProps } from '../engine/operation/result-view.js';
import { CopyButton, GenericResult } from '../engine/operation/result-view.js';
import { actionLabel, fieldLabel, resultLabel } from '../engine/shared/labels.js';
import { useActionMutation } from '../engine/shared/queries.js';

/** The QR code of `text` as SVG squares: the phone scans it, so it stays black on white in both schemes. */
export function QrCode({ text, label }: { text: string; label: string }) {
  const matrix = useMemo(() => encode(text, { ecc: 'M', border: 2 }).data, [text]);
  const size = matrix.length;
  const path = useMemo(
    () =>
      matrix
        .flatMap((row, y) => row.map((dark, x) => (dark ? `M${x} ${y}h1v1h-1z` : '')))
        .filter(Boolean)
        .join(''),
    [matrix],
  );
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      className="h-48 w-48 rounded bg-[#fff]"
      shapeRendering="crispEdges"
      data-testid="otpauth-qr"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

/**
 * A new authenticator secret: the QR code of its otpauth link to scan, the secret to type in by
 * hand, and the one code that proves the phone holds it. The binding takes effect only then
 * (confirmBind), so a mis-scan never locks the administrator out.
 */
export function AuthenticatorResult({ data, t }: ResultRendererProps) {
  const record = data && typeof data === 'object' ? (data as Record<string, unknown>) : {};
  const { id, secret, otpauthUrl } = record;
  const confirm = useActionMutation(GOOGLE_VERIFY);
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState('');
  if (typeof secret !== 'string' || typeof otpauthUrl !== 'string' || typeof id !== 'number')
    return <GenericResult data={data} t={t} />;

  // The form calls it without awaiting (`void`): every failure is caught below and shown on the form.
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem('');
    if (!/^\d{6}$/.test(code.trim())) return setProblem(t('validation.otpCode'));
    try {
      await confirm.mutateAsync({ name: 'confirmBind', body: { id, otpCode: code.trim() }, quiet: true });
    } catch (error) {
      setProblem(error instanceof Error && error.message ? error.message : t('engine.loadFailed'));
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900" role="note">
        {t('result.shownOnce')}
      </p>
      <div className="flex flex-col items-center gap-2 sm:flex-row sm:items-start">
        <QrCode text={otpauthUrl} label={t('result.qr')} />
        <p className="text-sm text-slate-700">{t('result.scanHint')}</p>
      </div>
      <div className="flex flex-col gap-1">
        <span className="text-slate-500">{resultLabel(t, 'secret')}</span>
        <div className="flex items-center">
          <code
            className="flex-1 rounded bg-slate-100 px-2 py-1 font-mono text-base break-all"
            data-result-key="secret"
          >
            {secret}
          </code>
          <CopyButton text={secret} t={t} />
        </div>
      </div>
      {confirm.isSuccess ? (
        <p role="status" className="font-medium text-green-800" data-testid="authenticator-bound">
          {t('result.confirmed')}
        </p>
      ) : (
        <form
          onSubmit={(e) => void submit(e)}
          noValidate
          className="flex flex-wrap items-end gap-2"
          data-testid="authenticator-confirm"
        >
          <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
            {fieldLabel(t, 'otpCode')}
            <input
              className="w-36 rounded-md border border-slate-300 bg-white px-2 py-1 font-mono tracking-widest focus:outline-2 focus:outline-primary"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              aria-invalid={problem ? true : undefined}
              data-field="otpCode"
            />
          </label>
          <button type="submit" className="btn btn-primary" disabled={confirm.isPending}>
            {actionLabel(t, 'confirmBind')}
          </button>
          {problem && (
            <p role="alert" className="w-full text-sm text-red-700" data-testid="authenticator-problem">
              {problem}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
