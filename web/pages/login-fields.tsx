import { useT } from '../i18n/index.js';
import { formatWait, type LoginField, type LoginForm } from './use-login-form.js';

const INPUT =
  'w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 outline-none focus:border-primary focus:ring-2 focus:ring-primary/30';

/**
 * The account, password and second-factor code of a login form, with their errors: the login
 * page's and the in-place login dialog's. `id` prefixes the fields' ids (a useId of the form).
 */
export function LoginFields({ form, id, focus = 'account' }: { form: LoginForm; id: string; focus?: LoginField }) {
  const t = useT();
  const { fieldErrors } = form;
  const fieldError = (f: LoginField) =>
    fieldErrors[f] ? (
      <p id={`${id}-${f}-error`} className="mt-1 text-sm text-red-600">
        {t(fieldErrors[f]!)}
      </p>
    ) : null;

  return (
    <>
      <div className="mb-4">
        <label htmlFor={`${id}-account`} className="mb-1 block text-sm font-medium text-slate-700">
          {t('login.account')}
        </label>
        <input
          id={`${id}-account`}
          name="account"
          autoComplete="username"
          autoFocus={focus === 'account'}
          className={INPUT}
          value={form.account}
          onChange={(e) => form.setAccount(e.target.value)}
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
            type={form.showPassword ? 'text' : 'password'}
            autoComplete="current-password"
            autoFocus={focus === 'password'}
            className={INPUT}
            value={form.password}
            onChange={(e) => form.setPassword(e.target.value)}
            aria-invalid={!!fieldErrors.password}
            aria-describedby={fieldErrors.password ? `${id}-password-error` : undefined}
          />
          <button
            type="button"
            className="shrink-0 rounded-md border border-slate-300 px-2 text-xs text-slate-600 hover:bg-slate-50"
            onClick={() => form.setShowPassword((v) => !v)}
            aria-pressed={form.showPassword}
          >
            {form.showPassword ? t('login.hidePassword') : t('login.showPassword')}
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
          className={INPUT}
          value={form.code}
          onChange={(e) => form.setCode(e.target.value)}
          aria-invalid={!!fieldErrors.code}
          aria-describedby={`${id}-code-hint${fieldErrors.code ? ` ${id}-code-error` : ''}`}
        />
        <p id={`${id}-code-hint`} className="mt-1 text-xs text-slate-500">
          {t('login.codeHint')}
        </p>
        {fieldError('code')}
      </div>
    </>
  );
}

/** The backend's refusal, or the throttle's wait (announced once, the countdown for the eyes only). */
export function LoginFailure({ form }: { form: LoginForm }) {
  const t = useT();
  const { failure, waiting, throttle, waitLeft } = form;
  return (
    <>
      {failure && (
        <p role="alert" data-testid="login-error" className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {failure}
        </p>
      )}
      {waiting && throttle && (
        <p data-testid="login-throttled" className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          <span role="alert" className="sr-only">
            {t('login.throttled', { wait: formatWait(throttle.seconds) })}
          </span>
          <span aria-hidden="true">{t('login.throttled', { wait: formatWait(waitLeft) })}</span>
        </p>
      )}
    </>
  );
}
