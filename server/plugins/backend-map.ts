import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_PATHS, OFFER_LISTS, OFFER_TABLES, fullOffer } from '../contract/index.js';
import { BackendMap, type Planned } from '../backend-map/engine.js';
import { exchange } from '../backend-map/exchange.js';
import type { SessionCredentials } from '../backend-map/auth.js';
import { sessionForService } from '../backend-map/services.js';
import type { OwnCallName } from '../contract/index.js';
import { isOpenOwnCall } from '../backend-map/own-calls.js';
import type { ConsoleCall } from '../backend-map/calls.js';
import { GatewayError } from '../errors.js';
import { backendRequestHeaders } from '../lib/forwarded.js';
import { readBackendJson } from '../lib/backend-json.js';
import { registerJsonParsers } from '../lib/json-body.js';
import { NO_STORE } from './security.js';
import { GatewayLists, type ListSession } from '../backend-map/gateway-lists.js';
import { KeptStore } from '../backend-map/kept-store.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The compiled BACKEND_MAP, or null when the console's own contract goes to the backend unchanged. */
    backendMap: BackendMap | null;
    /**
     * Sends a prepared call of the map to the backend and answers in the console's contract:
     * decoded (w-enable-mode 1 and 3), then mapped. Used by the mapped routes, the withdrawal
     * poll and the logout.
     */
    sendMapped(
      prepared: Extract<Planned, { bound: unknown }>,
      options: MappedCallOptions,
    ): Promise<{ status: number; body: Record<string, unknown> }>;
  }
}

export interface MappedCallOptions {
  session: SessionCredentials | null;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

const names = { type: 'array', items: { type: 'string' } } as const;
const namesById = { type: 'object', additionalProperties: names } as const;
const offerSchema = {
  type: 'object',
  required: ['unsupported'],
  properties: {
    unsupported: {
      type: 'object',
      required: [...OFFER_LISTS, ...OFFER_TABLES],
      properties: {
        ...Object.fromEntries(OFFER_LISTS.map((key) => [key, names])),
        ...Object.fromEntries(OFFER_TABLES.map((key) => [key, namesById])),
      },
    },
    // The filters a list cannot be read without, by resource id.
    needs: namesById,
    // The options a select input keeps where the map sends fewer, by resource id and input key.
    inputOptions: { type: 'object', additionalProperties: namesById },
    // The backend's fields outside the contract the record page shows, by resource id.
    shown: {
      type: 'object',
      additionalProperties: {
        type: 'array',
        items: {
          type: 'object',
          required: ['key', 'kind'],
          properties: { key: { type: 'string' }, kind: { type: 'string' } },
        },
      },
    },
  },
};

// The console's query strings and bodies are free-form objects here: the map reads the members the
// contract defines for the call and drops the rest (client-keys.ts).
const anyObject = { type: 'object', additionalProperties: true } as const;

/**
 * The backend map at work: each call of the management screens whose resource the map names gets
 * a route of its own (more specific than the proxy's /manage/* and /api/exclude/*, so it wins),
 * which sends the backend's dialect and answers the console's contract; so does each own call of
 * the browser's (site configuration, dashboard, deployment) its `console` section names. The
 * gateway's own two, the withdrawal poll and the logout, ask `backendMap` themselves (events.ts,
 * login.ts). Everything else still goes through the proxy untouched. Answers are decoded first
 * (w-enable-mode 1 and 3), then mapped.
 */
export default fp(
  async (app) => {
    const loaded = app.config.backendMap;
    const map = loaded
      ? new BackendMap(loaded.map, undefined, {
          withdrawalCount: app.config.withdrawalCountPath,
          logout: app.config.backendLogoutPath,
        })
      : null;
    app.decorate('backendMap', map);
    const offer = map ? map.offer() : fullOffer();

    app.decorate('sendMapped', async (prepared: Extract<Planned, { bound: unknown }>, options: MappedCallOptions) => {
      if (!map) throw new Error('sendMapped needs a backend map');
      // Each backend call (each request of a plan, each `also` call) goes to its service's address,
      // with the session's credentials (a service with a token of its own gets that one).
      return exchange(prepared, {
        send: (sent) =>
          app.upstreamFor(sent.service).request(sent.path, {
            method: sent.method,
            session: sessionForService(loaded?.map, sent.service, options.session),
            ...(options.headers ? { headers: options.headers } : {}),
            ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
            ...(sent.body ? { rawBody: sent.body } : {}),
          }),
        read: (answer, sent) => readBackendJson(app.decodeAnswer, answer, sent.method, sent.path),
      });
    });

    app.get(
      GATEWAY_PATHS.backendOffer,
      { onRequest: app.sessions.require, schema: { response: { 200: offerSchema } } },
      async (_request, reply) => {
        reply.header('cache-control', NO_STORE);
        return offer;
      },
    );
    if (!map) return;

    const inputOf = (method: 'GET' | 'POST', request: FastifyRequest): Record<string, unknown> => {
      const source = method === 'GET' ? request.query : request.body;
      return typeof source === 'object' && source !== null && !Array.isArray(source)
        ? (source as Record<string, unknown>)
        : {};
    };
    // Whole lists, per-row calls and kept values: the gateway's own work for a backend that does less (ejabberd).
    const kept = new KeptStore(app.config.dataDir);
    await kept.open();
    app.addHook('onClose', async () => kept.close());
    const lists = new GatewayLists(
      map,
      async (sent, session) => {
        const answer = await app.upstreamFor(sent.service).request(sent.path, {
          method: sent.method,
          session,
          ...(sent.body ? { rawBody: sent.body } : {}),
        });
        return { status: answer.status, json: await readBackendJson(app.decodeAnswer, answer, sent.method, sent.path) };
      },
      kept,
    );

    const send = async (
      request: FastifyRequest,
      reply: FastifyReply,
      prepared: Planned,
      open = false,
      call: ConsoleCall | null = null,
    ) => {
      reply.header('cache-control', NO_STORE);
      if ('unsupported' in prepared)
        throw new GatewayError('UNSUPPORTED_BY_BACKEND', prepared.unsupported, {
          data: { call: prepared.unsupported },
        });
      const headers = backendRequestHeaders(request);
      // The site configuration is read before login and goes out without credentials, as the proxy sends /api/exclude.
      const mapped = open
        ? await app.sendMapped(prepared, { session: null, headers })
        : await app.sessionCalls.around(request, () => app.sendMapped(prepared, { session: request.session, headers }));
      if (call && request.session)
        await lists.after(call, inputOf(call.method, request), request.session as ListSession, mapped);
      return reply.code(mapped.status).send(mapped.body);
    };
    const handle = (call: ConsoleCall) => async (request: FastifyRequest, reply: FastifyReply) => {
      const input = inputOf(call.method, request);
      const session = request.session as ListSession;
      if (lists.takes(call)) {
        reply.header('cache-control', NO_STORE);
        const answered = await app.sessionCalls.around(request, () => lists.answer(call, input, session));
        return reply.code(answered.status).send(answered.body);
      }
      await send(request, reply, map.prepare(call, input, { session: request.session }), false, call);
      return reply;
    };
    const handleOwn =
      (name: OwnCallName, method: 'GET' | 'POST') => async (request: FastifyRequest, reply: FastifyReply) =>
        send(
          request,
          reply,
          map.prepareOwn(name, method, inputOf(method, request), { session: request.session }),
          isOpenOwnCall(name),
        );

    await app.register(async (scope) => {
      // As the proxy reads bodies: JSON (of any JSON type) within the nesting bound, an empty body as none. Other
      // content types cannot be translated and are refused (415).
      scope.removeAllContentTypeParsers();
      registerJsonParsers(scope);
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
      for (const own of map.ownRoutes()) {
        const open = isOpenOwnCall(own.name);
        scope.route({
          method: own.method,
          url: own.path,
          ...(open ? {} : { onRequest: app.sessions.require, preHandler: app.sessionCalls.limit }),
          schema: { querystring: anyObject },
          handler: handleOwn(own.name, own.method),
        });
      }
    });
  },
  { name: 'backend-map', dependencies: ['session', 'session-calls', 'upstream'] },
);
