import type { FastifyInstance } from 'fastify';
import { SandboxError, ok } from '../errors.js';
import type { Collection, Identified } from '../store/collection.js';
import { parseId, queryObject } from './common.js';

/**
 * `GET {prefix}/list` and `GET {prefix}/detail?id` over a collection (DESIGN section 3); the
 * pages added later register theirs the same way under their permission prefix.
 */
export function registerListRoutes<T extends Identified>(
  app: FastifyInstance,
  prefix: string,
  collection: Collection<T>,
  options: { noun: string } = { noun: 'Record' },
): void {
  app.get(`${prefix}/list`, async (request) => ok(collection.query(collection.parseQuery(request.query))));
  app.get(`${prefix}/detail`, async (request) => {
    const id = parseId(queryObject(request).id);
    const item = collection.get(id);
    if (!item) throw new SandboxError(404, `${options.noun} ${id} not found`);
    return ok(item);
  });
}
