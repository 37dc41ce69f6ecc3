import { CALLS, OWN_CALLS, type FieldKind, type OwnCallName } from '../contract/index.js';
import type { Bound, Method } from './bound.js';
import { DEFAULT_ENVELOPE, compileCall } from './compile.js';
import { FieldBinding, inferredKind, type BindingRules } from './fields.js';
import { keyCaseRule } from './key-case.js';
import type { BackendMapFile } from './types.js';

/**
 * The console's own calls outside the management screens (OWN_CALLS), as a map's `console`
 * section binds them: the site configuration read before login, the dashboard's figures, the
 * deployment calls, and three calls the gateway makes itself: the withdrawal count it polls for the
 * badge, the logout it tells the backend about, and the upload it streams to the file server.
 */

/** The calls the browser makes itself, as it makes them; the gateway's three are not routes. */
export const BROWSER_OWN_CALLS = {
  siteConfig: { method: 'GET', path: CALLS.siteConfig },
  count: { method: 'GET', path: CALLS.count },
  dailyStatistics: { method: 'GET', path: CALLS.dailyStatistics },
  financeData: { method: 'GET', path: CALLS.financeData },
  runner: { method: 'GET', path: CALLS.runner },
  runnerSetMoment: { method: 'POST', path: CALLS.runnerSetMoment },
  runnerSetWallet: { method: 'POST', path: CALLS.runnerSetWallet },
  runnerSetMomentPublic: { method: 'POST', path: CALLS.runnerSetMomentPublic },
  runnerSetAutomaticRegister: { method: 'POST', path: CALLS.runnerSetAutomaticRegister },
  runnerSaveConfig: { method: 'POST', path: CALLS.runnerSaveConfig },
  monitoring: { method: 'GET', path: CALLS.monitoring },
  importDatabase: { method: 'POST', path: CALLS.importDatabase },
} as const satisfies Partial<Record<OwnCallName, { method: 'GET' | 'POST'; path: string }>>;

export type BrowserOwnCall = keyof typeof BROWSER_OWN_CALLS;

/** The paths of the gateway's own two calls as configured (WITHDRAWAL_COUNT_PATH, BACKEND_LOGOUT_PATH). */
export interface OwnCallPaths {
  withdrawalCount: string;
  logout: string | null;
}

export const DEFAULT_OWN_CALL_PATHS: OwnCallPaths = { withdrawalCount: CALLS.withdrawalCount, logout: null };

/** One own call compiled; `bound` null when the map marks it unsupported. */
export interface CompiledOwnCall {
  name: OwnCallName;
  bound: Bound | null;
  fields: FieldBinding;
}

/**
 * Whether a map leaves one of the console's own calls to the backend: false only when its `console`
 * section marks the call unsupported (an own call the map does not name keeps the console's contract).
 * Asked before the map is compiled: the session answer tells the login page about the site configuration.
 */
export function offersOwnCall(file: BackendMapFile | null | undefined, name: OwnCallName): boolean {
  return file?.console?.calls?.[name]?.unsupported !== true;
}

/** The site configuration is read before login: the gateway sends it without the session. */
export function isOpenOwnCall(name: OwnCallName): boolean {
  return name === 'siteConfig';
}

/** Every own call the map's `console` section names, compiled; the others keep the console's own contract. */
export function compileOwnCalls(
  file: BackendMapFile,
  offset: number,
  paths: OwnCallPaths,
): Map<OwnCallName, CompiledOwnCall> {
  const section = file.console ?? {};
  const base = { ...DEFAULT_ENVELOPE, ...file.answer };
  const rules: BindingRules = {
    offset,
    keyCase: keyCaseRule(section.keyCase ?? file.keyCase),
    id: section.id ?? file.id,
  };
  const refusals = { ...file.refusals, ...section.refusals };
  const out = new Map<OwnCallName, CompiledOwnCall>();
  for (const name of OWN_CALLS) {
    const call = section.calls?.[name];
    if (!call) continue;
    const maps = call.fields ?? {};
    // The contract types these answers in TypeScript only: a field's kind is told from its binding.
    const kinds = new Map<string, FieldKind>(Object.entries(maps).map(([key, map]) => [key, inferredKind(map)]));
    const fields = new FieldBinding(kinds, maps, rules);
    if (call.unsupported) {
      out.set(name, { name, bound: null, fields });
      continue;
    }
    if (name === 'logout' && call.path === undefined && !paths.logout) {
      // config.ts stops the start with this first, naming BACKEND_MAP.
      throw new Error('console.calls.logout has no path and BACKEND_LOGOUT_PATH is unset');
    }
    const start = startOf(name, paths);
    const bound = ownShape(compileCall(base, call, start, refusals, { kinds, maps, rules }));
    out.set(name, { name, bound, fields });
  }
  return out;
}

/**
 * What the console reads as an own call's data is where `data` (and `record` inside it) point: a
 * figure's object, or the withdrawal count's bare number; relations are read inside it. The same
 * for each of its `also` calls.
 */
function ownShape(compiled: Bound): Bound {
  return {
    ...compiled,
    envelope: { ...compiled.envelope, data: [...compiled.envelope.data, ...compiled.record] },
    record: [],
    shaped: true,
    also: compiled.also.map(ownShape),
  };
}

function startOf(name: OwnCallName, paths: OwnCallPaths): { method: Method; path: string } {
  if (name === 'withdrawalCount') return { method: 'GET', path: paths.withdrawalCount };
  if (name === 'logout') return { method: 'POST', path: paths.logout ?? '' };
  if (name === 'upload') return { method: 'POST', path: CALLS.upload };
  return BROWSER_OWN_CALLS[name];
}
