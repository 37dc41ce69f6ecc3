import fp from 'fastify-plugin';
import {
  LINK_MAX_LENGTH,
  RESOURCES,
  checkRules,
  formFields,
  resourceCalls,
  validateField,
  type FieldDef,
  type FieldRule,
  type Resource,
  type ValidationCode,
} from '../contract/index.js';
import { GatewayError } from '../errors.js';
import { pathOf } from '../lib/request-path.js';

/** The values a contract call takes, and the rules between them. */
interface CheckedCall {
  /** A save's fields differ between a create (no id) and an update. */
  fields: (body: Record<string, unknown>) => readonly FieldDef[];
  rules: readonly FieldRule[];
}

function callsOf(resource: Resource): [string, CheckedCall][] {
  const calls = resourceCalls(resource);
  const out: [string, CheckedCall][] = [];
  const inputsOf = (inputs: readonly FieldDef[] | undefined): CheckedCall => ({
    fields: () => inputs ?? [],
    rules: [],
  });
  if (resource.kind === 'list') {
    if (resource.create || resource.edit) {
      const create = formFields(resource, 'create');
      const edit = formFields(resource, 'edit');
      const fields = (body: Record<string, unknown>) => (body.id === undefined || body.id === null ? create : edit);
      out.push([calls.save, { fields, rules: resource.rules ?? [] }]);
    }
  }
  if (resource.kind === 'settings') {
    const fields = formFields(resource, 'edit');
    out.push([calls.config, { fields: () => fields, rules: resource.rules ?? [] }]);
  }
  if (resource.kind === 'list' || resource.kind === 'settings') {
    for (const action of resource.actions ?? []) {
      if (action.inputs?.length) out.push([calls.action(action.name), inputsOf(action.inputs)]);
    }
  }
  if (resource.kind === 'operation') out.push([calls.action(resource.run), inputsOf(resource.inputs)]);
  return out;
}

const isRow = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);

export interface ValueProblem {
  field: string;
  code: ValidationCode;
  /** The field a cross-field rule measured it against. */
  limit?: string;
}

/**
 * What a call's JSON body breaks of the contract: each value it sends, by its field's rules (a
 * required one of only spaces is empty; a length counts what the reader sees), then the rules
 * between the fields it sends. A value left out is the backend's to judge (an update sends only
 * what changed; a password left empty keeps the old one).
 */
export function problemsOf(call: CheckedCall, body: Record<string, unknown>): ValueProblem[] {
  const problems: ValueProblem[] = [];
  for (const field of call.fields(body)) {
    if (!Object.hasOwn(body, field.key)) continue;
    const value = body[field.key];
    if (field.kind === 'password' && (value === '' || value === null)) continue;
    if (field.kind === 'switch' && (value === null || typeof value === 'boolean')) continue;
    const code = validateField(field, value);
    if (code) problems.push({ field: field.key, code });
  }
  if (problems.length > 0) return problems;
  return checkRules(call.rules, body).map((breach) => ({ ...breach, code: 'exceedsField' as const }));
}

/**
 * The contract's rules at the gateway: a contract call (a save, a settings save, an action's or
 * operation's inputs) whose JSON body breaks them is answered 400 `INVALID_VALUE` before the backend
 * sees it, before dual control holds it for a second approver (a checker is never asked to confirm
 * a save that cannot stand) and before the audit trail plans an entry (nothing was tried). Its hook
 * runs at preValidation, ahead of both plugins' preHandler hooks, on every route: the proxy's and
 * the backend map's.
 */
export default fp(
  async (app) => {
    const table = new Map<string, CheckedCall>(RESOURCES.flatMap(callsOf));
    app.addHook('preValidation', async (request) => {
      if (request.method !== 'POST') return;
      const call = table.get(pathOf(request.url));
      if (!call) return;
      let body: unknown = request.body;
      if (typeof body === 'string') {
        try {
          body = JSON.parse(body) as unknown;
        } catch {
          return;
        }
      }
      // Only a JSON object is read here; anything else is left to the route (a held call refuses it).
      if (!isRow(body)) return;
      const problems = problemsOf(call, body);
      if (problems.length === 0) return;
      // A link over LINK_MAX_LENGTH keeps a code of its own: it is the value that would widen every
      // list, record page and audit entry that shows it, so clients and operators can tell it apart.
      const link = problems.find((p) => p.code === 'linkTooLong');
      if (link) {
        throw new GatewayError('LINK_TOO_LONG', `${link.field} is longer than ${LINK_MAX_LENGTH} characters`, {
          data: { field: link.field, max: LINK_MAX_LENGTH, errors: { [link.field]: 'linkTooLong' } },
        });
      }
      const first = problems[0]!;
      const detail = first.limit
        ? `${first.field} must not be more than ${first.limit}`
        : `${first.field} (${first.code})`;
      throw new GatewayError('INVALID_VALUE', detail, {
        data: {
          field: first.field,
          code: first.code,
          ...(first.limit ? { limit: first.limit } : {}),
          errors: Object.fromEntries(problems.map((p) => [p.field, p.code])),
        },
      });
    });
  },
  { name: 'contract-check' },
);
