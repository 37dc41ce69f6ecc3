import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { GatewayError } from '../errors.js';

export type UpstreamErrorKind = 'unreachable' | 'timeout' | 'bad_answer';

/** The kind a failed call to the backend is counted under, or null for any other error. */
export function upstreamErrorKind(error: unknown): UpstreamErrorKind | null {
  if (!(error instanceof GatewayError)) return null;
  switch (error.errorName) {
    case 'UPSTREAM_UNREACHABLE':
      return 'unreachable';
    case 'UPSTREAM_TIMEOUT':
      return 'timeout';
    case 'UPSTREAM_BAD_ANSWER':
      return 'bad_answer';
    default:
      return null;
  }
}

/**
 * One registry per gateway instance, so tests that build several apps in one process do not
 * share counters.
 */
export function createMetrics(options: { processMetrics?: boolean } = {}) {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry, prefix: 'gateway_' });
  return {
    registry,
    requests: new Counter({
      name: 'gateway_http_requests_total',
      help: 'Requests answered by the gateway, by route, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
    }),
    latency: new Histogram({
      name: 'gateway_http_request_duration_seconds',
      help: 'Time to answer, by route and method',
      labelNames: ['route', 'method'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    upstreamErrors: new Counter({
      name: 'gateway_upstream_errors_total',
      help: 'Calls to the chat backend that failed, by kind (unreachable, timeout, bad_answer)',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
    decodeFailures: new Counter({
      name: 'gateway_decode_failures_total',
      help: 'Encoded answers that could not be decoded, by reason',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    eventStreams: new Gauge({
      name: 'gateway_event_streams_open',
      help: 'Open /api/events streams',
      registers: [registry],
    }),
    withdrawalPolls: new Counter({
      name: 'gateway_withdrawal_polls_total',
      help: 'Upstream polls of the pending withdrawal count',
      registers: [registry],
    }),
    errorLogWrites: new Counter({
      name: 'gateway_error_log_entries_total',
      help: 'UI error-log entries stored',
      registers: [registry],
    }),
    redisUp: new Gauge({
      name: 'gateway_redis_up',
      help: 'With REDIS_URL set: 1 while the connection to Redis is ready, 0 while it is lost',
      // Across workers: 0 as soon as one of them has lost it.
      aggregator: 'min',
      registers: [registry],
    }),
    limited: new Counter({
      name: 'gateway_limited_total',
      help: 'Sockets closed and calls refused (429) by a per-client cap, by limit',
      labelNames: ['limit'] as const,
      registers: [registry],
    }),
    errorLogFallbackWrites: new Counter({
      name: 'gateway_error_log_fallback_entries_total',
      help: 'UI error-log entries written to the local file because the shared log in Redis could not be reached',
      registers: [registry],
    }),
    auditEntries: new Counter({
      name: 'gateway_audit_entries_total',
      help: 'Audit-trail entries recorded, by kind',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
    auditFailures: new Counter({
      name: 'gateway_audit_failures_total',
      help: 'Audit-trail entries that could not be recorded (the call itself went through): the log has the reason',
      registers: [registry],
    }),
    auditFallbackWrites: new Counter({
      name: 'gateway_audit_fallback_entries_total',
      help: 'Audit-trail entries written to the local file because the shared trail in Redis could not be reached',
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * Counts `error` in gateway_upstream_errors_total when it is a failed call to the backend. Every
 * place where such a failure ends (the proxy, the error handler, the event stream's look-ups and
 * polls) calls this once, so proxied calls and the gateway's own calls are counted alike.
 */
export function countUpstreamError(metrics: Metrics, error: unknown): void {
  const kind = upstreamErrorKind(error);
  if (kind) metrics.upstreamErrors.inc({ kind });
}
