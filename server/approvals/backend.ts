import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../errors.js';
import { backendRequestHeaders } from '../lib/forwarded.js';
import { readBackendJson } from '../lib/backend-json.js';
import type { Session } from '../session/plugin.js';

type Row = Record<string, unknown>;

/** A backend's answer in the console's contract: its HTTP status and its envelope. */
export interface ContractAnswer {
  status: number;
  body: Row & { code?: unknown; msg?: unknown; data?: unknown };
}

function isObject(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Sends one call of the console's contract to the backend under `session`, the way the browser's
 * own call would go: translated by the backend map when it names the call, else as it is, and
 * decoded either way. A held call is confirmed through here, so it reaches the backend exactly as
 * an ordinary approval would, only under the second approver's session.
 */
export async function callAsSession(
  app: FastifyInstance,
  request: FastifyRequest,
  session: Session,
  method: 'GET' | 'POST',
  path: string,
  input: Row,
): Promise<ContractAnswer> {
  const headers = backendRequestHeaders(request);
  const map = app.backendMap;
  const call = map?.calls().find((c) => c.method === method && c.path === path);
  return app.sessionCalls.around(request, async () => {
    if (map && call) {
      const prepared = map.prepare(call, input, { session });
      if ('unsupported' in prepared)
        throw new GatewayError('UNSUPPORTED_BY_BACKEND', prepared.unsupported, {
          data: { call: prepared.unsupported },
        });
      return app.sendMapped(prepared, { session, headers });
    }
    let target = path;
    if (method === 'GET') {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(input))
        if (value !== undefined && value !== null) query.append(key, String(value));
      if (query.size > 0) target += `?${query.toString()}`;
    }
    const answer = await app.upstream.request(target, {
      method,
      session,
      headers,
      ...(method === 'POST' ? { body: input } : {}),
    });
    const json = await readBackendJson(app.decodeAnswer, answer, method, path);
    if (!isObject(json) || typeof json.code !== 'number')
      throw new GatewayError('UPSTREAM_BAD_ANSWER', `${method} ${path} answered without a {code, msg} envelope`);
    return { status: answer.status, body: json };
  });
}
