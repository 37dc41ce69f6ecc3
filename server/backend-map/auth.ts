import { scalarText, refusedCode } from './answer.js';
import { parsePointer, readPointer, type Pointer } from './pointer.js';
import { SIGNERS, type Signer } from './signers/index.js';
import { skewOf } from './clock.js';
import type { AuthMap, BackendMapFile, EnvelopeMap, LoginMap, Scalar, TravelMap } from './types.js';
import { hexDigest } from './digest.js';
import { generatedValue } from './generate.js';

/** The credentials of a session as the backend gave them at login. */
export interface SessionCredentials {
  token: string;
  userId: string;
  /** The login answer's values the map keeps (absent: none). */
  kept?: Readonly<Record<string, string>>;
}

/** What one call to the backend carries for the map's `auth`: headers, and query parameters set on its path. */
export interface CallCredentials {
  headers: Record<string, string>;
  query: Record<string, string>;
}

/** The contract's login body, as the console's form sent it. */
export interface ConsoleLogin {
  account: string;
  password: string;
  code: string;
}

/** What the backend's login answer says: a session's credentials, or its refusal in the console's terms. */
export type LoginOutcome =
  | { ok: true; credentials: SessionCredentials }
  | { ok: false; code: number; msg: string; authenticatorNeeded?: true }
  | { ok: false; unusable: string };

/** The backend's login call as the gateway sends it. */
export interface LoginRequest {
  method: NonNullable<LoginMap['method']>;
  path: string;
  body?: { contentType: string; text: string };
  /** Headers of the login call itself (a Basic login's credentials). */
  headers?: Record<string, string>;
  /** A Basic login's credentials (base64) and user: the session's token and user id once it is in. */
  basic?: { token: string; user: string };
}

/** The console's own answer to a wrong account or password (the sandbox answers the same). */
export const WRONG_LOGIN = { code: 1001, msg: 'Wrong account or password' } as const;

/** A kept value goes into the sealed cookie: plain, bounded text only. */
const KEPT_VALUE = /^[\x20-\x7e]{0,256}$/;

function place(out: CallCredentials, travel: TravelMap | undefined, value: string): void {
  if (!travel) return;
  // The prefix is a header's scheme ("Bearer "): a query parameter or a cookie carries the bare value.
  for (const name of travel.headers ?? []) out.headers[name.toLowerCase()] = `${travel.prefix ?? ''}${value}`;
  if (travel.query !== undefined) out.query[travel.query] = value;
  if (travel.cookie !== undefined) {
    const pair = `${travel.cookie}=${value}`;
    out.headers.cookie = out.headers.cookie ? `${out.headers.cookie}; ${pair}` : pair;
  }
}

/**
 * A query string (without "?") with `query` set on it: each name replaces any of that name it had
 * (a browser's own `access_token` never rides along), the other pairs keep their encoding as sent.
 */
export function setQuery(search: string, query: Record<string, string>): string {
  const names = new Set(Object.keys(query));
  if (names.size === 0) return search;
  const nameOf = (pair: string) => {
    const raw = pair.split('=', 1)[0]!.replace(/\+/g, ' ');
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  };
  const kept = search === '' ? [] : search.split('&').filter((pair) => pair !== '' && !names.has(nameOf(pair)));
  return [...kept, new URLSearchParams(query).toString()].join('&');
}

/** `path` (maybe with a query) with `query` set on it, as setQuery does. */
export function withQuery(path: string, query: Record<string, string>): string {
  if (Object.keys(query).length === 0) return path;
  const at = path.indexOf('?');
  return `${at < 0 ? path : path.slice(0, at)}?${setQuery(at < 0 ? '' : path.slice(at + 1), query)}`;
}

/**
 * A backend map's `auth`, compiled: the backend's login call built from the console's form and its
 * answer read back, and what every later call carries (the token and user id the map's way, the
 * generated values, the signature).
 */
export class BackendAuth {
  private readonly login: LoginMap;
  private readonly code: Pointer;
  private readonly message: Pointer;
  private readonly success: Set<string>;
  private readonly token: Pointer;
  private readonly userId: Pointer;
  private readonly keep: [string, Pointer][];
  private readonly signer: Signer | null;
  private readonly signerOptions: Readonly<Record<string, Scalar>>;

  constructor(
    readonly map: AuthMap,
    envelope: EnvelopeMap = {},
    private readonly refusals: ReadonlyMap<string, number> = new Map(),
  ) {
    this.login = map.login;
    const answer = map.login.answer;
    this.code = parsePointer(answer.code ?? envelope.code ?? '/code');
    this.message = parsePointer(answer.message ?? envelope.message ?? '/msg');
    this.success = new Set((answer.success ?? envelope.success ?? [200]).map(String));
    this.token = parsePointer(answer.token ?? '');
    this.userId = parsePointer(answer.userId ?? '');
    this.keep = Object.entries(answer.keep ?? {}).map(([name, pointer]) => [name, parsePointer(pointer)]);
    const signer = map.signer ? SIGNERS.get(map.signer.name) : undefined;
    if (map.signer && !signer) throw new Error(`no signer "${map.signer.name}"`);
    this.signer = signer ?? null;
    this.signerOptions = map.signer?.options ?? {};
  }

  /** The backend's login call for the console's form: path (with query), method, body and headers. */
  loginRequest(form: ConsoleLogin): LoginRequest {
    const { login } = this;
    if (login.basic) return this.basicRequest(login, form);
    const names = { account: 'account', password: 'password', ...login.fields };
    const transform = login.password ?? 'none';
    const params: Record<string, Scalar> = {
      ...login.extra,
      [names.account]: form.account,
      [names.password]: transform === 'none' ? form.password : hexDigest(transform, form.password),
    };
    if (login.fields?.code !== undefined) params[login.fields.code] = form.code;
    // A field the form left empty goes as the map's stand-in (Shiku's `int googlecode` refuses '').
    for (const [field, value] of Object.entries(login.whenEmpty ?? {}) as [keyof ConsoleLogin, Scalar][]) {
      const name = names[field];
      if (name !== undefined && form[field] === '' && name in params) params[name] = value;
    }
    const method = login.method ?? 'POST';
    const where = login.in ?? (method === 'GET' ? 'query' : 'json');
    if (where === 'json')
      return { method, path: login.path, body: { contentType: 'application/json', text: JSON.stringify(params) } };
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) if (value !== null) search.set(name, String(value));
    if (where === 'form')
      return {
        method,
        path: login.path,
        body: { contentType: 'application/x-www-form-urlencoded', text: search.toString() },
      };
    return { method, path: withQuery(login.path, Object.fromEntries(search)) };
  }

  /**
   * HTTP Basic: the account (on the map's host unless typed with one) and password go as the
   * call's credentials, never in its body; what the call answers only says whether they may in.
   */
  private basicRequest(login: LoginMap, form: ConsoleLogin): LoginRequest {
    const user = form.account.includes('@') ? form.account : login.basic!.user.replaceAll('{account}', form.account);
    const credentials = Buffer.from(`${user}:${form.password}`, 'utf8').toString('base64');
    const method = login.method ?? 'POST';
    const body = { contentType: 'application/json', text: JSON.stringify(login.extra ?? {}) };
    return {
      method,
      path: login.path,
      ...(method === 'GET' ? {} : { body }),
      headers: { authorization: `Basic ${credentials}` },
      basic: { token: credentials, user },
    };
  }

  /**
   * Reads the backend's login answer (JSON already parsed; `status` its HTTP status). A Basic
   * login is in on any 2xx: its credentials become the session's token. 401 (a wrong password)
   * and 403 (an account that is not the server's administrator) are both the console's wrong
   * login, so the form never tells which accounts exist.
   */
  readLogin(json: unknown, status = 200, sent?: LoginRequest): LoginOutcome {
    if (sent?.basic) {
      if (status >= 200 && status < 300)
        return { ok: true, credentials: { token: sent.basic.token, userId: sent.basic.user } };
      if (status === 401 || status === 403) return { ok: false, code: WRONG_LOGIN.code, msg: WRONG_LOGIN.msg };
      const text = typeof json === 'string' ? json : readPointer(json, this.message);
      return {
        ok: false,
        code: status >= 400 ? status : 500,
        msg: typeof text === 'string' && text !== '' ? text : `The chat backend refused the login (HTTP ${status})`,
      };
    }
    const code = readPointer(json, this.code);
    const message = readPointer(json, this.message);
    if (code === undefined || !this.success.has(scalarText(code))) {
      const numeric = refusedCode(code, this.refusals);
      const msg =
        typeof message === 'string' && message !== ''
          ? message
          : `The chat backend refused the login (code ${scalarText(code)})`;
      const needed = typeof message === 'string' && (this.login.answer.authenticatorNeeded ?? []).includes(message);
      return {
        ok: false,
        code: numeric === 200 ? 500 : numeric,
        msg,
        ...(needed ? { authenticatorNeeded: true } : {}),
      };
    }
    const token = readPointer(json, this.token);
    if (typeof token !== 'string' || token === '')
      return { ok: false, unusable: `no token at ${this.login.answer.token}` };
    const rawUserId = readPointer(json, this.userId);
    if (typeof rawUserId !== 'string' && typeof rawUserId !== 'number')
      return { ok: false, unusable: `no user id at ${this.login.answer.userId}` };
    const kept: Record<string, string> = {};
    for (const [name, pointer] of this.keep) {
      const value = readPointer(json, pointer);
      if (value === undefined || value === null) continue;
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      if (!KEPT_VALUE.test(text)) return { ok: false, unusable: `the kept value "${name}" is not short plain text` };
      kept[name] = text;
    }
    return { ok: true, credentials: { token, userId: String(rawUserId), kept } };
  }

  /**
   * What one call carries: the generated values always (OpenIM wants its operationID on the login
   * too), the token, user id and signature when it is made for a session.
   */
  credentials(session: SessionCredentials | null, method: string, path: string, clock = Date.now()): CallCredentials {
    const out: CallCredentials = { headers: {}, query: {} };
    // The backend's time, when the login measured how far its clock is from ours (auth.clock).
    const now = clock + skewOf(session?.kept);
    for (const generated of this.map.generated ?? []) {
      // A header or query value is text; the time zone plays no part in these three.
      const value = String(generatedValue(generated.value, now, 0));
      if (generated.header !== undefined) out.headers[generated.header.toLowerCase()] = value;
      if (generated.query !== undefined) out.query[generated.query] = value;
    }
    if (!session) return out;
    place(out, this.map.token, session.token);
    place(out, this.map.userId, session.userId);
    const signature = this.signer?.sign({
      method,
      path: path.split('?')[0]!,
      session: { token: session.token, userId: session.userId, kept: session.kept ?? {} },
      options: this.signerOptions,
      now,
    });
    if (signature) {
      for (const [name, value] of Object.entries(signature.headers ?? {})) out.headers[name.toLowerCase()] = value;
      Object.assign(out.query, signature.query);
    }
    return out;
  }
}

/** A map's auth compiled with the map's envelope and refusals; null when the map has none. */
export function backendAuthOf(map: BackendMapFile | undefined): BackendAuth | null {
  return map?.auth ? new BackendAuth(map.auth, map.answer, new Map(Object.entries(map.refusals ?? {}))) : null;
}
