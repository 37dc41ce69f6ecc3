import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Child } from '../../support/child.js';
import { CHILDREN_DIR } from '../../support/paths.js';
import type { LoadAnswer, LoadRun } from '../children/load.js';

export type { LoadAnswer, LoadRun } from '../children/load.js';

const run = promisify(execFile);

export function findWrk(): string | null {
  for (const file of ['/usr/bin/wrk', '/usr/local/bin/wrk']) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // next
    }
  }
  return null;
}

/** The undici load generator child; one per scenario, reused for every target. */
export async function startLoadGenerator(logFile?: string): Promise<Child> {
  const { child } = await Child.start('load generator', path.join(CHILDREN_DIR, 'load.ts'), logFile ? { logFile } : {});
  return child;
}

export async function runLoad(generator: Child, spec: LoadRun): Promise<LoadAnswer> {
  return generator.request<LoadAnswer>({ type: 'run', spec }, spec.durationMs + 60_000);
}

function toMs(value: string, unit: string): number {
  const n = Number(value);
  if (unit === 'us') return n / 1000;
  if (unit === 's') return n * 1000;
  if (unit === 'm') return n * 60_000;
  return n;
}

/**
 * Saturation with wrk: one thread (one core for the generator, leaving the other to the server
 * under test), keep-alive connections. Its latency distribution is that of a saturated server.
 */
export async function runWrk(
  wrk: string,
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
): Promise<LoadAnswer> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '--timeout', '10s'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  args.push(url);
  const { stdout } = await run(wrk, args, { timeout: (seconds + 30) * 1000 });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? Number.NaN);
  const requests = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? Number.NaN);
  const latency = (p: string) => {
    const match = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m)`, 'm').exec(stdout);
    return match ? toMs(match[1]!, match[2]!) : Number.NaN;
  };
  const errorsMatch = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
  const errors = errorsMatch ? errorsMatch.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  const maxMatch = /Latency\s+[\d.]+\w+\s+[\d.]+\w+\s+([\d.]+)(us|ms|s|m)/.exec(stdout);
  return {
    requests,
    errors: errors + non2xx,
    statuses: {},
    elapsedMs: seconds * 1000,
    rps,
    p50: latency('50'),
    p90: latency('90'),
    p99: latency('99'),
    max: maxMatch ? toMs(maxMatch[1]!, maxMatch[2]!) : Number.NaN,
    late: 0,
  };
}
