import { GATEWAY_PATHS, NOT_LOGGED_IN_ERROR } from '#contract/gateway';
import { SILENT_CODES, SUCCESS_CODE, isEnvelope, type Envelope } from '#contract/envelope';
import { t } from '../i18n/index.js';

/** How failures reach the user; the app wires these in at start (a toast, the session dialog, the login form). */
export interface ApiHooks {
  /** Shows a failure message. */
  notifyError(text: string): void;
  /** The backend dropped the token (logged in elsewhere): the dialog that says so. */
  loggedInElsewhere(): void;
  /** The gateway no longer accepts the session (logged out, idle, too old): back to the login form. */
  sessionEnded(): void;
}

let hooks: ApiHooks = { notifyError: () => {}, loggedInElsewhere: () => {}, sessionEnded: () => {} };

/** Until called, failures are only thrown, never shown. */
export function setApiHooks(next: ApiHooks): void {
  hooks = next;
}

/** The gateway refused the session (logged out, idle, too old): back to the login form, as any call would. */
export function sessionEnded(): void {
  hooks.sessionEnded();
}

/** Every call times out after 60 s. */
export const REQUEST_TIMEOUT_MS = 60_000;

export class ApiError extends Error {
  constructor(
    message: string,
    /** Envelope code, or 0 for a network/HTTP failure. */
    readonly code: number,
    /** True when the user has already been told (toast or dialog) or must not be. */
    readonly notified: boolean,
    readonly data?: unknown,
    /** The call reached a path the backend does not have: the screen names it instead of a toast. */
    readonly missingCall?: MissingCall,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A call the backend lacks, as the gateway sent it (after the backend map, when there is one). */
export interface MissingCall {
  method: string;
  path: string;
}

/** Messages of backends that answer an unknown path in their envelope rather than with HTTP 404. */
const NO_SUCH_PATH = /no such (interface|path|api|endpoint|handler)|接口不存在|请求地址不存在|路径不存在/i;

/**
 * The gateway's BACKEND_NO_SUCH_CALL names what it sent; a backend's own "no such interface",
 * passed through unmapped, is the call the UI made.
 */
export function missingCallOf(env: Envelope & { error?: unknown }, method: string, path: string): MissingCall | null {
  if (env.error === 'BACKEND_NO_SUCH_CALL') {
    const data = env.data as Partial<MissingCall> | undefined;
    if (typeof data?.method === 'string' && typeof data.path === 'string')
      return { method: data.method, path: data.path };
    return { method, path };
  }
  if (env.code === 404 && env.error === undefined && typeof env.msg === 'string' && NO_SUCH_PATH.test(env.msg))
    return { method, path };
  return null;
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** No toast and no dialog: the caller shows its own message (login page, error reporter). */
  quiet?: boolean;
}

export function buildUrl(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

/** A 401 about a missing permission is not a lost session. */
export function mentionsPermission(msg: unknown): boolean {
  return typeof msg === 'string' && (/permission/i.test(msg) || msg.includes('权限'));
}

export type Outcome =
  | { kind: 'ok' }
  | { kind: 'silent' }
  | { kind: 'session-lost' }
  | { kind: 'logged-elsewhere' }
  | { kind: 'toast'; text: string };

/**
 * What one envelope means for the user: nothing, a toast, or the end of the session. The
 * gateway's own 401 (NOT_LOGGED_IN) means the session is over here (logged out, idle, too old),
 * so the user goes to the login form, not to the 'logged in elsewhere' dialog a backend 401 opens.
 */
export function classifyEnvelope(env: Envelope & { error?: unknown }): Outcome {
  if (env.code === SUCCESS_CODE) return { kind: 'ok' };
  if (env.code === 401 && env.error === NOT_LOGGED_IN_ERROR) return { kind: 'session-lost' };
  if (env.code === 401 && !mentionsPermission(env.msg)) return { kind: 'logged-elsewhere' };
  if (SILENT_CODES.includes(env.code)) return { kind: 'silent' };
  return { kind: 'toast', text: env.msg || `Error ${env.code}` };
}

let sessionResetStarted = false;

/** After the dialog closes: drop the cookies and reload into the login page. */
export async function resetSessionAndReload(): Promise<void> {
  if (sessionResetStarted) return;
  sessionResetStarted = true;
  try {
    await fetch(GATEWAY_PATHS.logout, { method: 'POST', credentials: 'same-origin' });
  } finally {
    location.reload();
  }
}

function connectionFailure(quiet: boolean | undefined, detail: string): never {
  if (!quiet) hooks.notifyError(t('api.connectionError'));
  throw new ApiError(detail || t('api.connectionError'), 0, !quiet);
}

export async function request<T = unknown>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<Envelope<T>> {
  const { quiet } = options;
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body,
      signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    // The caller cancelled (navigation, query superseded): nobody needs a toast.
    if (options.signal?.aborted) throw error;
    return connectionFailure(quiet, error instanceof Error ? error.message : String(error));
  }

  let payload: unknown = null;
  if (response.status !== 204) {
    try {
      payload = await response.json();
    } catch (error) {
      // Cancelled while the body was still arriving (a refetch superseded this one, the screen
      // was left): as quiet as a cancel before the answer, not a broken connection.
      if (options.signal?.aborted) throw error;
      payload = null;
    }
  }
  if (response.status === 204) return { code: SUCCESS_CODE, msg: '' } as Envelope<T>;
  return settle<T>(payload, response.status, method, path, quiet);
}

/** What an answer's envelope means: the envelope itself when it succeeded, else the failure shown (or not) and thrown. */
export function settle<T>(
  payload: unknown,
  status: number,
  method: string,
  path: string,
  quiet: boolean | undefined,
): Envelope<T> {
  // Gateway failures (502 unreachable, 504 time-out) and non-JSON answers are connection trouble.
  if (!isEnvelope(payload) || status >= 500) {
    return connectionFailure(quiet, `HTTP ${status}`);
  }

  const env = payload as Envelope<T>;
  const missing = missingCallOf(env, method, path);
  if (missing) {
    // A screen's load shows the call in place; anything else (a save, an action) says it in a toast.
    const text = t('api.missingCall', { method: missing.method, path: missing.path });
    if (!quiet && method !== 'GET') hooks.notifyError(text);
    throw new ApiError(text, env.code, true, env.data, missing);
  }
  const outcome = classifyEnvelope(env);
  switch (outcome.kind) {
    case 'ok':
      return env;
    case 'silent':
      throw new ApiError(env.msg, env.code, true, env.data);
    case 'session-lost':
      // Quiet or not: every screen behind the login is useless without the session.
      hooks.sessionEnded();
      throw new ApiError(env.msg, env.code, true, env.data);
    case 'logged-elsewhere':
      if (!quiet) hooks.loggedInElsewhere();
      throw new ApiError(env.msg, env.code, true, env.data);
    case 'toast':
      if (!quiet) hooks.notifyError(outcome.text);
      throw new ApiError(outcome.text, env.code, !quiet, env.data);
  }
}

export const api = {
  get: <T = unknown>(path: string, query?: Query, options?: Omit<RequestOptions, 'query'>) =>
    request<T>('GET', path, { ...options, query }),
  post: <T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('POST', path, { ...options, body: body ?? {} }),
  delete: <T = unknown>(path: string, query?: Query, options?: Omit<RequestOptions, 'query'>) =>
    request<T>('DELETE', path, { ...options, query }),
};
