import { pino, type LoggerOptions } from 'pino';
import { buildApp } from './app.js';
import { ConfigError, describeConfig, loadConfig, type Config } from './config.js';
import { loggerOptions } from './lib/logger.js';
import { SANDBOX_AES_KEY_TEXT } from './sandbox/key.js';
import { startPrimary } from './cluster/primary.js';
import { isGatewayWorker, runWorker } from './cluster/worker.js';

/**
 * The process: read the configuration, start the sandbox backend when no real one is named,
 * listen, and shut down gracefully on SIGTERM/SIGINT (a second signal exits at once).
 * With WORKERS > 1 this process is a node:cluster primary and the same file runs in each worker.
 */
async function main(): Promise<void> {
  if (isGatewayWorker()) {
    await runWorker();
    return;
  }

  let config: Config;
  try {
    config = loadConfig(process.env, { sandboxKey: SANDBOX_AES_KEY_TEXT });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Invalid configuration: ${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }

  if (config.workers > 1) {
    await runPrimary(config);
    return;
  }

  let stopSandbox: (() => Promise<void>) | null = null;
  const sandbox = config.chatBackendUrl === null;
  if (sandbox) {
    // Loaded only in sandbox mode, so a production gateway never builds the simulator.
    const { startSandbox } = await import('./sandbox/start.js');
    const started = await startSandbox({ port: 0, host: '127.0.0.1' });
    stopSandbox = started.close;
    config = { ...config, chatBackendUrl: started.url, fileServerUrl: config.fileServerUrl ?? started.url };
  }

  const app = await buildApp({ config, sandbox, processMetrics: true });
  app.log.info({ config: describeConfig(config) }, 'effective configuration');
  if (sandbox) {
    app.log.warn(
      { backend: config.chatBackendUrl },
      'SANDBOX MODE: CHAT_BACKEND_URL is not set, so the gateway runs on its built-in simulated chat backend. Log in as admin/admin123 or operator/operator123.',
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting at once');
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight calls and closing event streams');
    app.shuttingDown = true;
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    try {
      await app.close();
      if (stopSandbox) await stopSandbox();
      app.log.info('shut down cleanly');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
}

/** WORKERS > 1: fork the workers; SIGTERM shuts each down gracefully, a second signal kills them. */
async function runPrimary(config: Config): Promise<void> {
  const log = pino(loggerOptions(config) as LoggerOptions);
  const primary = await startPrimary({ config, log });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting at once');
      primary.killWorkers();
      process.exit(1);
    }
    stopping = true;
    // Each worker gives up after SHUTDOWN_TIMEOUT_MS itself; this only catches one that hangs.
    const timer = setTimeout(() => {
      log.error('shutdown timed out; killing the workers and exiting');
      primary.killWorkers();
      process.exit(1);
    }, config.shutdownTimeoutMs + 5_000);
    timer.unref();
    process.exit(await primary.shutdown(signal));
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  // A worker that cannot start stops the gateway (exit code 1), as a single process that cannot listen.
  await primary.ready.catch(() => stop('a worker failed to start'));
}

main().catch((error: unknown) => {
  process.stderr.write(`The gateway failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
