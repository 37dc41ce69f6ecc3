import { join } from 'node:path';
import { ConfigError, loadConfig, type Config } from './config.js';
import { startGateway } from './start-gateway.js';
import { SANDBOX_AES_KEY_TEXT } from './sandbox/key.js';

/**
 * The entry point: read the configuration and start the gateway in this process's role (single
 * process, cluster primary or worker). It is the one module that knows the sandbox backend: when
 * no CHAT_BACKEND_URL is set, the gateway runs on it, with its key as the default AES key.
 */
function configOrExit(): Config {
  try {
    return loadConfig(process.env, { sandboxKey: SANDBOX_AES_KEY_TEXT });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Invalid configuration: ${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
}

const config = configOrExit();
try {
  await startGateway(config, {
    // Loaded only in sandbox mode, so a production gateway never builds the simulator.
    // Its uploads are kept beside the gateway's own data, so a restart keeps what was uploaded.
    startSandbox: async () =>
      (await import('./sandbox/start.js')).startSandbox({
        port: 0,
        host: '127.0.0.1',
        dialect: config.sandboxDialect,
        dataDir: join(config.dataDir, 'sandbox'),
      }),
  });
} catch (error) {
  process.stderr.write(
    `The gateway failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
}
