import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { ErrorLogEntry } from '../contract/error-log.js';
import type { Config } from '../config.js';
import type { ErrorLogQuery, ErrorLogScope } from '../error-log/store.js';
import { localErrorLog } from '../error-log/lanes.js';
import { ERROR_LOG_CALLS } from '../error-log/ipc-store.js';
import { AuditFileStore } from '../audit/file-store.js';
import { auditPrimaryHandlers } from '../audit/ipc-store.js';
import { sessionPrimaryHandlers } from '../session/cluster.js';
import { approvalPrimary } from '../approvals/ipc-store.js';
import { savedViewsPrimary } from '../saved-views/ipc-store.js';
import { uploadQuotaPrimaryHandlers } from '../uploads/quota.js';
import { serveWorkers, type ShutdownMessage } from './ipc.js';
import { METRICS_CALL, clusterMetricsCollector } from './metrics.js';
import { WORKER_ENV } from './worker.js';

/** Restart delay after a worker's first unexpected exit; doubled per exit in a row, up to the cap. */
const RESTART_BASE_MS = 500;
const RESTART_MAX_MS = 30_000;
/** A worker that served this long before it died starts its slot's backoff afresh. */
const HEALTHY_RUN_MS = 60_000;
const SHUTDOWN: ShutdownMessage = { gateway: 'shutdown' };

export interface PrimaryOptions {
  /** Validated, with config.workers > 1 and the chat backend chosen. */
  config: Config;
  log: Logger;
  /** Added to each worker's environment (where the sandbox backend listens). */
  workerEnv?: Record<string, string>;
  /** Closed once every worker has exited (the sandbox backend the workers used). */
  closeAfterWorkers?: () => Promise<void>;
}

export interface GatewayPrimary {
  /** Resolves with the shared port once every worker listens; rejects when one fails to start. */
  ready: Promise<{ port: number }>;
  /** Asks every worker to shut down gracefully; resolves with the exit code once all have exited. */
  shutdown(reason: string): Promise<number>;
  /** Kills every worker at once (a second signal, a shutdown time-out). */
  killWorkers(): void;
}

interface Slot {
  index: number;
  worker: Worker | null;
  startedAt: number;
  /** Unexpected exits in a row, for the backoff. */
  failures: number;
  restartTimer: NodeJS.Timeout | null;
}

/**
 * The primary of WORKERS > 1: owns what must not split across workers (the error-log file and its
 * index, the audit trail's file and chain, the metric aggregation), forks the workers, restarts one that dies
 * unexpectedly, and shuts them all down gracefully. It serves no HTTP itself.
 */
export async function startPrimary(options: PrimaryOptions): Promise<GatewayPrimary> {
  const { log, config } = options;
  const count = config.workers;

  // Opened now, as the single process does, so that an unwritable DATA_DIR stops the start.
  const store = localErrorLog(config.dataDir);
  await store.open();
  // The one audit chain of every worker: appended in the order the primary takes them.
  const audit = new AuditFileStore({
    dir: config.dataDir,
    onDamage: (detail) => log.warn(detail),
    segmentBytes: config.auditSegmentBytes,
    maxBytes: config.auditMaxBytes,
  });
  await audit.open();
  // Held calls of every worker, when they are not shared through Redis.
  const approvals =
    config.redisUrl === null
      ? await approvalPrimary(config.dataDir, (file, aside) =>
          log.warn({ file, aside }, 'set aside an unreadable file of held calls'),
        )
      : null;
  // Saved views of every worker, likewise.
  const savedViews =
    config.redisUrl === null
      ? await savedViewsPrimary(config.dataDir, (file, aside) =>
          log.warn({ file, aside }, 'set aside an unreadable file of saved views'),
        )
      : null;

  const workerEnv: Record<string, string> = { ...options.workerEnv, [WORKER_ENV]: '1' };
  if (config.sessionSecretGenerated) {
    // Every worker must seal and open the same cookies: they share the one secret made here.
    workerEnv.SESSION_SECRET = `base64:${config.sessionSecret.toString('base64')}`;
    log.warn(
      'SESSION_SECRET is not set: a random one was made for this gateway. Sessions end when it restarts, and replicas behind one load balancer must share one SESSION_SECRET.',
    );
  }

  const collectMetrics = clusterMetricsCollector();
  serveWorkers({
    [ERROR_LOG_CALLS.append]: (entry) => store.append(entry as ErrorLogEntry),
    [ERROR_LOG_CALLS.list]: (query) => store.list(query as ErrorLogQuery),
    [ERROR_LOG_CALLS.clear]: (scope) => store.clear((scope ?? {}) as ErrorLogScope),
    [ERROR_LOG_CALLS.flush]: () => store.flush(),
    ...auditPrimaryHandlers(audit),
    [METRICS_CALL]: () => collectMetrics(),
    ...sessionPrimaryHandlers(config.revocationsMax),
    ...approvals?.handlers,
    ...savedViews?.handlers,
    // Upload quotas of every worker, when they are not shared through Redis.
    ...(config.redisUrl === null ? uploadQuotaPrimaryHandlers() : {}),
  });

  let stopping = false;
  let started = false;
  let shutdownResult: Promise<number> | null = null;
  let failedToStart = false;
  let uncleanExit = false;
  const slots: Slot[] = Array.from({ length: count }, (_, index) => ({
    index,
    worker: null,
    startedAt: 0,
    failures: 0,
    restartTimer: null,
  }));
  const live = new Set<Worker>();
  let allExited: (() => void) | null = null;

  let resolveReady!: (value: { port: number }) => void;
  let rejectReady!: (error: Error) => void;
  const ready = new Promise<{ port: number }>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  // main.ts reacts through shutdown(); an unobserved rejection must not end the process first.
  ready.catch(() => undefined);
  const listened = new Set<number>();

  const fork = (slot: Slot) => {
    slot.restartTimer = null;
    if (stopping) return;
    const worker = cluster.fork(workerEnv);
    slot.worker = worker;
    slot.startedAt = Date.now();
    live.add(worker);
    log.info({ worker: slot.index + 1, workerPid: worker.process.pid }, 'worker started');

    let listening = false;
    worker.on('listening', (address) => {
      listening = true;
      // A shutdown message sent while the worker was still loading its code may have been lost.
      if (stopping) worker.send(SHUTDOWN, undefined, () => undefined);
      if (started) return;
      listened.add(slot.index);
      if (listened.size === count) {
        started = true;
        log.info({ workers: count, port: address.port }, 'every worker listens');
        resolveReady({ port: address.port });
      }
    });

    worker.on('exit', (code, signal) => {
      live.delete(worker);
      if (slot.worker === worker) slot.worker = null;
      if (stopping) {
        // A worker stopped before it listened had nothing to finish, whatever its exit.
        if (listening && code !== 0) uncleanExit = true;
        log.info({ worker: slot.index + 1, workerPid: worker.process.pid, code, signal }, 'worker exited');
        if (live.size === 0) allExited?.();
        return;
      }
      if (!started) {
        // A worker that cannot start (port taken, bad DATA_DIR...) would fail again: stop, as a
        // single process does when it cannot listen.
        failedToStart = true;
        log.error(
          { worker: slot.index + 1, workerPid: worker.process.pid, code, signal },
          'a worker failed to start; stopping the gateway',
        );
        rejectReady(new Error(`worker ${slot.index + 1} exited (${code ?? signal}) before it listened`));
        void shutdown('a worker failed to start');
        return;
      }
      if (Date.now() - slot.startedAt >= HEALTHY_RUN_MS) slot.failures = 0;
      const delayMs = Math.min(RESTART_MAX_MS, RESTART_BASE_MS * 2 ** slot.failures);
      slot.failures += 1;
      log.error(
        { worker: slot.index + 1, workerPid: worker.process.pid, code, signal, restartInMs: delayMs },
        'worker exited unexpectedly; restarting it',
      );
      slot.restartTimer = setTimeout(() => fork(slot), delayMs);
    });
  };

  const shutdown = (reason: string): Promise<number> => {
    if (shutdownResult) return shutdownResult;
    stopping = true;
    shutdownResult = (async () => {
      log.info(
        { signal: reason, workers: live.size },
        'shutting down: every worker finishes its in-flight calls and closes its event streams',
      );
      for (const slot of slots) {
        if (slot.restartTimer) clearTimeout(slot.restartTimer);
        slot.restartTimer = null;
      }
      const exited = new Promise<void>((resolve) => {
        allExited = resolve;
        if (live.size === 0) resolve();
      });
      for (const worker of live) {
        // A worker still starting may not hear IPC yet; its SIGTERM handler (or the default) ends it.
        if (worker.isConnected()) worker.send(SHUTDOWN, undefined, () => undefined);
        else worker.process.kill('SIGTERM');
      }
      await exited;
      let code = failedToStart || uncleanExit ? 1 : 0;
      try {
        await store.close();
        await audit.close();
        await approvals?.store.close();
        await savedViews?.store.close();
        await options.closeAfterWorkers?.();
      } catch (error) {
        log.error({ err: error }, 'error during shutdown');
        code = 1;
      }
      if (code === 0) log.info('shut down cleanly');
      return code;
    })();
    return shutdownResult;
  };

  const killWorkers = () => {
    stopping = true;
    for (const slot of slots) if (slot.restartTimer) clearTimeout(slot.restartTimer);
    for (const worker of live) worker.process.kill('SIGKILL');
  };

  for (const slot of slots) fork(slot);
  return { ready, shutdown, killWorkers };
}
