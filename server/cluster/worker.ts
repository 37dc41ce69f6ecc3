import cluster from 'node:cluster';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { SANDBOX_AES_KEY_TEXT } from '../sandbox/key.js';
import { PrimaryChannel, isShutdownMessage, setPrimaryChannel } from './ipc.js';
import { shareWorkerMetrics } from './metrics.js';

/** Set by the primary in each worker's environment: marks a worker of ours (not of PM2 or the like). */
export const WORKER_ENV = 'GATEWAY_CLUSTER_WORKER';
/** Set by the primary in sandbox mode: where the sandbox backend it started listens. */
export const SANDBOX_URL_ENV = 'GATEWAY_SANDBOX_URL';

/** True in a process forked by startPrimary(); a process some other cluster manager forked is not one. */
export function isGatewayWorker(): boolean {
  return cluster.isWorker && process.env[WORKER_ENV] === '1';
}

/**
 * One worker of WORKERS > 1: the same app as a single process, listening on the same PORT/HOST
 * (the cluster module shares the socket), with the error log and /metrics served by the primary.
 * It shuts down as a single process does on SIGTERM when the primary asks or when it gets a signal
 * itself (Ctrl-C reaches the whole process group).
 */
export async function runWorker(): Promise<void> {
  const channel = new PrimaryChannel();
  setPrimaryChannel(channel);
  // Answer the primary's metric collections from the start, even before the app exists.
  shareWorkerMetrics(null);

  // Listening for the shutdown before the (slow) start: a request that comes while the app is
  // being built is carried out as soon as it exists, and the worker never listens.
  let app: FastifyInstance | null = null;
  let stopReason: string | null = null;
  let stopping = false;
  const stop = async (reason: string) => {
    // Several reasons may arrive (the primary's message and a terminal's SIGINT): one shutdown.
    // Exiting at once on a second signal is the primary's part: it kills the workers.
    stopReason ??= reason;
    if (!app || stopping) return;
    stopping = true;
    app.log.info({ reason: stopReason }, 'worker shutting down: finishing in-flight calls and closing event streams');
    app.shuttingDown = true;
    const timer = setTimeout(() => {
      app?.log.error('worker shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    try {
      await app.close();
      app.log.info('worker shut down cleanly');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during worker shutdown');
      process.exit(1);
    }
  };
  process.on('message', (message: unknown) => {
    if (isShutdownMessage(message)) void stop('asked by the primary');
  });
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // A worker whose primary is gone (killed) exits at once: node:cluster itself ends a worker whose
  // IPC channel closes, so no worker outlives its primary.

  // The primary validated the same environment already and wrote the effective configuration.
  let config = loadConfig(process.env, { sandboxKey: SANDBOX_AES_KEY_TEXT });
  const sandbox = config.chatBackendUrl === null;
  if (sandbox) {
    const url = process.env[SANDBOX_URL_ENV];
    if (!url) throw new Error(`${SANDBOX_URL_ENV} is not set: a worker in sandbox mode needs the primary's sandbox backend`);
    config = { ...config, chatBackendUrl: url, fileServerUrl: config.fileServerUrl ?? url };
  }

  app = await buildApp({ config, sandbox, processMetrics: true });
  shareWorkerMetrics(app.metrics.registry);
  if (stopReason !== null) {
    await stop(stopReason);
    return;
  }
  await app.listen({ port: config.port, host: config.host });
}
