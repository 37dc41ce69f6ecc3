import type { FastifyInstance } from 'fastify';
import { encodeBody, type CodecKey, type CompressionFormat, type EncodedMode } from './codec.js';
import { CALLS, ENABLE_MODE_HEADER } from '../server/contract/index.js';
import { refusedRequests } from './routes/auth.js';

interface Encoding {
  mode: EncodedMode;
  /** Mode 3 only: the formats answers cycle through, first one first. */
  formats?: readonly CompressionFormat[];
}

/**
 * The routes whose answers go out encoded, as the real chat backend does for part of its calls.
 * The dashboard calls every console makes right after login are here; mode 3 routes start on
 * different formats and rotate on each answer, so the first dashboard and monitor loads already
 * run every decoding path of the gateway (gzip, zlib, raw deflate) and repeated loads keep mixing them.
 */
export const ENCODED_ROUTES: Readonly<Record<string, Encoding>> = {
  [CALLS.permission]: { mode: 1 },
  [CALLS.count]: { mode: 3, formats: ['gzip', 'zlib', 'deflate-raw'] },
  [CALLS.dailyStatistics]: { mode: 3, formats: ['zlib', 'deflate-raw', 'gzip'] },
  [CALLS.financeData]: { mode: 1 },
  [CALLS.monitoring]: { mode: 3, formats: ['deflate-raw', 'gzip', 'zlib'] },
};

export function registerEncoding(app: FastifyInstance, key: CodecKey): void {
  const answered = new Map<string, number>();
  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    const entry = route === undefined ? undefined : ENCODED_ROUTES[route];
    // Only what the route itself answered: a refusal by the login guard goes out as plain JSON.
    if (route === undefined || !entry || typeof payload !== 'string' || refusedRequests.has(request)) return payload;
    let format: CompressionFormat | undefined;
    if (entry.mode === 3 && entry.formats && entry.formats.length > 0) {
      const n = answered.get(route) ?? 0;
      answered.set(route, n + 1);
      format = entry.formats[n % entry.formats.length];
    }
    reply.header(ENABLE_MODE_HEADER, String(entry.mode));
    reply.header('content-type', 'text/plain; charset=utf-8');
    return encodeBody(payload, entry.mode, key, format);
  });
}
