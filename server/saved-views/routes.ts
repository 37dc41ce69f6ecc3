import type { FastifyInstance } from 'fastify';
import type { FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  GATEWAY_PATHS,
  LIST_RESOURCES,
  SAVED_VIEW_LIMITS,
  SUCCESS_CODE,
  SavedViewListParamsSchema,
  SavedViewListSchema,
  SavedViewParamsSchema,
  SavedViewSchema,
} from '../contract/index.js';
import { GatewayError } from '../errors.js';
import { answerSchema, okAnswer } from '../lib/answer-schema.js';
import { NO_STORE } from '../plugins/security.js';
import type { SavedViewStore, ViewLimits } from './store.js';

/**
 * Fastify's validator drops unknown members and turns numbers into strings; a save is refused
 * instead, so a client's mistake is heard rather than stored half.
 */
function strictBody(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new GatewayError('BAD_REQUEST', 'a saved view is a JSON object {name, query}');
  const foreign = Object.keys(body).find((key) => key !== 'name' && key !== 'query');
  if (foreign !== undefined)
    throw new GatewayError('BAD_REQUEST', `a saved view has only name and query, not "${foreign}"`);
  const { name, query } = body as Record<string, unknown>;
  if (typeof name !== 'string' || typeof query !== 'string')
    throw new GatewayError('BAD_REQUEST', 'name and query must be strings');
}

const listAnswer = answerSchema(SavedViewListSchema);

/** A list the console has: any other name (an invented one, `__proto__`) is 404, whatever the store would make of it. */
function knownList(resource: string): void {
  if (!LIST_RESOURCES.has(resource)) throw new GatewayError('NOT_FOUND', `the console has no list "${resource}"`);
}

/**
 * GET /api/saved-views/{resource} lists the calling administrator's views of one list, PUT saves
 * one ({name, query}, replacing a view of that name in its place), DELETE
 * /api/saved-views/{resource}/{name} removes one. Every call needs a session and reaches only the
 * views of its backend user id: two administrators never see each other's. Only the contract's
 * lists have views, and a save needs the list's permission; reading and deleting one's own views
 * do not, so views of a screen taken away can still be cleared from the cap.
 */
export function registerSavedViewRoutes(scope: FastifyInstance, store: SavedViewStore): void {
  // The contract's schemas are the routes' validators and, through the type provider, their types.
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const base = GATEWAY_PATHS.savedViews;
  const limits: ViewLimits = {
    perList: SAVED_VIEW_LIMITS.maxPerResource,
    perAdmin: app.config.savedViewsMaxPerAdmin,
  };

  /** A view is saved only for a list the caller may open, as the backend says now. */
  const mayOpen = async (request: FastifyRequest, list: string): Promise<void> => {
    const resource = LIST_RESOURCES.get(list)!;
    const held = await app.permissions.of(request.session!);
    if (held === 'unauthorized') throw new GatewayError('NOT_LOGGED_IN', 'the backend no longer takes this session');
    if (!held.includes(resource.permission))
      throw new GatewayError(
        'FORBIDDEN',
        `saving a view of ${resource.id} needs the permission ${resource.permission}`,
      );
  };

  app.get(
    `${base}/:resource`,
    { onRequest: app.sessions.require, schema: { params: SavedViewListParamsSchema, response: { 200: listAnswer } } },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      knownList(request.params.resource);
      const list = await store.list(request.session!.userId, request.params.resource);
      return { code: SUCCESS_CODE, msg: 'ok', data: { list } };
    },
  );

  app.put(
    `${base}/:resource`,
    {
      onRequest: app.sessions.require,
      bodyLimit: SAVED_VIEW_LIMITS.maxBodyBytes,
      preValidation: async (request) => strictBody(request.body),
      schema: { params: SavedViewListParamsSchema, body: SavedViewSchema, response: { 200: listAnswer } },
    },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      knownList(request.params.resource);
      await mayOpen(request, request.params.resource);
      const view = { name: request.body.name.trim(), query: request.body.query };
      const outcome = await store.put(request.session!.userId, request.params.resource, view, limits);
      if (!outcome.saved) {
        const perList = outcome.per === 'list';
        const max = perList ? limits.perList : limits.perAdmin;
        throw new GatewayError(
          'SAVED_VIEWS_FULL',
          perList ? `at most ${max} views of one list` : `at most ${max} views of one administrator over every list`,
          { data: { max, per: outcome.per } },
        );
      }
      return { code: SUCCESS_CODE, msg: 'Saved', data: { list: outcome.list } };
    },
  );

  app.delete(
    `${base}/:resource/:name`,
    { onRequest: app.sessions.require, schema: { params: SavedViewParamsSchema, response: { 200: okAnswer } } },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      knownList(request.params.resource);
      const removed = await store.remove(request.session!.userId, request.params.resource, request.params.name.trim());
      if (!removed) throw new GatewayError('SAVED_VIEW_NOT_FOUND');
      return { code: SUCCESS_CODE, msg: 'Deleted' };
    },
  );
}
