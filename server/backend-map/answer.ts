import { GatewayError } from '../errors.js';
import type { Bound, PreparedStep } from './bound.js';
import type { FieldBinding } from './fields.js';
import { dayData, daysAreRows } from './days.js';
import { readPointer, type Pointer } from './pointer.js';
import { shapeRecord } from './relations.js';
import { fillTemplate } from './template.js';
import { readsBySet, rowValues } from './set-values.js';
import { recordItems } from './whole-list.js';
import type { CallName } from './types.js';

type Row = Record<string, unknown>;

/** The calls whose answer is one record, shaped through the fields (the rest: rows, or data as sent). */
const RECORD_CALLS: ReadonlySet<string> = new Set<CallName>(['detail', 'create', 'update', 'config', 'saveConfig']);

/** Messages of backends that answer an unknown path inside their envelope rather than with HTTP 404. */
export const NO_SUCH_PATH =
  /no such (interface|path|api|endpoint|handler)|^endpoint not found|not found.*(path|interface|api|handler)|接口不存在|请求地址不存在|路径不存在/i;

/** A list row with the members of its nested records (`answer.lift`) beside its own; its own win. */
function lifted(row: Row, lift: readonly Pointer[]): Row {
  if (lift.length === 0) return row;
  const out: Row = {};
  for (const at of lift) {
    const inner = readPointer(row, at);
    if (typeof inner === 'object' && inner !== null && !Array.isArray(inner)) Object.assign(out, inner);
  }
  // The nested record itself leaves the row when it sits at its top (`/groupInfo`).
  const own = { ...row };
  for (const at of lift) if (at.length === 1) delete own[at[0]!];
  return Object.assign(out, own);
}

export function scalarText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The console's code of a backend's refusal: the map's table first (a backend's 40000 is the
 * console's 400), else a numeric code keeps its number, else 500.
 */
export function refusedCode(code: unknown, refusals: ReadonlyMap<string, number>): number {
  return (
    (code === undefined ? undefined : refusals.get(scalarText(code))) ??
    (typeof code === 'number' ? code : typeof code === 'string' && /^\d+$/.test(code) ? Number(code) : 500)
  );
}

function pointerText(pointer: Pointer): string {
  return pointer.length === 0 ? '""' : pointer.map((t) => `/${t}`).join('');
}

function headerValue(value: string | string[] | undefined): unknown {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The console's answer to a redirect (3xx) of a call whose map says a redirect is its success (a
 * form post answered with the backend's list page, as Shiku's keyword add is), else null: the
 * answer is then read as JSON like any other.
 */
export function redirectAnswer(prepared: PreparedStep, status: number): { status: number; body: Row } | null {
  if (status < 300 || status >= 400 || prepared.bound.call.answer?.redirect !== 'success') return null;
  return { status: 200, body: { code: 200, msg: 'ok' } };
}

/**
 * The backend's answer in the console's envelope and shape. A missing path (HTTP 404, or the
 * backend's "no such path" in its envelope) becomes BACKEND_NO_SUCH_CALL naming what was sent.
 */
/**
 * The console's name of a field the backend refused: a `params` rename read back first (a bulk
 * call's `id_list` is the console's `ids`, not the key-cased `idList`), then the fields' names.
 */
function refusedKey(name: string, bound: Bound, fields: FieldBinding): string {
  for (const [key, renamed] of Object.entries(bound.call.params ?? {})) if (renamed === name) return key;
  return fields.keyOf(name);
}

export function mapAnswer(
  prepared: PreparedStep,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  json: unknown,
): { status: number; body: Row } {
  const { bound, fields, request } = prepared;
  const sent = { method: request.method, path: request.path.split('?')[0] };
  const { byStatus } = bound.envelope;
  // Without an envelope the status is the code, and a refusal may be a bare JSON string (ejabberd's "unknown_user").
  const code = byStatus ? status : readPointer(json, bound.envelope.code);
  const message = byStatus && typeof json === 'string' ? json : readPointer(json, bound.envelope.message);
  const success = byStatus
    ? status >= 200 && status < 300
    : code !== undefined && bound.envelope.success.has(scalarText(code));
  const noSuchPath = typeof message === 'string' && NO_SUCH_PATH.test(message);
  // Such a backend answers 404 for a record it lacks too: only its "no such path" message is a missing call.
  if ((status === 404 && (!byStatus || noSuchPath || typeof message !== 'string')) || (!success && noSuchPath)) {
    throw new GatewayError('BACKEND_NO_SUCH_CALL', `${sent.method} ${sent.path}`, { data: sent });
  }
  if (!success || status >= 400) {
    const numeric = refusedCode(code, bound.refusals);
    const msg =
      typeof message === 'string' && message !== ''
        ? message
        : `The chat backend refused ${sent.method} ${sent.path} (code ${scalarText(code)})`;
    // A refused form field is named so the form can point at it, in the console's name.
    const detail = readPointer(json, bound.envelope.data);
    const field =
      typeof detail === 'object' && detail !== null && typeof (detail as Row).field === 'string'
        ? { data: { field: refusedKey((detail as Row).field as string, bound, fields) } }
        : {};
    return { status: status >= 400 ? status : 200, body: { code: numeric === 200 ? 500 : numeric, msg, ...field } };
  }
  const msg = typeof message === 'string' ? message : 'ok';
  const data = readPointer(json, bound.envelope.data);
  const name = prepared.name;
  // What the map makes of the call's own values (a password it generated) is the console's answer.
  if (bound.result !== null)
    return {
      status: 200,
      body: { code: 200, msg, data: fillTemplate(bound.result, prepared.values ?? (() => undefined)) },
    };
  if (bound.days.length > 0) {
    const record = daysAreRows(name) ? undefined : shapeRecord(data, bound, fields);
    return {
      status: 200,
      body: { code: 200, msg, data: dayData(json, prepared, `${sent.method} ${sent.path ?? ''}`, record) },
    };
  }
  if (name === 'list') {
    // Go backends write an empty list as null (OpenIM's `"users": null` past the last page).
    const found = readPointer(json, bound.list);
    const items = bound.call.whole?.items;
    const list = items ? recordItems(found, items, sent.path ?? '') : found === null ? [] : found;
    if (!Array.isArray(list))
      throw new GatewayError(
        'UPSTREAM_BAD_ANSWER',
        `${sent.path}: the list at ${pointerText(bound.list)} is not an array`,
      );
    let total: unknown = bound.totalHeader ? headerValue(headers[bound.totalHeader]) : readPointer(json, bound.total!);
    if (typeof total === 'string' && /^\d+$/.test(total)) total = Number(total);
    if (total === undefined) total = list.length;
    if (typeof total !== 'number')
      throw new GatewayError(
        'UPSTREAM_BAD_ANSWER',
        `${sent.path}: the total at ${bound.totalHeader ?? pointerText(bound.total!)} is not a number`,
      );
    const keep = bound.call.keep;
    if (keep && prepared.window) {
      // Filtered at the gateway: the kept rows are the list, their number its total, the page cut here.
      const filled = (row: unknown, name: string) => {
        const value = typeof row === 'object' && row !== null ? (row as Row)[name] : undefined;
        return value !== undefined && value !== null && value !== '';
      };
      const kept = list.filter(
        (row) =>
          (keep.present === undefined || filled(row, keep.present)) &&
          (keep.absent === undefined || !filled(row, keep.absent)),
      );
      const { page, size } = prepared.window;
      const rows = kept
        .slice((page - 1) * size, page * size)
        .map((row) =>
          typeof row === 'object' && row !== null ? fields.fromBackend(lifted(row as Row, bound.lift)) : row,
        );
      // The backend's totals are of rows the gateway dropped too: none are given.
      return { status: 200, body: { code: 200, msg, data: { list: rows, total: kept.length } } };
    }
    const rows = list.map((row) =>
      typeof row === 'object' && row !== null ? fields.fromBackend(lifted(row as Row, bound.lift)) : row,
    );
    const out: Row = { list: rows, total };
    const totals = readPointer(json, bound.totals);
    if (typeof totals === 'object' && totals !== null) out.totals = fields.fromBackend(totals as Row);
    return { status: 200, body: { code: 200, msg, data: out } };
  }
  if (readsBySet(bound)) return { status: 200, body: { code: 200, msg, data: rowValues(bound, fields, data) } };
  if (RECORD_CALLS.has(name) || bound.shaped) {
    return { status: 200, body: { code: 200, msg, data: shapeRecord(data, bound, fields) } };
  }
  return { status: 200, body: { code: 200, msg, ...(data === undefined ? {} : { data }) } };
}
