import { join } from 'node:path';
import type { SandboxDialect } from './app.js';
import { SANDBOX_AES_KEY_TEXT } from './key.js';
import { startSandbox } from './start.js';

/** `npm run sandbox`: the simulated chat backend alone, for working on the UI or the gateway against it. */
function port(): number {
  const raw = process.env.PORT?.trim();
  if (!raw) return 8090;
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    process.stderr.write(`Invalid configuration: PORT must be a port number, got "${raw}"\n`);
    process.exit(78);
  }
  return Number(raw);
}

function dialect(): SandboxDialect {
  const raw = (process.env.SANDBOX_DIALECT?.trim() || 'default').toLowerCase();
  if (raw !== 'default' && raw !== 'legacy' && raw !== 'openim' && raw !== 'shiku') {
    process.stderr.write(
      `Invalid configuration: SANDBOX_DIALECT must be one of default, legacy, openim, shiku, got "${raw}"\n`,
    );
    process.exit(78);
  }
  return raw;
}

const seedText = process.env.SANDBOX_SEED?.trim();
// SANDBOX_USERS: how many chat users to seed (default 3,000), e.g. 100000 to try the console at scale.
const usersText = process.env.SANDBOX_USERS?.trim();
const started = await startSandbox({
  port: port(),
  host: process.env.HOST?.trim() || '127.0.0.1',
  logger: true,
  dialect: dialect(),
  // DATA_DIR, as the gateway's: uploads are kept under its sandbox/ folder.
  dataDir: join(process.env.DATA_DIR?.trim() || './data', 'sandbox'),
  servicesOnNextPorts: true,
  ...(seedText && /^\d+$/.test(seedText) ? { seed: Number(seedText) } : {}),
  ...(usersText && /^\d{1,7}$/.test(usersText) && Number(usersText) > 0 ? { userCount: Number(usersText) } : {}),
});
started.app.log.info(
  { url: started.url, dialect: started.app.sandboxDialect },
  `sandbox chat backend (${started.app.sandboxDialect} dialect) listening on ${started.url} (accounts admin/admin123, operator/operator123 and checker/checker123)`,
);
for (const [name, url] of Object.entries(started.services)) {
  started.app.log.info({ service: name, url }, `its ${name} service listening on ${url}`);
}
// What a gateway (CHAT_BACKEND_URL=...) or the probe needs to read its encoded answers, on one
// line to paste; the IV and mode are the gateway's defaults, so they are not repeated.
process.stdout.write(`RESPONSE_AES_KEY=${SANDBOX_AES_KEY_TEXT}\n`);
// OpenIM's chat API, for the shipped map's service of that name (server/backend-map/bindings/openim-chat.json).
if (started.services.chat) process.stdout.write(`OPENIM_CHAT_API_URL=${started.services.chat}\n`);
if (started.services.im) process.stdout.write(`OPENIM_SERVER_API_URL=${started.services.im}\n`);

// SIGTERM or SIGINT closes the backend and exits 0; a second signal while it closes exits at once.
let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    started.app.log.info({ signal }, 'sandbox shutting down');
    started.close().then(
      () => process.exit(0),
      (error: unknown) => {
        started.app.log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  });
}
