import { useEffect, useState, type FormEvent } from 'react';
import type { SessionInfo } from '#contract/gateway';
import { LoginThrottledError, login } from '../api/session.js';
import type { MessageKey } from '../i18n/index.js';

export type LoginField = 'account' | 'password' | 'code';

export function validateLogin(
  account: string,
  password: string,
  code: string,
): Partial<Record<LoginField, MessageKey>> {
  const errors: Partial<Record<LoginField, MessageKey>> = {};
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

export interface LoginFormOptions {
  /** The account to start from (the one the session ended for, when logging in again in place). */
  initialAccount?: string;
  /** Keep the permission list the UI holds: logging in again in place, the screen on show stays. */
  keepPermissions?: boolean;
  /** Told of the new session; its own failures show as the form's failure. */
  onLoggedIn(info: SessionInfo): void | Promise<void>;
}

/**
 * The login form's state and rules (validation, the gateway's throttle with its countdown, the
 * failure text), shared by the login page and the dialog that logs in again in place.
 */
export function useLoginForm({ initialAccount = '', keepPermissions = false, onLoggedIn }: LoginFormOptions) {
  const [account, setAccount] = useState(initialAccount);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<LoginField, MessageKey>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Too many failed logins: the gateway takes the next attempt once this passes.
  const [throttle, setThrottle] = useState<{ until: number; seconds: number } | null>(null);
  const waitLeft = useSecondsLeft(throttle?.until ?? null);
  const waiting = waitLeft > 0;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const errors = validateLogin(account, password, code);
    setFieldErrors(errors);
    setFailure(null);
    if (Object.keys(errors).length > 0 || waiting) return;
    setBusy(true);
    try {
      const info = await login(account, password, code, { keepPermissions });
      await onLoggedIn(info);
    } catch (error) {
      if (error instanceof LoginThrottledError) {
        setThrottle({ until: Date.now() + error.retryAfterSeconds * 1000, seconds: error.retryAfterSeconds });
      } else {
        setFailure(error instanceof Error ? error.message : String(error));
      }
      setBusy(false);
    }
  }

  return {
    account,
    setAccount,
    password,
    setPassword,
    code,
    setCode,
    showPassword,
    setShowPassword,
    fieldErrors,
    failure,
    busy,
    throttle,
    waitLeft,
    waiting,
    onSubmit,
  };
}

export type LoginForm = ReturnType<typeof useLoginForm>;
