import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../errors.js';
import { areaOf, pathOf } from '../lib/request-path.js';

/** Methods that cannot change anything; every other one must come from the console's own origin. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

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

export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

/** The console's own origin as this request reached it (through a proxy TRUST_PROXY trusts). */
export function ownOrigin(request: FastifyRequest): string | null {
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
  const claimed =
    typeof origin === 'string' ? originOf(origin) : typeof referer === 'string' ? originOf(referer) : null;
  return claimed !== null && claimed === ownOrigin(request);
}

/**
 * A call the browser says another origin started (`Sec-Fetch-Site: cross-site`, or `same-site`:
 * another origin of the same site, as the chat client's). The backend's GET calls are not all
 * free of effects (some sync or settle data), so under /manage no method is exempt. `none` (a
 * typed URL or bookmark) and `same-origin` pass, and so do clients that send no such header.
 */
export function isOtherSiteFetch(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  return site === 'cross-site' || site === 'same-site';
}

/** Strict-Transport-Security for an answer to `protocol`, or null when none is due. */
export function hstsHeader(protocol: string, maxAge: number): string | null {
  return protocol === 'https' && maxAge > 0 ? `max-age=${maxAge}; includeSubDomains` : null;
}

/** API answers carry sessions' data: no browser or proxy cache may keep them. */
export const NO_STORE = 'no-store';
/** An API answer opened as a page is saved as a file, never rendered on the console's origin. */
export const API_DISPOSITION = 'attachment; filename="api.json"';

/**
 * Headers on every answer, and the same-origin rule for every unsafe method on every path: the
 * rule looks at the method only, so no spelling of a path (percent-encoded, absolute-form) can
 * route a cross-site call around it. Under /manage (however spelled) a call another site started
 * is refused whatever its method.
 */
export default fp(
  async (app) => {
    const hstsMaxAge = app.config.hstsMaxAge;
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      reply.headers(SECURITY_HEADERS);
      reply.header('x-request-id', request.id);
      const hsts = hstsHeader(request.protocol, hstsMaxAge);
      if (hsts) reply.header('strict-transport-security', hsts);
      const area = areaOf(pathOf(request.url));
      if (area === 'manage' || area === 'api') {
        reply.header('cache-control', NO_STORE);
        reply.header('content-disposition', API_DISPOSITION);
      }
      if (area === 'manage' && isOtherSiteFetch(request)) {
        request.log.warn({ fetchSite: request.headers['sec-fetch-site'] }, 'refused a /manage call from another site');
        return reply.code(403).send(errorBody('CROSS_ORIGIN'));
      }
      if (!SAFE_METHODS.has(request.method) && !isSameOriginRequest(request)) {
        request.log.warn({ origin: request.headers.origin ?? null }, 'refused a cross-origin unsafe request');
        return reply.code(403).send(errorBody('CROSS_ORIGIN'));
      }
    });
  },
  { name: 'security' },
);
