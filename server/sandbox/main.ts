import { exitGracefully } from '../lib/lifecycle.js';
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

const seedText = process.env.SANDBOX_SEED?.trim();
// SANDBOX_USERS: how many chat users to seed (default 3,000), e.g. 100000 to try the console at scale.
const usersText = process.env.SANDBOX_USERS?.trim();
const started = await startSandbox({
  port: port(),
  host: process.env.HOST?.trim() || '127.0.0.1',
  logger: true,
  ...(seedText && /^\d+$/.test(seedText) ? { seed: Number(seedText) } : {}),
  ...(usersText && /^\d{1,7}$/.test(usersText) && Number(usersText) > 0 ? { userCount: Number(usersText) } : {}),
});
started.app.log.info({ url: started.url }, `sandbox chat backend listening on ${started.url} (accounts admin/admin123 and operator/operator123)`);

exitGracefully({
  log: started.app.log,
  shutdown: async (signal) => {
    started.app.log.info({ signal }, 'sandbox shutting down');
    await started.close();
    return 0;
  },
});
