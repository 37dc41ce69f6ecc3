import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';

/**
 * What reaches the backend of a browser's request is an allowlist, not a denylist: Java backends
 * and their filters read a long and growing tail of headers as the client's address
 * (`Proxy-Client-IP`, `WL-Proxy-Client-IP`, `X-Originating-IP`...), as a method override
 * (`X-Method`, `_method`) or as credentials (`token`), and no list of names to drop can keep up.
 *
 * Passed on as the browser sent them: what it accepts (the backend picks the answer's type and
 * language by them), its user agent (backends log it), and the conditional and range headers of
 * files under /plate (revalidation, seeking in audio and video). Never `Accept-Encoding`: the
 * gateway reads and decodes answers itself, and a content coding on top of a w-enable-mode body
 * would make it unreadable. A name with an underscore is never among them: nginx drops such
 * headers (`underscores_in_headers off`), and servers that map `_` to `-` would read them as
 * another header.
 */
export const PASSED_REQUEST_HEADERS: readonly string[] = [
  'accept',
  'accept-language',
  'user-agent',
  'if-none-match',
  'if-modified-since',
  'range',
  'if-range',
];

/**
 * Set by the gateway alone, whatever the browser sent under these names: the client's address and
 * scheme as the gateway determined them (from the socket, or from a proxy TRUST_PROXY trusts),
 * and the request id of the gateway's log line. The proxy adds the body's own `Content-Type` and
 * `Content-Length` and the session's `w-token` and `w-userId`.
 */
export const GATEWAY_REQUEST_HEADERS: readonly string[] = ['x-forwarded-for', 'x-forwarded-proto', 'x-request-id'];

/** The headers of every call the gateway makes to the backend on a browser's behalf. */
export function backendRequestHeaders(request: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of PASSED_REQUEST_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') out[name] = value;
  }
  out['x-forwarded-for'] = request.ip;
  out['x-forwarded-proto'] = request.protocol;
  out['x-request-id'] = request.id;
  return out;
}

/**
 * A client's request id is kept when it is short and plain, so a front proxy's id (nginx's
 * `$request_id`) ties its log to the gateway's and the backend's. Anything else would put the
 * client's text, of any length, into every log line and the backend's headers: a fresh id then.
 */
const PLAIN_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function requestIdOf(headers: IncomingHttpHeaders): string {
  const claimed = headers['x-request-id'];
  return typeof claimed === 'string' && PLAIN_REQUEST_ID.test(claimed) ? claimed : randomUUID();
}

/**
 * Answer headers of the backend passed on to the browser; every other one is dropped. What an
 * answer says about itself (type, length, coding, language), when to retry, where a redirect
 * goes (checked by the proxy to stay on the console's origin), and the caching headers of files.
 * Never the backend's say over the console: its CSP, framing, `Refresh`, `Link`,
 * `Clear-Site-Data`, `WWW-Authenticate`, cookies, CORS or software banners.
 */
const PASSED_ANSWER_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-disposition',
  'content-range',
  'accept-ranges',
  'retry-after',
  'location',
  'cache-control',
  'expires',
  'etag',
  'last-modified',
  'vary',
  'w-enable-mode',
]);

/** The backend's answer headers the browser may see. */
export function passedAnswerHeaders<H extends Record<string, unknown>>(headers: H): Partial<H> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (PASSED_ANSWER_HEADERS.has(name.toLowerCase())) out[name] = value;
  }
  return out as Partial<H>;
}
