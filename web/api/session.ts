import { computed, signal } from '@preact/signals-react';
import { CALLS, type LoginAnswer, type LoginBody, type OwnCallName, type SiteConfig } from '#contract/calls';
import { SUCCESS_CODE } from '#contract/envelope';
import {
  GATEWAY_PATHS,
  OFFER_LISTS,
  OFFER_TABLES,
  SANDBOX_DIALECTS,
  fullOffer,
  type BackendOffer,
  type LoginThrottled,
  type SessionInfo,
} from '#contract/gateway';
import { api, ApiError } from './client.js';
import { pageMessagesReady, t, type MessageKey } from '../i18n/index.js';
import { isString, persistedSignal } from '../lib/persisted.js';

/**
 * What the UI knows of the session. The token itself stays in the gateway's httpOnly cookies;
 * the UI only learns whether it is logged in (GET /api/session).
 */
export const session = signal<SessionInfo | null>(null);
/** null until loaded after login; the guard loads it on the first navigation. */
export const permissions = signal<readonly string[] | null>(null);
export const siteConfig = signal<SiteConfig | null>(null);
/**
 * The account name typed at the last login in this browser, for the avatar's initial: the
 * gateway's session names every administrator "Admin".
 */
export const accountName = persistedSignal('account', '', isString);

/** The first character of the account, as people write it (a whole CJK character or emoji). */
export function accountInitial(account: string): string {
  const first = Array.from(account.trim())[0];
  return first ? first.toLocaleUpperCase() : 'A';
}

const NOTHING_LEFT_OUT: BackendOffer = fullOffer();
/** What the gateway's backend map leaves out; loaded with the permissions. */
export const backendOffer = signal<BackendOffer>(NOTHING_LEFT_OUT);

function lists(value: unknown): Record<string, string[]> {
  if (typeof value !== 'object' || value === null) return {};
  const out: Record<string, string[]> = {};
  for (const [key, list] of Object.entries(value))
    if (Array.isArray(list)) out[key] = list.filter((x): x is string => typeof x === 'string');
  return out;
}

/**
 * How an own call the backend lacks (a dashboard figure, a deployment call) is named among the
 * unoffered screens: apart from resource ids, which have no dot.
 */
export function ownCallKey(name: OwnCallName): string {
  return `console.${name}`;
}

function names(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * Resource ids of the screens the backend does not offer, and the own calls it lacks (ownCallKey),
 * which take the pages that cannot work without them (routes.ts `needs`) out the same way.
 */
export const unofferedScreens = computed<ReadonlySet<string>>(
  () =>
    new Set([
      ...backendOffer.value.unsupported.resources,
      ...backendOffer.value.unsupported.console.map((n) => ownCallKey(n as OwnCallName)),
    ]),
);

/** Whether the backend offers one of the console's own calls (a dashboard figure, the badge's count). */
export function offersCall(name: OwnCallName): boolean {
  return !backendOffer.value.unsupported.console.includes(name);
}

/**
 * The figures of one of the console's own calls the backend lacks (a KPI card, a chart's series):
 * its map marks them absent, and the panel leaves them out rather than showing nothing for them.
 */
export function absentFigures(name: OwnCallName): ReadonlySet<string> {
  const offer = backendOffer.value;
  // One set per offer and call, so a panel's memos keep it across renders.
  let byCall = figureSets.get(offer);
  if (!byCall) figureSets.set(offer, (byCall = new Map()));
  let set = byCall.get(name);
  if (!set) byCall.set(name, (set = new Set(offer.unsupported.fields[ownCallKey(name)] ?? [])));
  return set;
}
const figureSets = new WeakMap<BackendOffer, Map<OwnCallName, ReadonlySet<string>>>();

/** Read leniently: a gateway that cannot say leaves every screen in place, as without a map. */
export async function loadBackendOffer(): Promise<BackendOffer> {
  try {
    const res = await fetch(GATEWAY_PATHS.backendOffer, {
      credentials: 'same-origin',
      signal: AbortSignal.timeout(60_000),
    });
    const body = (await res.json()) as Partial<BackendOffer>;
    const raw = res.ok && body.unsupported ? body.unsupported : null;
    if (raw) {
      // The other members (shown, needs, inputOptions) are checked where they are read (record-fields.tsx,
      // offer.ts), out of the login page's first load; unsupported is rebuilt here from checked lists.
      const offer: BackendOffer = { ...body, ...fullOffer() };
      for (const key of OFFER_LISTS) offer.unsupported[key] = names(raw[key]);
      for (const key of OFFER_TABLES) offer.unsupported[key] = lists(raw[key]);
      backendOffer.value = offer;
    } else backendOffer.value = NOTHING_LEFT_OUT;
  } catch {
    backendOffer.value = NOTHING_LEFT_OUT;
  }
  return backendOffer.value;
}

export async function loadSession(): Promise<SessionInfo> {
  const info = await fetchSession();
  session.value = info;
  return info;
}

async function fetchSession(): Promise<SessionInfo> {
  // A gateway that cannot be reached or read answers nothing: logged out, with every default.
  let raw: Partial<SessionInfo> = {};
  try {
    const res = await fetch(GATEWAY_PATHS.session, { credentials: 'same-origin', signal: AbortSignal.timeout(60_000) });
    const body = (await res.json()) as Partial<SessionInfo> & { data?: Partial<SessionInfo> };
    // Accept the bare object or one wrapped in the envelope.
    raw = typeof body.loggedIn === 'boolean' ? body : (body.data ?? {});
  } catch {
    /* as logged out */
  }
  return readSession(raw);
}

/** The session as the gateway told it, each member checked; what it leaves out takes its default. */
function readSession(raw: Partial<SessionInfo>): SessionInfo {
  return {
    loggedIn: raw.loggedIn === true,
    userId: raw.userId ?? null,
    name: 'Admin',
    sandbox: raw.sandbox === true,
    webClientUrl: typeof raw.webClientUrl === 'string' ? raw.webClientUrl : null,
    sandboxDialect: SANDBOX_DIALECTS.find((d) => d === raw.sandboxDialect) ?? null,
    currency: typeof raw.currency === 'string' && /^[A-Z]{3}$/.test(raw.currency) ? raw.currency : '',
    // Absent (an older gateway): asked for, as before a map could leave it out.
    siteConfigOffered: raw.siteConfigOffered !== false,
  };
}

export class LoginError extends Error {}

/** Too many failed logins: the gateway takes the next attempt after `retryAfterSeconds`. */
export class LoginThrottledError extends LoginError {
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many failed logins; try again in ${retryAfterSeconds} s`);
  }
}

/** The seconds of a throttled login's answer, or null when the error is something else. */
function throttledSeconds(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.code !== 429) return null;
  const seconds = (error.data as Partial<LoginThrottled> | undefined)?.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 60;
}

/**
 * The account is trimmed; success only on code 200. Errors come back translated.
 * Returns the new session without publishing it, so the caller can navigate and publish in the
 * same tick (otherwise the guard would first see "logged in on /login" and go to the root).
 */
export async function login(
  account: string,
  password: string,
  code: string,
  options: { keepPermissions?: boolean } = {},
): Promise<SessionInfo> {
  const body: LoginBody = { account: account.trim(), password, code: code.trim() };
  try {
    const env = await api.post<LoginAnswer>(CALLS.login, body, { quiet: true });
    if (env.code !== SUCCESS_CODE) throw new LoginError(env.msg);
  } catch (error) {
    const wait = throttledSeconds(error);
    if (wait !== null) throw new LoginThrottledError(wait);
    if (error instanceof ApiError && error.code === 0) throw new LoginError(t('api.connectionError'));
    if (
      error instanceof ApiError &&
      (error.data as { authenticatorNeeded?: unknown } | undefined)?.authenticatorNeeded
    ) {
      // The gateway's AUTHENTICATOR_NEEDED: the console's own words, from the lazy page messages
      // (the login page's first load carries none of them).
      await pageMessagesReady();
      throw new LoginError(t('login.authenticatorNeeded'));
    }
    throw new LoginError(t('login.failed', { msg: error instanceof Error ? error.message : String(error) }));
  }
  // Logging in again in place keeps the list: the screen on show stays (the caller reloads for another account).
  if (!options.keepPermissions) permissions.value = null;
  accountName.value = body.account;
  return fetchSession();
}

/** Forgets the session in the UI only: the gateway already refuses it. The guard then goes to login. */
export function forgetSession(): void {
  permissions.value = null;
  // What the gateway told of itself (the sandbox, the currency...) stays; only the login goes.
  session.value = { ...readSession(session.value ?? {}), loggedIn: false, userId: null };
}

export async function logout(): Promise<void> {
  try {
    await fetch(GATEWAY_PATHS.logout, { method: 'POST', credentials: 'same-origin' });
  } catch {
    /* the cookies may already be gone; the UI state is reset either way */
  }
  forgetSession();
}

export class PermissionError extends Error {
  constructor(
    readonly key: MessageKey | null,
    message: string,
  ) {
    super(message);
  }
}

/** A missing result and an empty list are distinct errors, with their own messages. */
export function parsePermissionList(data: unknown): string[] {
  if (
    data === null ||
    data === undefined ||
    (typeof data === 'object' && !Array.isArray(data) && Object.keys(data).length === 0)
  ) {
    throw new PermissionError('api.noPermissionList', t('api.noPermissionList'));
  }
  if (!Array.isArray(data)) throw new PermissionError('api.noPermissionList', t('api.noPermissionList'));
  if (data.length === 0) throw new PermissionError('api.rolesEmpty', t('api.rolesEmpty'));
  const list: string[] = [];
  for (const item of data) {
    if (typeof item === 'string') list.push(item);
    else if (item && typeof item === 'object' && typeof (item as { permission?: unknown }).permission === 'string') {
      list.push((item as { permission: string }).permission);
    }
  }
  return list;
}

export async function loadPermissions(): Promise<readonly string[]> {
  // The offer first in effect: the guard decides once the permissions arrive, and must already
  // know which screens the backend lacks.
  const [env] = await Promise.all([api.get<unknown>(CALLS.permission, undefined, { quiet: true }), loadBackendOffer()]);
  const list = parsePermissionList(env.data);
  permissions.value = list;
  return list;
}

/**
 * The site configuration, asked for only when the session says the backend offers it: one its map
 * marks unsupported would answer 404 on every page load.
 */
export async function loadSiteConfig(info: Pick<SessionInfo, 'siteConfigOffered'>): Promise<SiteConfig | null> {
  if (!info.siteConfigOffered) return null;
  try {
    const env = await api.get<SiteConfig>(CALLS.siteConfig, undefined, { quiet: true });
    siteConfig.value = env.data ?? null;
  } catch {
    siteConfig.value = null;
  }
  return siteConfig.value;
}
