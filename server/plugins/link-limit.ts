import fp from 'fastify-plugin';
import { LINK_MAX_LENGTH, RESOURCES, resourceCalls, type FieldDef } from '../contract/index.js';
import { GatewayError } from '../errors.js';
import { pathOf } from '../lib/request-path.js';

/**
 * The contract's limit on link fields (LINK_MAX_LENGTH), held by the gateway too: the form refuses a
 * longer link, but a script or an older tab could still send one, and a backend that takes it would
 * put a page-wide value in every list, record page and audit entry that shows it. Checked before
 * the call is held for a second approver or sent on, so such a value never reaches either.
 */

/** The link fields each changing call of the contract may carry, by `POST path`. */
function linkFieldsByCall(): Map<string, string[]> {
  const table = new Map<string, string[]>();
  const add = (path: string, fields: readonly FieldDef[]) => {
    const links = fields.filter((f) => f.kind === 'link').map((f) => f.key);
    if (links.length > 0) table.set(`POST ${path}`, [...(table.get(`POST ${path}`) ?? []), ...links]);
  };
  for (const resource of RESOURCES) {
    const calls = resourceCalls(resource);
    if (resource.kind === 'list') add(calls.save, resource.fields);
    if (resource.kind === 'settings') add(calls.config, resource.fields);
    if (resource.kind === 'operation') add(calls.action(resource.run), resource.inputs);
    if ('actions' in resource)
      for (const action of resource.actions ?? []) add(calls.action(action.name), action.inputs ?? []);
  }
  return table;
}

/** The first link field of a body longer than the limit, or null. */
export function tooLongLink(fields: readonly string[], body: unknown): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  for (const key of fields) {
    const value = (body as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.trim().length > LINK_MAX_LENGTH) return key;
  }
  return null;
}

export default fp(
  async (app) => {
    const table = linkFieldsByCall();
    // preValidation, as the contract's general value check: registered first, a too-long link gets its own code.
    app.addHook('preValidation', async (request) => {
      if (request.method !== 'POST') return;
      const fields = table.get(`POST ${pathOf(request.url)}`);
      if (!fields) return;
      const field = tooLongLink(fields, request.body);
      if (field === null) return;
      // `errors` as a backend's refusal carries them, so the form shows the message under the field.
      throw new GatewayError('LINK_TOO_LONG', `${field} is longer than ${LINK_MAX_LENGTH} characters`, {
        data: { field, max: LINK_MAX_LENGTH, errors: { [field]: 'linkTooLong' } },
      });
    });
  },
  { name: 'link-limit' },
);
