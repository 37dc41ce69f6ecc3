import type { FastifyRequest } from 'fastify';

/**
 * What the backend learns of the client: the address and scheme the gateway itself determined
 * (from the socket, or from a proxy TRUST_PROXY trusts), never what the client claimed.
 */
export function forwardedHeaders(request: FastifyRequest): Record<string, string> {
  return { 'x-forwarded-for': request.ip, 'x-forwarded-proto': request.protocol };
}

/**
 * Request headers that never reach the backend: the browser's cookies (the session is the
 * gateway's), forged w-* credentials, credentials of other schemes, method overrides, path
 * overrides some servers honour, client-claimed addresses (replaced by forwardedHeaders()), and
 * hop-by-hop negotiation the gateway does not proxy.
 */
const DROPPED = new Set([
  'cookie',
  'authorization',
  'proxy-authorization',
  'x-http-method-override',
  'x-http-method',
  'x-method-override',
  'x-original-url',
  'x-rewrite-url',
  'x-original-method',
  'forwarded',
  'x-real-ip',
  'x-client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  'x-cluster-client-ip',
  'upgrade',
  'expect',
  'proxy-connection',
  'keep-alive',
]);

export function isDroppedRequestHeader(lowerName: string): boolean {
  return DROPPED.has(lowerName) || lowerName.startsWith('w-') || lowerName.startsWith('x-forwarded-');
}

/**
 * Answer headers of the backend that never reach the browser: they describe the backend's
 * software or its hop, or would open the console's answers to other origins (the console is one
 * origin and needs no CORS).
 */
const HIDDEN_ANSWER_HEADERS = [
  'server',
  'x-powered-by',
  'x-aspnet-version',
  'x-aspnetmvc-version',
  'keep-alive',
  'connection',
  'proxy-connection',
  'upgrade',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-expose-headers',
  'access-control-max-age',
];

export function hideBackendHeaders(headers: Record<string, unknown>): void {
  for (const name of HIDDEN_ANSWER_HEADERS) delete headers[name];
}
