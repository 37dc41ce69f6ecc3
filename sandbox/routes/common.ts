import type { FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';
import type { AdminAccount } from '../store/sandbox-store.js';

/** The administrator behind a request, set by the auth guard for every call under /manage. */
const admins = new WeakMap<FastifyRequest, AdminAccount>();

export function setAdmin(request: FastifyRequest, account: AdminAccount): void {
  admins.set(request, account);
}

export function adminOf(request: FastifyRequest): AdminAccount {
  const account = admins.get(request);
  // Routes under /manage cannot run without the guard having passed.
  if (!account) throw new Error(`no administrator on ${request.url}`);
  return account;
}

export function bodyObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('The request body must be a JSON object');
  return body as Record<string, unknown>;
}

function asId(value: unknown): number | null {
  const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : null;
}

export function parseId(value: unknown): number {
  const id = asId(value);
  if (id === null) throw badRequest('id must be a positive whole number');
  return id;
}

/** `{id}` or `{ids: [...]}`, for actions a list page offers per row and in bulk. */
export function parseIds(body: Record<string, unknown>, max = 500): number[] {
  if (Array.isArray(body.ids)) {
    if (body.ids.length === 0 || body.ids.length > max) throw badRequest(`ids must hold 1 to ${max} ids`);
    return body.ids.map(parseId);
  }
  return [parseId(body.id)];
}

export function queryObject(request: FastifyRequest): Record<string, unknown> {
  return (request.query ?? {}) as Record<string, unknown>;
}
