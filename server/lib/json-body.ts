import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../errors.js';

/**
 * Deepest nesting of arrays and objects a JSON body may have. The console's bodies are a few
 * levels deep; a body nested thousands deep parses, but re-serialising it for the backend would
 * overflow the stack.
 */
export const JSON_MAX_DEPTH = 64;

/** True when the JSON text nests deeper than `max`; strings are skipped, so brackets in them do not count. */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

type Done = (error: Error | null, body?: unknown) => void;

/**
 * Every content type whose body is JSON, besides `application/json` itself: any `+json` type
 * (`application/merge-patch+json`...), `text/json` and `application/x-json`. Backends parse them
 * all as JSON, so the nesting bound and the `__proto__` refusal hold for all of them; Fastify's
 * routers match them through this pattern (with parameters, as `; charset=utf-8`).
 */
export const OTHER_JSON_TYPES = /^(?:application\/[a-z0-9!#$&^_.-]+\+json|text\/json|application\/x-json)(?:;|$)/i;

/**
 * A JSON body parser for `app`: refuses bodies nested past JSON_MAX_DEPTH with 400 BAD_REQUEST,
 * then parses as Fastify's own does (refusing __proto__ and constructor.prototype keys). With
 * `keepText` the body is the checked text rather than its parsed value.
 */
export function boundedJsonParser(
  app: FastifyInstance,
  { allowEmpty = false, keepText = false }: { allowEmpty?: boolean; keepText?: boolean } = {},
): (request: FastifyRequest, body: string | Buffer, done: Done) => void {
  const parse = app.getDefaultJsonParser('error', 'error');
  return (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '') {
      return allowEmpty
        ? done(null, undefined)
        : done(new GatewayError('BAD_REQUEST', 'the JSON body is empty'), undefined);
    }
    if (jsonNestsDeeperThan(text, JSON_MAX_DEPTH)) {
      return done(
        new GatewayError('BAD_REQUEST', `the JSON body nests deeper than ${JSON_MAX_DEPTH} levels`),
        undefined,
      );
    }
    // Fastify's default JSON parser answers through the callback and returns nothing; its type also
    // admits promise-returning parsers, hence the void.
    void parse(request, text, (error: Error | null, value?: unknown) => {
      if (error) return done(new GatewayError('BAD_REQUEST', 'the body is not valid JSON'), undefined);
      // keepText: the body passes on as the client wrote it, once known to be within bounds (the
      // proxy re-serialises only application/json, and would send any other type's object as text).
      done(null, keepText ? text : value);
    });
  };
}

/**
 * The JSON parsers of a scope that passes bodies on to a backend: application/json and the other
 * JSON types, bounded as boundedJsonParser says, an empty body read as none. `keepOtherText`: the
 * other JSON types pass on as the client wrote them (a proxy that sends the body on as it came).
 */
export function registerJsonParsers(scope: FastifyInstance, { keepOtherText = false } = {}): void {
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, boundedJsonParser(scope, { allowEmpty: true }));
  scope.addContentTypeParser(
    OTHER_JSON_TYPES,
    { parseAs: 'string' },
    boundedJsonParser(scope, { allowEmpty: true, keepText: keepOtherText }),
  );
}
