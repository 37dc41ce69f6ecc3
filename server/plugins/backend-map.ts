import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_PATHS, type BackendOffer } from '../contract/index.js';
import { BackendMap } from '../backend-map/engine.js';
import type { ConsoleCall } from '../backend-map/calls.js';
import { GatewayError } from '../errors.js';
import { backendRequestHeaders } from '../lib/forwarded.js';
import { readBackendJson } from '../lib/backend-json.js';
import { OTHER_JSON_TYPES, boundedJsonParser } from '../lib/json-body.js';
import { NO_STORE } from './security.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The compiled BACKEND_MAP, or null when the console's own contract goes to the backend unchanged. */
    backendMap: BackendMap | null;
  }
}

const EMPTY_OFFER: BackendOffer = { unsupported: { resources: [], calls: {}, actions: {}, fields: {} } };

const stringLists = { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } as const;
const offerSchema = {
  type: 'object',
  required: ['unsupported'],
  properties: {
    unsupported: {
      type: 'object',
      required: ['resources', 'calls', 'actions', 'fields'],
      properties: { resources: { type: 'array', items: { type: 'string' } }, calls: stringLists, actions: stringLists, fields: stringLists },
    },
  },
} as const;

// The console's query strings and bodies are free-form objects: the map reads the members it knows
// and passes on the rest, as the proxy would.
const anyObject = { type: 'object', additionalProperties: true } as const;

/**
 * The backend map at work: each call of the management screens whose resource the map names gets
 * a route of its own (more specific than the proxy's /manage/*, so it wins), which sends the
 * backend's dialect and answers the console's contract. Everything else still goes through the
 * proxy untouched. Answers are decoded first (w-enable-mode 1 and 3), then mapped.
 */
export default fp(
  async (app) => {
    const loaded = app.config.backendMap;
    const map = loaded ? new BackendMap(loaded.map) : null;
    app.decorate('backendMap', map);
    const offer = map ? map.offer() : EMPTY_OFFER;

    app.get(GATEWAY_PATHS.backendOffer, { onRequest: app.sessions.require, schema: { response: { 200: offerSchema } } }, async (_request, reply) => {
      reply.header('cache-control', NO_STORE);
      return offer;
    });
    if (!map) return;

    const handle = (call: ConsoleCall) => async (request: FastifyRequest, reply: FastifyReply) => {
      const source = call.method === 'GET' ? request.query : request.body;
      const input = typeof source === 'object' && source !== null && !Array.isArray(source) ? (source as Record<string, unknown>) : {};
      const prepared = map.prepare(call, input);
      reply.header('cache-control', NO_STORE);
      if ('unsupported' in prepared) throw new GatewayError('UNSUPPORTED_BY_BACKEND', prepared.unsupported, { data: { call: prepared.unsupported } });
      const { request: sent } = prepared;
      const answer = await app.sessionCalls.around(request, () =>
        app.upstream.request(sent.path, {
          method: sent.method,
          session: request.session,
          headers: backendRequestHeaders(request),
          ...(sent.body ? { rawBody: sent.body } : {}),
        }),
      );
      const json = await readBackendJson(app.decodeAnswer, answer, sent.method, sent.path);
      const mapped = map.answer(prepared, answer.status, answer.headers, json);
      return reply.code(mapped.status).send(mapped.body);
    };

    await app.register(async (scope) => {
      // As the proxy reads bodies: JSON (of any JSON type) within the nesting bound, an empty body as none. Other
      // content types cannot be translated and are refused (415).
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('application/json', { parseAs: 'string' }, boundedJsonParser(scope, { allowEmpty: true }));
      scope.addContentTypeParser(OTHER_JSON_TYPES, { parseAs: 'string' }, boundedJsonParser(scope, { allowEmpty: true }));
      for (const call of map.calls()) {
        // A POST's body may be empty (read as none), so only its query string has a schema.
        scope.route({
          method: call.method,
          url: call.path,
          onRequest: app.sessions.require,
          preHandler: app.sessionCalls.limit,
          schema: { querystring: anyObject },
          handler: handle(call),
        });
      }
    });
  },
  { name: 'backend-map', dependencies: ['session', 'session-calls', 'upstream'] },
);
