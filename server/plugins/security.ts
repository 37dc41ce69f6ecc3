import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../errors.js';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The UI is one bundle of same-origin scripts and styles; nothing inline, nothing framed. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

function ownOrigin(request: FastifyRequest): string | null {
  // Through URL, so "http://host:80" and "http://host" compare equal.
  return originOf(`${request.protocol}://${request.host}`);
}

function originOf(value: string): string | null {
  try {
    const url = new URL(value);
    return url.origin === 'null' ? null : url.origin;
  } catch {
    return null;
  }
}

/**
 * Unsafe calls must come from the console's own pages: the session lives in cookies, so a
 * cross-site form or fetch must not be able to use it.
 */
export function isSameOriginRequest(request: FastifyRequest): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return false;
  const origin = request.headers.origin;
  const referer = request.headers.referer;
  const claimed = typeof origin === 'string' ? originOf(origin) : typeof referer === 'string' ? originOf(referer) : null;
  return claimed !== null && claimed === ownOrigin(request);
}

function needsOriginCheck(request: FastifyRequest): boolean {
  if (!UNSAFE_METHODS.has(request.method)) return false;
  const path = request.url;
  return path.startsWith('/manage') || path.startsWith('/api/') || path === '/api';
}

export default fp(
  async (app) => {
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      reply.headers(SECURITY_HEADERS);
      reply.header('x-request-id', request.id);
      if (needsOriginCheck(request) && !isSameOriginRequest(request)) {
        request.log.warn({ origin: request.headers.origin ?? null }, 'refused a cross-origin unsafe request');
        return reply.code(403).send(errorBody('CROSS_ORIGIN'));
      }
    });
  },
  { name: 'security' },
);
