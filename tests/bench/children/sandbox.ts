/**
 * The sandbox chat backend alone in a child process, seeded with BENCH_SANDBOX_USERS chat users
 * (default: the sandbox's own default), on a free loopback port. The ui scenario's list bench puts
 * the gateway child in front of it (CHAT_BACKEND_URL = this url, RESPONSE_AES_KEY = the sandbox
 * key), so the 100,000-user store lives in its own process as a real backend would.
 */
import { exitGracefully } from '../../../server/lib/lifecycle.js';
import { startSandbox } from '../../../sandbox/start.js';
import { sendReady, serveRequests } from '../../support/child.js';

const usersText = process.env.BENCH_SANDBOX_USERS?.trim() ?? '';
if (usersText !== '' && !/^\d{1,7}$/.test(usersText)) {
  process.stderr.write(`BENCH_SANDBOX_USERS must be a whole number, got "${usersText}"\n`);
  process.exit(2);
}
const userCount = usersText === '' ? undefined : Number(usersText);

const seededAt = performance.now();
const started = await startSandbox({ port: 0, host: '127.0.0.1', ...(userCount ? { userCount } : {}) });
const seedMs = performance.now() - seededAt;

serveRequests({
  memory: () => ({ rss: process.memoryUsage().rss, heapUsed: process.memoryUsage().heapUsed }),
  close: async () => {
    await started.close();
    setImmediate(() => process.exit(0));
    return {};
  },
});

exitGracefully({
  log: started.app.log,
  shutdown: async () => {
    await started.close();
    return 0;
  },
});

sendReady({ url: started.url, userCount: userCount ?? null, seedMs });
