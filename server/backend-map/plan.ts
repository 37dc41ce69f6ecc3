import { randomInt } from 'node:crypto';
import { GatewayError } from '../errors.js';
import type { BackendRequest, Bound, Prepared, PreparedStep } from './bound.js';
import { nowValue } from './clock-values.js';
import type { CallMap } from './types.js';

type Row = Record<string, unknown>;

/**
 * Calls that reach beyond one request made from the console's parameters (schema-call.ts): the
 * session's and the clock's values placed among the parameters, and the plans of several requests
 * (one per id, one per generated code, a read before a save) that plan-run.ts sends.
 */

/** What a call of a session carries besides the console's parameters. */
export interface CallContext {
  /** The session's credentials as the login gave them (null or absent: no session, as the probe's first reads). */
  session?: { userId: string; kept?: Readonly<Record<string, string>> } | null;
  /** The time of the call (ms); default now. */
  now?: number;
}

/** Builds one request of a prepared call: its console parameters, backend parameters added, a record under them. */
export type MakeRequest = (input: Row, added?: Row, base?: Row) => BackendRequest;

/** A call of several requests, told by kind; sent by plan-run.ts. */
export type Plan =
  | { kind: 'each'; ids: unknown[]; requests: BackendRequest[]; then?: PreparedStep[][] }
  | { kind: 'repeat'; codes: string[]; requests: BackendRequest[] }
  | { kind: 'merge'; read: Extract<Prepared, { bound: Bound }>; request: (record: Row) => BackendRequest };

/** The session's values a call names, as backend parameters. A value the session lacks stops the call. */
export function sessionParams(call: CallMap, context: CallContext): Row {
  const out: Row = {};
  for (const [param, name] of Object.entries(call.session ?? {})) {
    const session = context.session;
    const value = name === 'userId' ? session?.userId : session?.kept?.[name];
    if (value === undefined || value === '') {
      throw new GatewayError(
        'BAD_REQUEST',
        `the backend's ${call.path ?? 'call'} needs ${param}, the session's ${name}, which this session does not hold`,
      );
    }
    out[param] = value;
  }
  return out;
}

/** The clock's values a call names, as backend parameters. */
export function clockParams(call: CallMap, context: CallContext, offset: number): Row {
  const out: Row = {};
  if (!call.now) return out;
  const now = context.now ?? Date.now();
  for (const [param, value] of Object.entries(call.now)) out[param] = nowValue(value, now, offset);
  return out;
}

/** A code of `length` characters drawn uniformly from `chars`. */
export function makeCode(length: number, chars: string): string {
  let code = '';
  for (let i = 0; i < length; i++) code += chars[randomInt(chars.length)];
  return code;
}

/** The count a repeated call asks for, within 1 and its `max`. */
function repeatCount(input: Row, name: string, max: number): number {
  const raw = input[name];
  const count = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isInteger(count) || count < 1 || count > max)
    throw new GatewayError('BAD_REQUEST', `${name} must be a whole number from 1 to ${max}`);
  return count;
}

/**
 * The plan of a prepared call, when its map asks for more than one request: `each` over a
 * selection or a delete's ids (a single id stays one plain request), `repeat` over a count, or
 * `merge` behind a read of the settings (`readConfig`, the resource's config call prepared).
 */
export function planOf(bound: Bound, input: Row, make: MakeRequest, readConfig: () => Prepared): Plan | null {
  const { call } = bound;
  if (call.each && Array.isArray(input.ids) && input.ids.length > 1) {
    const { ids, ...rest } = input;
    return { kind: 'each', ids: [...ids], requests: ids.map((id) => make({ ...rest, id })) };
  }
  if (call.repeat) {
    const { count: name, max, code } = call.repeat;
    const count = repeatCount(input, name, max);
    const { [name]: _count, ...rest } = input;
    const codes = Array.from({ length: count }, () => makeCode(code.length, code.chars));
    return { kind: 'repeat', codes, requests: codes.map((value) => make(rest, { [code.param]: value })) };
  }
  if (call.merge === 'config') {
    const read = readConfig();
    if ('unsupported' in read) throw new Error('a merged save needs the config call (checked at load)');
    return { kind: 'merge', read, request: (record) => make(input, {}, record) };
  }
  return null;
}

/** The input of a call sent once per id when the console named a single one in `ids`. */
export function singleOfEach(call: CallMap, input: Row): Row {
  if (!call.each || !Array.isArray(input.ids) || input.ids.length !== 1) return input;
  const { ids, ...rest } = input;
  return { ...rest, id: ids[0] };
}
