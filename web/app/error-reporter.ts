import { ERROR_LOG_LIMITS, GATEWAY_PATHS } from '#contract/gateway';
// A type only (erased): the schema module stays out of the login page's first load.
import type { ErrorLogInput } from '#contract/error-log';

/** At most this many reports per page load: a render loop must not flood the gateway. */
const MAX_REPORTS = 20;
let sent = 0;
const seen = new Set<string>();

function cut(value: string | undefined, max: number): string | undefined {
  return value === undefined ? undefined : value.length > max ? value.slice(0, max) : value;
}

export function toEntry(error: unknown, info?: string, url = location.href): ErrorLogInput {
  const err = error instanceof Error ? error : null;
  const message = err ? `${err.name}: ${err.message}` : typeof error === 'string' ? error : safeJson(error);
  return {
    message: cut(message || 'Unknown error', ERROR_LOG_LIMITS.maxMessageChars)!,
    stack: cut(err?.stack, ERROR_LOG_LIMITS.maxStackChars),
    url: cut(url, ERROR_LOG_LIMITS.maxUrlChars)!,
    info: cut(info, ERROR_LOG_LIMITS.maxInfoChars),
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Uncaught UI errors go to the console and the gateway's error log. */
export function reportError(error: unknown, info?: string): void {
  console.error(error, info ?? '');
  const entry = toEntry(error, info);
  const key = `${entry.message}|${entry.url}`;
  if (seen.has(key) || sent >= MAX_REPORTS) return;
  seen.add(key);
  sent++;
  void fetch(GATEWAY_PATHS.errorLog, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(entry),
    keepalive: true,
  }).catch(() => {
    /* the log is best effort; a failing report must not raise another one */
  });
}

/**
 * Browser warnings that arrive as errors but mean nothing is broken, so they never reach the log:
 * - "ResizeObserver loop completed with undelivered notifications" (and Chrome's older "loop limit
 *   exceeded"): a resize callback changed layout and the browser postponed the rest to the next
 *   frame, which it then delivers. Charts and tables that fit their width cause it routinely.
 */
export const BENIGN_BROWSER_WARNINGS: readonly RegExp[] = [
  /^ResizeObserver loop (completed with undelivered notifications|limit exceeded)/,
];

export function isBenignWarning(message: string): boolean {
  return BENIGN_BROWSER_WARNINGS.some((pattern) => pattern.test(message));
}

export function installErrorReporter(): void {
  window.addEventListener('error', (event) => {
    // Failed <img>/<script> loads arrive here too, without an error object; those are not UI bugs.
    if (!(event instanceof ErrorEvent)) return;
    if (!event.error && isBenignWarning(event.message)) return;
    reportError(event.error ?? event.message, `${event.filename}:${event.lineno}:${event.colno}`);
  });
  window.addEventListener('unhandledrejection', (event) => {
    reportError(event.reason, 'unhandledrejection');
  });
}
