import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Envelope, Resource } from '../contract/index.js';
import { consoleCalls } from '../backend-map/calls.js';
import { GatewayError } from '../errors.js';
import { backendRequestHeaders } from '../lib/forwarded.js';
import type { Session } from '../session/plugin.js';

/**
 * A GET of the contract the gateway makes itself for a session (a record before it is edited, the
 * settings before a save, the pages of an export): through the backend map when it binds the
 * resource, else straight to the backend, decoded either way, as the screen's own call would go.
 */
export async function readContract(
  app: FastifyInstance,
  request: FastifyRequest,
  session: Session,
  resource: Resource,
  path: string,
  query: Record<string, string>,
  timeoutMs?: number,
): Promise<Envelope> {
  const headers = backendRequestHeaders(request);
  const map = app.hasDecorator('backendMap') ? app.backendMap : null;
  if (map?.names(resource.id)) {
    const call = consoleCalls(resource).find((c) => c.method === 'GET' && c.path === path);
    if (!call) throw new Error(`${path} is no GET call of ${resource.id}`);
    // The session goes with it: a call may send its values (Shiku's administrators list, the caller's adminId).
    const prepared = map.prepare(call, query, { session });
    if ('unsupported' in prepared)
      throw new GatewayError('UNSUPPORTED_BY_BACKEND', prepared.unsupported, { data: { call: prepared.unsupported } });
    const answer = await app.sendMapped(prepared, {
      session,
      headers,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    return answer.body as unknown as Envelope;
  }
  const search = new URLSearchParams(query).toString();
  return app.upstream.call(search ? `${path}?${search}` : path, {
    session,
    headers,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
}
