import fp from 'fastify-plugin';
import { GATEWAY_PATHS } from '../contract/index.js';

/**
 * One log line per request, written when the answer is sent (Fastify's own request logging is
 * off: at saturation each line costs as much as the proxying), and the request count and latency
 * by route behind /metrics.
 */
export default fp(
  async (app) => {
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const level = reply.statusCode >= 500 ? 'warn' : request.routeOptions.logLevel === 'warn' ? 'debug' : 'info';
      request.log[level](
        {
          method: request.method,
          url: request.url.split('?')[0],
          statusCode: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request completed',
      );
      app.metrics.requests.inc({ route, method: request.method, status: String(reply.statusCode) });
      // An event stream's "latency" is its lifetime; it would drown the histogram.
      if (route !== GATEWAY_PATHS.events)
        app.metrics.latency.observe({ route, method: request.method }, reply.elapsedTime / 1000);
    });
  },
  { name: 'request-log' },
);
