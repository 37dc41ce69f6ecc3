import type { Resource } from '../contract/index.js';
import { GatewayError } from '../errors.js';
import type { ConsoleCall } from './calls.js';
import type { FieldBinding } from './fields.js';

type Row = Record<string, unknown>;

/** The members any management call of the contract may carry besides its fields (paging, order, targets). */
const GENERIC_KEYS = ['id', 'ids', 'pageNum', 'pageSize', 'keyword', 'sort', 'startDate', 'endDate'] as const;
const DATE_RANGE = /^(.+)(From|To)$/;

/** The inputs of the call's action (or of any action of that name: a row and a bulk variant). */
function actionInputs(resource: Resource, action: string | null): string[] {
  if (action === null || (resource.kind !== 'list' && resource.kind !== 'settings')) return [];
  return (resource.actions ?? []).filter((a) => a.name === action).flatMap((a) => (a.inputs ?? []).map((f) => f.key));
}

/**
 * The client's input to a mapped call, cut to what the console's contract defines for it: the
 * resource's fields (filters, a save's values, a date range's ends), the action's inputs, paging,
 * order, the targets, and the members the map itself renames. A backend map writes its own names
 * (`rechargeId`, a status code, a signature member); a client naming one of them directly would
 * otherwise overwrite the translated value, so the backend acted on one record while the trail, the
 * History tab and "Reviewed by" named another. Dropped members never reach the backend. Two
 * members landing on one backend name (`id` and a field the map also names `rechargeId`), or a
 * target named both as `id` and in `ids`, are refused: the backend would read one of them.
 */
export function clientInput(call: ConsoleCall, fields: FieldBinding, renames: Record<string, string>, input: Row): Row {
  const allowed = new Set<string>([
    ...GENERIC_KEYS,
    ...[...fields.byKey.keys()].filter((key) => !fields.shown.has(key)),
    ...actionInputs(call.resource, call.action),
  ]);
  const out: Row = Object.create(null) as Row;
  const names = new Map<string, string>();
  for (const key of Object.keys(input)) {
    const range = DATE_RANGE.exec(key);
    const known =
      allowed.has(key) ||
      Object.hasOwn(renames, key) ||
      (range !== null && ['date', 'datetime'].includes(fields.byKey.get(range[1]!)?.kind ?? ''));
    if (!known) continue;
    out[key] = input[key];
    if (range !== null && !allowed.has(key)) continue;
    const name = Object.hasOwn(renames, key) ? renames[key]! : fields.nameOf(key);
    const other = names.get(name);
    if (other !== undefined && fields.byKey.get(key)?.absent !== true)
      throw new GatewayError('BAD_REQUEST', `${other} and ${key} both name the backend's ${name}: send one`);
    if (fields.byKey.get(key)?.absent !== true) names.set(name, key);
  }
  const named = (value: unknown) => value !== undefined && value !== null;
  if ((call.kind === 'action' || call.kind === 'delete') && named(out.id) && named(out.ids))
    throw new GatewayError('BAD_REQUEST', `${call.path} takes id or ids, not both`);
  return out;
}
