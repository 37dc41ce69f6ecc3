import type { FastifyInstance } from 'fastify';
import type { FastifyRequest } from 'fastify';
import {
  GATEWAY_PATHS,
  LIST_RESOURCES,
  SAVED_VIEW_LIMITS,
  SUCCESS_CODE,
  type SavedView,
  type SavedViewList,
} from '../contract/index.js';
import { GatewayError } from '../errors.js';
import { listAnswerSchema } from '../lib/answer-schema.js';
import { NO_STORE } from '../plugins/security.js';
import type { SavedViewStore, ViewLimits } from './store.js';

const resourceParam = { type: 'string', pattern: SAVED_VIEW_LIMITS.resourcePattern } as const;
// A name with something to read in it; surrounding spaces are dropped before it is kept.
const nameSchema = { type: 'string', minLength: 1, maxLength: SAVED_VIEW_LIMITS.maxNameChars, pattern: '\\S' } as const;

const resourceParams = { type: 'object', required: ['resource'], properties: { resource: resourceParam } } as const;
const oneParams = {
  type: 'object',
  required: ['resource', 'name'],
  properties: { resource: resourceParam, name: nameSchema },
} as const;

const saveBody = {
  type: 'object',
  required: ['name', 'query'],
  additionalProperties: false,
  properties: {
    name: nameSchema,
    // The query string of a list's address, without its "?", and no control characters.
    query: {
      type: 'string',
      maxLength: SAVED_VIEW_LIMITS.maxQueryChars,
      pattern: '^[^?\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$|^$',
    },
  },
} as const;

const listAnswer = listAnswerSchema({
  type: 'object',
  required: ['name', 'query'],
  properties: { name: { type: 'string' }, query: { type: 'string' } },
});
const okAnswer = {
  type: 'object',
  required: ['code', 'msg'],
  properties: { code: { type: 'integer' }, msg: { type: 'string' } },
} as const;

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

type ListReply = { code: number; msg: string; data: SavedViewList };

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
export function registerSavedViewRoutes(app: FastifyInstance, store: SavedViewStore): void {
  const base = GATEWAY_PATHS.savedViews;
  const limits: ViewLimits = {
    perList: SAVED_VIEW_LIMITS.maxPerResource,
    perAdmin: app.config.savedViewsMaxPerAdmin,
  };

  /** A view is saved only for a list the caller may open, as the backend says now. */
  const mayOpen = async (request: FastifyRequest<{ Params: { resource: string } }>): Promise<void> => {
    const resource = LIST_RESOURCES.get(request.params.resource)!;
    const held = await app.permissions.of(request.session!);
    if (held === 'unauthorized') throw new GatewayError('NOT_LOGGED_IN', 'the backend no longer takes this session');
    if (!held.includes(resource.permission))
      throw new GatewayError(
        'FORBIDDEN',
        `saving a view of ${resource.id} needs the permission ${resource.permission}`,
      );
  };

  app.get<{ Params: { resource: string } }>(
    `${base}/:resource`,
    { onRequest: app.sessions.require, schema: { params: resourceParams, response: { 200: listAnswer } } },
    async (request, reply): Promise<ListReply> => {
      reply.header('cache-control', NO_STORE);
      knownList(request.params.resource);
      const list = await store.list(request.session!.userId, request.params.resource);
      return { code: SUCCESS_CODE, msg: 'ok', data: { list } };
    },
  );

  app.put<{ Params: { resource: string }; Body: SavedView }>(
    `${base}/:resource`,
    {
      onRequest: app.sessions.require,
      bodyLimit: SAVED_VIEW_LIMITS.maxBodyBytes,
      preValidation: async (request) => strictBody(request.body),
      schema: { params: resourceParams, body: saveBody, response: { 200: listAnswer } },
    },
    async (request, reply): Promise<ListReply> => {
      reply.header('cache-control', NO_STORE);
      knownList(request.params.resource);
      await mayOpen(request);
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

  app.delete<{ Params: { resource: string; name: string } }>(
    `${base}/:resource/:name`,
    { onRequest: app.sessions.require, schema: { params: oneParams, response: { 200: okAnswer } } },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      knownList(request.params.resource);
      const removed = await store.remove(request.session!.userId, request.params.resource, request.params.name.trim());
      if (!removed) throw new GatewayError('SAVED_VIEW_NOT_FOUND');
      return { code: SUCCESS_CODE, msg: 'Deleted' };
    },
  );
}
