import { buildApp } from './app.js';
import { ConfigError, describeConfig, loadConfig, type Config } from './config.js';
import { SANDBOX_AES_KEY_TEXT } from './sandbox/key.js';

/**
 * The process: read the configuration, start the sandbox backend when no real one is named,
 * listen, and shut down gracefully on SIGTERM/SIGINT (a second signal exits at once).
 */
async function main(): Promise<void> {
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

main().catch((error: unknown) => {
  process.stderr.write(`The gateway failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
