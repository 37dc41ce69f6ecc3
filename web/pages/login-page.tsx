import { useEffect, useId, useState, type FormEvent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { navigate } from 'wouter/use-browser-location';
import { LoginThrottledError, login, session, siteConfig } from '../api/session.js';
import { sessionEndedNotice } from '../lib/session-lost.js';
import { language, setLanguage } from '../lib/settings.js';
import { useT, type MessageKey } from '../i18n/index.js';
import { LANGUAGES, LANGUAGE_NAMES, isLanguage } from '../lib/language.js';
import { Logo } from '../ui/logo.js';

type Field = 'account' | 'password' | 'code';

export function validateLogin(account: string, password: string, code: string): Partial<Record<Field, MessageKey>> {
  const errors: Partial<Record<Field, MessageKey>> = {};
  if (!account.trim()) errors.account = 'login.accountRequired';
  if (!password) errors.password = 'login.passwordRequired';
  if (code.trim() && !/^\d{6}$/.test(code.trim())) errors.code = 'login.codeInvalid';
  return errors;
}

/** A wait as m:ss, which reads the same in every language. */
export function formatWait(seconds: number): string {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** Seconds left until `until` (epoch ms), ticking once a second; 0 once it has passed or when null. */
function useSecondsLeft(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until]);
  return until === null ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}

/** `next`: where to go once logged in (the app reads it from the redirect parameter). */
export default function LoginPage({ next }: { next: string }) {
  useSignals();
  const t = useT();
  const id = useId();
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, MessageKey>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Too many failed logins: the gateway takes the next attempt once this passes.
  const [throttle, setThrottle] = useState<{ until: number; seconds: number } | null>(null);
  const waitLeft = useSecondsLeft(throttle?.until ?? null);
  const waiting = waitLeft > 0;
  const config = siteConfig.value;
  const sessionEnded = sessionEndedNotice.value;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const errors = validateLogin(account, password, code);
    setFieldErrors(errors);
    setFailure(null);
    if (Object.keys(errors).length > 0 || waiting) return;
    setBusy(true);
    try {
      const info = await login(account, password, code);
      sessionEndedNotice.value = false;
      // Same tick: the guard sees the target and the new session together.
      navigate(next, { replace: true });
      session.value = info;
    } catch (error) {
      if (error instanceof LoginThrottledError) {
        setThrottle({ until: Date.now() + error.retryAfterSeconds * 1000, seconds: error.retryAfterSeconds });
      } else {
        setFailure(error instanceof Error ? error.message : String(error));
      }
      setBusy(false);
    }
  }

  const input =
    'w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 outline-none focus:border-primary focus:ring-2 focus:ring-primary/30';
  const fieldError = (f: Field) =>
    fieldErrors[f] ? (
      <p id={`${id}-${f}-error`} className="mt-1 text-sm text-red-600">
        {t(fieldErrors[f]!)}
      </p>
    ) : null;

  return (
    // The backdrop stays dark in both schemes and the form takes the scheme's surface, so the dark
    // scheme shows a dark form rather than a light page around a dark card.
    <main className="login-backdrop flex flex-1 items-center justify-center px-4 py-10">
      <div className="w-full max-w-sm">
        {/* Light text on the dark backdrop in either scheme. */}
        <div className="mb-3 flex justify-end" data-palette="fixed">
          <label className="flex items-center gap-2 text-sm text-slate-200">
            {t('login.language')}
            <select
              className="rounded border border-slate-500 bg-slate-700 px-2 py-1 text-slate-100"
              value={language.value}
              onChange={(e) => isLanguage(e.target.value) && setLanguage(e.target.value)}
              data-testid="login-language"
            >
              {LANGUAGES.map((l) => (
                <option key={l} value={l}>
                  {LANGUAGE_NAMES[l]}
                </option>
              ))}
            </select>
          </label>
        </div>
        <form onSubmit={onSubmit} noValidate className="rounded-lg bg-white p-8 shadow-xl" aria-labelledby={`${id}-title`}>
          <div className="mb-6 flex flex-col items-center gap-2 text-center">
            <Logo path={config?.logoIconPath ?? config?.webIconPath} alt="" className="h-14 w-14" />
            {config?.chatRoomName && <p className="text-lg font-semibold text-slate-800">{config.chatRoomName}</p>}
            <h1 id={`${id}-title`} className="text-xl font-bold text-slate-900">
              {t('login.title')}
            </h1>
          </div>

          <div className="mb-4">
            <label htmlFor={`${id}-account`} className="mb-1 block text-sm font-medium text-slate-700">
              {t('login.account')}
            </label>
            <input
              id={`${id}-account`}
              name="account"
              autoComplete="username"
              autoFocus
              className={input}
              value={account}
              onChange={(e) => setAccount(e.target.value)}
              aria-invalid={!!fieldErrors.account}
              aria-describedby={fieldErrors.account ? `${id}-account-error` : undefined}
            />
            {fieldError('account')}
          </div>

          <div className="mb-4">
            <label htmlFor={`${id}-password`} className="mb-1 block text-sm font-medium text-slate-700">
              {t('login.password')}
            </label>
            <div className="flex gap-2">
              <input
                id={`${id}-password`}
                name="password"
                type={showPassword ? 'text' : 'password'}
                autoComplete="current-password"
                className={input}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                aria-invalid={!!fieldErrors.password}
                aria-describedby={fieldErrors.password ? `${id}-password-error` : undefined}
              />
              <button
                type="button"
                className="shrink-0 rounded-md border border-slate-300 px-2 text-xs text-slate-600 hover:bg-slate-50"
                onClick={() => setShowPassword((v) => !v)}
                aria-pressed={showPassword}
              >
                {showPassword ? t('login.hidePassword') : t('login.showPassword')}
              </button>
            </div>
            {fieldError('password')}
          </div>

          <div className="mb-6">
            <label htmlFor={`${id}-code`} className="mb-1 block text-sm font-medium text-slate-700">
              {t('login.code')}
            </label>
            <input
              id={`${id}-code`}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              className={input}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              aria-invalid={!!fieldErrors.code}
              aria-describedby={`${id}-code-hint${fieldErrors.code ? ` ${id}-code-error` : ''}`}
            />
            <p id={`${id}-code-hint`} className="mt-1 text-xs text-slate-500">
              {t('login.codeHint')}
            </p>
            {fieldError('code')}
          </div>

          {sessionEnded && !failure && !waiting && (
            <p role="status" data-testid="login-session-ended" className="mb-4 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
              {t('login.sessionEnded')}
            </p>
          )}

          {failure && (
            <p role="alert" data-testid="login-error" className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
              {failure}
            </p>
          )}

          {waiting && throttle && (
            <p data-testid="login-throttled" className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
              {/* Announced once with the whole wait; the countdown beside it is for the eyes only. */}
              <span role="alert" className="sr-only">
                {t('login.throttled', { wait: formatWait(throttle.seconds) })}
              </span>
              <span aria-hidden="true">{t('login.throttled', { wait: formatWait(waitLeft) })}</span>
            </p>
          )}

          <button type="submit" disabled={busy || waiting} className="btn btn-primary w-full justify-center py-2">
            {busy ? t('login.submitting') : t('login.submit')}
          </button>
        </form>
      </div>
    </main>
  );
}
