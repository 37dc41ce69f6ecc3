import type { FastifyRequest } from 'fastify';
import type { FieldDef, SettingsResource } from '../contract/index.js';
import { GatewayError } from '../errors.js';
import type { HeldRoute } from './held-calls.js';

type Row = Record<string, unknown>;

/** Records a held approval may name at once: each is read from the backend before holding. */
export const MAX_HELD_TARGETS = 100;

/** A held call's body as the gateway judged it, and whether the client already spelled it that way. */
export interface HeldBody {
  /** The body with its ids in their one spelling: what is held, sent and compared. */
  body: Row;
  /** The records an action names, in their one spelling, each once; empty for a settings save. */
  targets: string[];
  /** True when the client sent exactly `body` (a retry is recognised only in that spelling). */
  canonical: boolean;
}

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Members a held action's body may carry: anything else could be a backend's own name for the targets, sent on unheld. */
const ACTION_MEMBERS = new Set(['id', 'ids']);

const DIGITS = /^\+?(\d+)$/;
/** A backend's opaque id (an ObjectId, a UUID): no separator a backend could split on, no sign. */
const OPAQUE_ID = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,127}$/;

function bad(route: HeldRoute, why: string): GatewayError {
  return new GatewayError('BAD_REQUEST', `${route.path}: ${why}`);
}

/**
 * One id in the contract's type (a whole number; text only where a number could not hold it), or
 * null when it is not an id. `4`, `"4"`, `"04"`, `"4 "` and `"+4"` are all 4: a backend reads them
 * as one record, so the hold must key them as one.
 */
export function normalisedId(value: unknown): number | string | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const digits = DIGITS.exec(text);
  if (digits) {
    const bare = digits[1]!.replace(/^0+(?=\d)/, '');
    return bare.length <= 15 ? Number(bare) : bare;
  }
  return OPAQUE_ID.test(text) ? text : null;
}

/**
 * The body of a held action: `{id}` or `{ids: [...]}`, never both, each id an id of the contract's
 * type and each record once. Text (`"1,2"`, which Java backends split into two ids) or an object
 * under `ids`, an id beside a list, or the same record twice is refused: the hold must judge every
 * record the backend could read from the body, and only a body with one reading has that.
 */
function actionBody(route: HeldRoute, body: Row): { body: Row; targets: string[] } {
  const foreign = Object.keys(body).find((key) => !ACTION_MEMBERS.has(key));
  if (foreign !== undefined)
    throw bad(route, `takes only id or ids while it is held for a second approver, not "${foreign}"`);
  const hasId = body.id !== undefined && body.id !== null;
  const hasIds = body.ids !== undefined && body.ids !== null;
  if (hasId && hasIds) throw bad(route, 'takes id or ids, not both: a backend could read either');
  if (!hasId && !hasIds) throw bad(route, 'needs id or ids');
  if (hasId) {
    const id = normalisedId(body.id);
    if (id === null) throw bad(route, 'id must be one record id (a whole number)');
    return { body: { id }, targets: [String(id)] };
  }
  if (!Array.isArray(body.ids)) throw bad(route, 'ids must be a list of record ids');
  if (body.ids.length === 0) throw bad(route, 'ids must name at least one record');
  if (body.ids.length > MAX_HELD_TARGETS)
    throw bad(route, `at most ${MAX_HELD_TARGETS} records may be approved in one call while approvals are held`);
  const ids: (number | string)[] = [];
  const seen = new Set<string>();
  for (const item of body.ids) {
    const id = normalisedId(item);
    if (id === null) throw bad(route, 'ids must be a list of record ids (whole numbers)');
    if (seen.has(String(id))) throw bad(route, `ids names record ${String(id)} twice`);
    seen.add(String(id));
    ids.push(id);
  }
  return { body: { ids }, targets: ids.map(String) };
}

/** Whether a value has the JSON type the contract gives the field's kind; null clears any field. */
function typed(field: FieldDef, value: unknown): boolean {
  if (value === null) return true;
  switch (field.kind) {
    case 'number':
    case 'money':
    case 'bytes':
      return typeof value === 'number' && Number.isFinite(value);
    case 'switch':
      return typeof value === 'boolean';
    case 'lines':
      return Array.isArray(value) && value.every((line) => typeof line === 'string');
    default:
      return typeof value === 'string';
  }
}

/**
 * A held settings save's members checked against the screen's fields before anything is compared:
 * a secret sent as a number, a switch as text, is refused rather than judged by a rule written for
 * the field's own type. Members the screen does not declare are left to the comparison, which
 * shows each of them as a change.
 */
function settingsBody(route: HeldRoute, resource: SettingsResource, body: Row): Row {
  for (const field of resource.fields) {
    if (!Object.hasOwn(body, field.key)) continue;
    if (!typed(field, body[field.key])) throw bad(route, `${field.key} must be ${kindName(field)}`);
  }
  return body;
}

function kindName(field: FieldDef): string {
  if (field.kind === 'number' || field.kind === 'money' || field.kind === 'bytes') return 'a number';
  if (field.kind === 'switch') return 'true or false';
  if (field.kind === 'lines') return 'a list of text';
  return 'text';
}

/**
 * The JSON body of a held call, judged before any hold decision. Only JSON is taken: a form or other
 * body could carry the targets where the gateway does not look, so it is refused rather than sent
 * unheld. The body the gateway holds and sends on is the judged one, so the backend reads what the
 * hold was decided on.
 */
export function heldBody(request: FastifyRequest, route: HeldRoute): HeldBody {
  if (request.url.includes('?'))
    throw bad(route, 'takes its values in a JSON body only while it is held for a second approver');
  let body: unknown = request.body;
  if (body === undefined || body === null) body = {};
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body) as unknown;
    } catch {
      throw bad(route, 'takes a JSON body');
    }
  }
  if (Buffer.isBuffer(body)) throw new GatewayError('UNSUPPORTED_MEDIA_TYPE', `${route.path} takes a JSON body`);
  if (!isRow(body)) throw bad(route, 'takes a JSON object');
  if (route.kind === 'settings')
    return { body: settingsBody(route, route.resource, body), targets: [], canonical: true };
  const judged = actionBody(route, body);
  return { ...judged, canonical: JSON.stringify(judged.body) === JSON.stringify(body) };
}
