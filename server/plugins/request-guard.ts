import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../errors.js';
import { OTHER_JSON_TYPES, boundedJsonParser } from '../lib/json-body.js';
import { ambiguousPathReason, areaOf, pathOf } from '../lib/request-path.js';

/**
 * Requests the gateway refuses to interpret, before anything is proxied: a target in absolute
 * form (a browser never sends one to an origin server, and it would be routed apart from the
 * path the checks read), a request asking to switch protocols (`Upgrade`: never proxied), a path
 * under /manage, /api or /plate in anything but its one plain spelling, and JSON nested too deep
 * to pass on. Each answers 400 BAD_REQUEST. (`Expect` is the HTTP server's: lib/continue-and-linger.ts.)
 */
export default fp(
  async (app) => {
    const refuse = (request: FastifyRequest, reply: FastifyReply, reason: string) => {
      request.log.info({ reason }, 'refused an ambiguous request');
      return reply.code(400).send(errorBody('BAD_REQUEST', `${errorBody('BAD_REQUEST').msg}: ${reason}`));
    };

    app.addHook('onRequest', async (request, reply) => {
      const target = request.raw.url ?? '';
      if (!target.startsWith('/')) return refuse(request, reply, 'the request target must be a path');
      if (request.headers.upgrade !== undefined) {
        // The client may already be sending what it hoped to switch to: nothing more on this
        // connection can be trusted to be a request.
        reply.header('connection', 'close');
        return refuse(request, reply, 'protocol upgrades are not supported');
      }
      const path = pathOf(target);
      if (areaOf(path) === null) return;
      const reason = ambiguousPathReason(path);
      if (reason) return refuse(request, reply, reason);
    });

    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, boundedJsonParser(app));
    app.addContentTypeParser(OTHER_JSON_TYPES, { parseAs: 'string' }, boundedJsonParser(app));
  },
  { name: 'request-guard', dependencies: ['security'] },
);
