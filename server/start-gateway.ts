import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { pino, type LoggerOptions } from 'pino';
import { buildApp } from './app.js';
import { describeConfig, type Config } from './config.js';
import { PrimaryChannel, isShutdownMessage } from './cluster/ipc.js';
import { shareWorkerMetrics } from './cluster/metrics.js';
import { startPrimary } from './cluster/primary.js';
import { SANDBOX_SERVICES_ENV, SANDBOX_URL_ENV, isGatewayWorker } from './cluster/worker.js';
import { exitGracefully, type Lifecycle, type LifecycleLog } from './lib/lifecycle.js';
import { loggerOptions } from './lib/logger.js';
import { withSandboxServices } from './backend-map/services.js';

/** A chat backend this process started and must close: the sandbox. */
export interface StartedBackend {
  url: string;
  /** Further addresses of the same backend by service name (OpenIM's chat API beside its admin API). */
  services?: Record<string, string>;
  close(): Promise<void>;
}

export interface GatewayOptions {
  /**
   * Starts the simulated chat backend, called only when CHAT_BACKEND_URL is unset. The entry point
   * hands it in, so that no module but the entry point knows the sandbox and a production gateway
   * never loads it.
   */
  startSandbox(): Promise<StartedBackend>;
  /** Collect Node's process metrics (default true; benchmarks measure without them). */
  processMetrics?: boolean;
}

export interface RunningGateway {
  /** The port it listens on (the cluster's shared port for a primary). */
  port: number;
  /** The app in a single process or a worker; null in a cluster primary, which serves nothing itself. */
  app: FastifyInstance | null;
  /** Starts the graceful shutdown, as SIGTERM does; the process exits when it ends. */
  stop(reason: string): void;
}

interface Backend {
  /** The configuration with the backend's address filled in. */
  config: Config;
  /** The sandbox's further addresses by service name, for the workers. */
  services?: Record<string, string>;
  sandbox: boolean;
  close(): Promise<void>;
}

const SANDBOX_WARNING =
  'SANDBOX MODE: CHAT_BACKEND_URL is not set, so the gateway runs on its built-in simulated chat backend. Log in as admin/admin123, operator/operator123 or checker/checker123.';

/**
 * The one choice between the configured chat backend and the sandbox. A cluster worker uses its
 * primary's sandbox, so that every worker sees the same simulated data.
 */
async function chooseBackend(config: Config, options: GatewayOptions): Promise<Backend> {
  if (config.chatBackendUrl !== null) return { config, sandbox: false, close: async () => {} };
  let started: StartedBackend;
  if (isGatewayWorker()) {
    const url = process.env[SANDBOX_URL_ENV];
    if (!url)
      throw new Error(`${SANDBOX_URL_ENV} is not set: a worker in sandbox mode needs the primary's sandbox backend`);
    const services = process.env[SANDBOX_SERVICES_ENV];
    started = {
      url,
      ...(services ? { services: JSON.parse(services) as Record<string, string> } : {}),
      close: async () => {},
    };
  } else {
    started = await options.startSandbox();
  }
  const map = config.backendMap;
  const services = started.services ?? {};
  const backendMap = map && { ...map, services: withSandboxServices(map.services, services) };
  return {
    config: { ...config, chatBackendUrl: started.url, fileServerUrl: config.fileServerUrl ?? started.url, backendMap },
    services,
    sandbox: true,
    close: started.close,
  };
}

function announce(log: LifecycleLog, backend: Backend): void {
  log.info({ config: describeConfig(backend.config) }, 'effective configuration');
  if (backend.sandbox)
    log.warn({ backend: backend.config.chatBackendUrl, dialect: backend.config.sandboxDialect }, SANDBOX_WARNING);
}

/** Refuses new streams, lets in-flight calls finish, ends event streams, closes what the app opened. */
async function closeApp(
  app: FastifyInstance,
  backend: Backend,
  fields: Record<string, string>,
  who = '',
): Promise<number> {
  app.log.info(fields, `${who}shutting down: finishing in-flight calls and closing event streams`);
  app.shuttingDown = true;
  await app.close();
  await backend.close();
  app.log.info(`${who}shut down cleanly`);
  return 0;
}

function listeningPort(app: FastifyInstance): number {
  return (app.server.address() as AddressInfo).port;
}

/**
 * Runs the gateway in the role this process has: a single process (WORKERS=1), the node:cluster
 * primary of WORKERS > 1 (forks the workers, serves nothing), or one of those workers (the same
 * entry point runs again in each). Each role shuts down gracefully on SIGTERM/SIGINT.
 */
export async function startGateway(config: Config, options: GatewayOptions): Promise<RunningGateway> {
  if (isGatewayWorker()) return runWorker(config, options);
  if (config.workers > 1) return runPrimary(config, options);
  return runSingle(config, options);
}

async function runSingle(config: Config, options: GatewayOptions): Promise<RunningGateway> {
  const backend = await chooseBackend(config, options);
  const app = await buildApp({
    config: backend.config,
    sandbox: backend.sandbox,
    processMetrics: options.processMetrics ?? true,
  });
  announce(app.log, backend);
  const lifecycle = exitGracefully({
    log: app.log,
    timeoutMs: config.shutdownTimeoutMs,
    shutdown: (signal) => closeApp(app, backend, { signal }),
  });
  await app.listen({ port: config.port, host: config.host });
  return { port: listeningPort(app), app, stop: lifecycle.stop };
}

/**
 * One worker of WORKERS > 1: the same app as a single process, listening on the same PORT/HOST
 * (the cluster module shares the socket), with the error log and /metrics served by the primary.
 */
async function runWorker(config: Config, options: GatewayOptions): Promise<RunningGateway> {
  const primary = new PrimaryChannel();
  // Answer the primary's metric collections from the start, even before the app exists.
  shareWorkerMetrics(null);

  // Listening for the shutdown before the (slow) start: a request that comes while the app is
  // being built is carried out as soon as it exists, and the worker never listens.
  let built!: (app: FastifyInstance) => void;
  const appBuilt = new Promise<FastifyInstance>((resolve) => (built = resolve));
  let backend: Backend | null = null;
  const lifecycle: Lifecycle = exitGracefully({
    log: pino(loggerOptions(config) as LoggerOptions),
    timeoutMs: config.shutdownTimeoutMs,
    // Ctrl-C reaches the whole process group beside the primary's request: one shutdown. Exiting
    // at once on a second signal is the primary's part: it kills the workers.
    secondSignal: 'ignore',
    shutdown: async (reason) => closeApp(await appBuilt, backend!, { reason }, 'worker '),
  });
  process.on('message', (message: unknown) => {
    if (isShutdownMessage(message)) lifecycle.stop('asked by the primary');
  });
  // A worker whose primary is gone (killed) exits at once: node:cluster itself ends a worker whose
  // IPC channel closes, so no worker outlives its primary.

  // The primary validated the same environment already and wrote the effective configuration.
  backend = await chooseBackend(config, options);
  const app = await buildApp({
    config: backend.config,
    sandbox: backend.sandbox,
    processMetrics: options.processMetrics ?? true,
    primary,
  });
  shareWorkerMetrics(app.metrics.registry);
  built(app);
  if (!lifecycle.stopping) await app.listen({ port: config.port, host: config.host });
  return { port: lifecycle.stopping ? 0 : listeningPort(app), app, stop: lifecycle.stop };
}

/** WORKERS > 1: fork the workers; SIGTERM shuts each down gracefully, a second signal kills them. */
async function runPrimary(config: Config, options: GatewayOptions): Promise<RunningGateway> {
  const log = pino(loggerOptions(config) as LoggerOptions);
  // One sandbox for every worker, started here before they fork.
  const backend = await chooseBackend(config, options);
  announce(log, backend);
  const primary = await startPrimary({
    config: backend.config,
    log,
    workerEnv: backend.sandbox
      ? {
          [SANDBOX_URL_ENV]: backend.config.chatBackendUrl!,
          ...(backend.services ? { [SANDBOX_SERVICES_ENV]: JSON.stringify(backend.services) } : {}),
        }
      : {},
    closeAfterWorkers: backend.close,
  });
  const lifecycle = exitGracefully({
    log,
    // Each worker gives up after SHUTDOWN_TIMEOUT_MS itself; this only catches one that hangs.
    timeoutMs: config.shutdownTimeoutMs + 5_000,
    shutdown: (reason) => primary.shutdown(reason),
    beforeForcedExit: () => primary.killWorkers(),
  });
  // A worker that cannot start stops the gateway (exit code 1), as a single process that cannot listen.
  const ready = await primary.ready.catch(() => {
    lifecycle.stop('a worker failed to start');
    return { port: 0 };
  });
  return { port: ready.port, app: null, stop: lifecycle.stop };
}
