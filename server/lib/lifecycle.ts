import type { FastifyBaseLogger } from 'fastify';

export type LifecycleLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export interface ShutdownPlan {
  log: LifecycleLog;
  /** The graceful stop; resolves with the exit code. Runs once, whatever asked for it first. */
  shutdown(reason: string): Promise<number>;
  /** Past this the process exits with 1; no limit when absent. */
  timeoutMs?: number;
  /**
   * A signal while the shutdown runs: 'exit' ends the process at once with 1 (an operator who
   * asks twice means it); 'ignore' keeps the one shutdown going, for a cluster worker, which hears
   * a terminal's Ctrl-C beside its primary's request and leaves the second word to the primary.
   */
  secondSignal?: 'exit' | 'ignore';
  /** Runs before a forced exit (second signal, time-out): a primary kills its workers. */
  beforeForcedExit?(): void;
}

export interface Lifecycle {
  /** Starts the shutdown without a signal (the primary asked, a worker failed to start). */
  stop(reason: string): void;
  /** True once the shutdown began. */
  readonly stopping: boolean;
}

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * The one process lifecycle of the gateway, its cluster primary and its workers: SIGTERM or
 * SIGINT starts a single graceful shutdown whose result is the exit code; a shutdown still running
 * after the time limit exits with 1; a second signal exits at once unless told otherwise. Unlike
 * close-with-grace it leaves uncaught errors to Node (a crash keeps its stack and exit code) and
 * lets a worker ignore the second signal.
 */
export function exitGracefully(plan: ShutdownPlan): Lifecycle {
  const { log } = plan;
  let stopping = false;

  const forcedExit = () => {
    plan.beforeForcedExit?.();
    process.exit(1);
  };

  const begin = (reason: string) => {
    stopping = true;
    if (plan.timeoutMs !== undefined) {
      const timer = setTimeout(() => {
        log.error('shutdown timed out; exiting');
        forcedExit();
      }, plan.timeoutMs);
      timer.unref();
    }
    plan.shutdown(reason).then(
      (code) => process.exit(code),
      (error: unknown) => {
        log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };

  const onSignal = (signal: string) => {
    if (!stopping) return begin(signal);
    if (plan.secondSignal === 'ignore') return;
    log.warn({ signal }, 'second signal: exiting at once');
    forcedExit();
  };
  for (const signal of SIGNALS) process.on(signal, () => onSignal(signal));

  return {
    stop: (reason) => {
      if (!stopping) begin(reason);
    },
    get stopping() {
      return stopping;
    },
  };
}
