import { AggregatorRegistry, type Registry } from 'prom-client';

/** The call a worker's /metrics makes to the primary. */
export const METRICS_CALL = 'metrics';

/**
 * Worker side: offer this worker's registry to the primary's aggregation. prom-client answers the
 * primary's requests only once an AggregatorRegistry exists in the worker, so one is made here;
 * call it before the worker listens, or the primary's first collection waits out its time-out.
 */
export function shareWorkerMetrics(registry: Registry | null): void {
  AggregatorRegistry.setRegistries(registry ? [registry] : []);
  new AggregatorRegistry();
}

/**
 * Primary side: the Prometheus text of every connected worker's registry, counters and histograms
 * summed, gauges summed (open event streams) or averaged where prom-client says so (event-loop lag).
 */
export function clusterMetricsCollector(): () => Promise<string> {
  const aggregator = new AggregatorRegistry();
  return () => aggregator.clusterMetrics();
}
