import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AdminAccount } from '../store/accounts.js';
import {
  InternalError,
  MissingParameter,
  ServiceError,
  Params,
  RESULT,
  TEXT,
  type Row,
  exceptionAnswer,
  parameters,
} from './wire.js';

/** What a Shiku handler gets: Spring's bound parameters, the logged-in admin (under /console) and now. */
export interface ShikuCall {
  params: Params;
  request: FastifyRequest;
  reply: FastifyReply;
  /** Set by the AuthorizationFilter for every /console call it lets through (not /console/login). */
  admin: AdminAccount | null;
  now: number;
}

/** A handler answers an envelope, or null when it wrote the reply itself (a redirect). */
export type ShikuHandler = (call: ShikuCall) => Row | null | Promise<Row | null>;

const admins = new WeakMap<FastifyRequest, AdminAccount>();

export function setShikuAdmin(request: FastifyRequest, account: AdminAccount): void {
  admins.set(request, account);
}

/** The routes this dialect serves, by path: the filter answers every other path as Shiku's unknown one. */
export type RouteTable = Map<string, readonly ('GET' | 'POST')[]>;

/**
 * Registers one Spring mapping. A mapping without a method takes GET and POST alike; a method it
 * does not take is HttpRequestMethodNotSupportedException, which Shiku's ExceptionHandlerAdvice
 * turns into 1020101 like any other exception.
 */
export function mapping(
  app: FastifyInstance,
  table: RouteTable,
  clock: () => number,
  path: string,
  handler: ShikuHandler,
  methods: readonly ('GET' | 'POST')[] = ['GET', 'POST'],
): void {
  table.set(path, methods);
  app.route({
    method: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'],
    url: path,
    handler: async (request, reply) => {
      reply.header('content-type', 'application/json;charset=UTF-8');
      if (!(methods as readonly string[]).includes(request.method)) {
        return exceptionAnswer(RESULT.internal, TEXT.internal, `Request method '${request.method}' not supported`);
      }
      try {
        const answer = await handler({
          params: new Params(parameters(request)),
          request,
          reply,
          admin: admins.get(request) ?? null,
          now: clock(),
        });
        return answer === null ? reply : answer;
      } catch (error) {
        if (error instanceof MissingParameter) return exceptionAnswer(RESULT.badParameter, TEXT.badParameter);
        if (error instanceof ServiceError) return exceptionAnswer(RESULT.failure, error.message);
        if (error instanceof InternalError) return exceptionAnswer(RESULT.internal, TEXT.internal, error.message);
        request.log.error({ err: error }, 'shiku handler failed');
        return exceptionAnswer(RESULT.internal, TEXT.internal, error instanceof Error ? error.message : String(error));
      }
    },
  });
}

/** Spring Boot 2.0's answer for a path no controller maps (BasicErrorController, written by fastjson). */
export function unknownPath(reply: FastifyReply, path: string, now: number): FastifyReply {
  return reply
    .code(404)
    .header('content-type', 'application/json;charset=UTF-8')
    .send({ timestamp: now, status: 404, error: 'Not Found', message: 'No message available', path });
}
