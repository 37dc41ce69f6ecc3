/**
 * The load generator, in its own process so that its CPU is not the measured server's. undici
 * Pool over keep-alive connections; two shapes: a steady open-loop rate (latency at an admin
 * team's real load) and saturation (N closed loops, requests per second).
 */
import { Pool } from 'undici';
import { sendReady, serveRequests } from '../../support/child.js';

export interface LoadRun {
  origin: string;
  path: string;
  headers: Record<string, string>;
  mode: 'rate' | 'saturate';
  durationMs: number;
  connections: number;
  /** Requests per second, rate mode only. */
  rate?: number;
}

export interface LoadAnswer {
  requests: number;
  errors: number;
  statuses: Record<string, number>;
  elapsedMs: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Rate mode: requests that started later than scheduled because none could be sent (back-pressure). */
  late: number;
}

/** A hard cap on issued requests, whatever the duration asks for. */
const MAX_REQUESTS = 2_000_000;

function pct(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function run(spec: LoadRun): Promise<LoadAnswer> {
  const pool = new Pool(spec.origin, { connections: spec.connections, pipelining: 1, keepAliveTimeout: 30_000 });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  let issued = 0;
  let late = 0;

  const one = async (): Promise<void> => {
    issued++;
    const t0 = performance.now();
    try {
      const answer = await pool.request({ path: spec.path, method: 'GET', headers: spec.headers });
      await answer.body.dump({ limit: 64 * 1024 * 1024 });
      latencies.push(performance.now() - t0);
      statuses[answer.statusCode] = (statuses[answer.statusCode] ?? 0) + 1;
    } catch {
      errors++;
    }
  };

  const started = performance.now();
  const deadline = started + spec.durationMs;
  if (spec.mode === 'saturate') {
    const loop = async () => {
      while (performance.now() < deadline && issued < MAX_REQUESTS) await one();
    };
    await Promise.all(Array.from({ length: spec.connections }, loop));
  } else {
    const rate = spec.rate ?? 200;
    const intervalMs = 1000 / rate;
    const total = Math.min(MAX_REQUESTS, Math.floor((spec.durationMs / 1000) * rate));
    const inFlight = new Set<Promise<void>>();
    let next = 0;
    await new Promise<void>((resolve) => {
      const tick = () => {
        const now = performance.now();
        while (next < total && started + next * intervalMs <= now) {
          if (now - (started + next * intervalMs) > intervalMs) late++;
          const p = one().finally(() => inFlight.delete(p));
          inFlight.add(p);
          next++;
        }
        if (next >= total) return resolve();
        setTimeout(tick, Math.max(0, started + next * intervalMs - performance.now()));
      };
      tick();
    });
    await Promise.all(inFlight);
  }
  const elapsedMs = performance.now() - started;
  await pool.close();
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    errors,
    statuses,
    elapsedMs,
    rps: (latencies.length / elapsedMs) * 1000,
    p50: pct(sorted, 50),
    p90: pct(sorted, 90),
    p99: pct(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
    late,
  };
}

serveRequests({ run: (message) => run(message.spec as LoadRun) });
sendReady({});
