import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, type Config } from './config.js';
import { GATEWAY_ERRORS } from './errors.js';
import { startGateway } from './start-gateway.js';

/**
 * The entry point: read the configuration and start the gateway in this process's role (single
 * process, cluster primary or worker). It is the one module that knows the sandbox backend: when
 * no CHAT_BACKEND_URL is set, the gateway runs on it, with its key as the default AES key.
 */

type SandboxModule = typeof import('../sandbox/start.js');

/**
 * The sandbox is loaded by a path computed at run time, which esbuild does not follow: the
 * gateway's bundle holds none of it, and a build without it (SANDBOX=0) leaves the file out. Run
 * from source (tsx), the entry is the sandbox's own source.
 */
const SANDBOX_ENTRY = new URL(
  import.meta.url.endsWith('.ts') ? '../sandbox/start.ts' : './sandbox-start.js',
  import.meta.url,
);

function exitConfig(message: string): never {
  process.stderr.write(`Invalid configuration: ${message}\n`);
  process.exit(78); // EX_CONFIG
}

/** The sandbox module in sandbox mode (no CHAT_BACKEND_URL), else null; exits when it was not built. */
async function sandboxOrExit(): Promise<SandboxModule | null> {
  if (process.env.CHAT_BACKEND_URL?.trim()) return null;
  if (!existsSync(fileURLToPath(SANDBOX_ENTRY))) {
    exitConfig(`SANDBOX_NOT_BUILT: ${GATEWAY_ERRORS.SANDBOX_NOT_BUILT.msg}`);
  }
  return (await import(SANDBOX_ENTRY.href)) as SandboxModule;
}

function configOrExit(sandbox: SandboxModule | null): Config {
  try {
    return loadConfig(process.env, sandbox ? { sandboxKey: sandbox.SANDBOX_AES_KEY_TEXT } : {});
  } catch (error) {
    if (error instanceof ConfigError) exitConfig(error.message);
    throw error;
  }
}

const sandbox = await sandboxOrExit();
const config = configOrExit(sandbox);
try {
  await startGateway(config, {
    // Its uploads are kept beside the gateway's own data, so a restart keeps what was uploaded.
    startSandbox: async () => {
      // The configuration sends the gateway to the sandbox only when no CHAT_BACKEND_URL is set.
      if (!sandbox) throw new Error('the sandbox backend was asked for with CHAT_BACKEND_URL set');
      return sandbox.startSandbox({
        port: 0,
        host: '127.0.0.1',
        dialect: config.sandboxDialect,
        dataDir: join(config.dataDir, 'sandbox'),
      });
    },
  });
} catch (error) {
  process.stderr.write(
    `The gateway failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
}
