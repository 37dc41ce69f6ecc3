/**
 * The gateway in a child process, started as server/main.ts starts it (startGateway, the sandbox
 * backend when CHAT_BACKEND_URL is unset, cluster mode with WORKERS > 1), listening on a free
 * loopback port. Differences from main.ts, for measuring: HOST/PORT are forced to 127.0.0.1:0, no
 * process metrics are collected, the per-client caps are lifted unless a run sets them, and IPC
 * requests read memory and force a GC (with --expose-gc).
 * With WORKERS > 1 this process is the primary and this file runs again in each worker; memory and
 * GC requests are then refused: they would only see the primary.
 */
import { loadConfig } from '../../../server/config.js';
import { SANDBOX_AES_KEY_TEXT } from '../../../sandbox/key.js';
import { startSandbox } from '../../../sandbox/start.js';
import { startGateway } from '../../../server/start-gateway.js';
import { isGatewayWorker } from '../../../server/cluster/worker.js';
import { procStatusBytes, resetPeakRss } from '../lib/proc.js';
import { sendReady, serveRequests } from '../../support/child.js';

// Workers read the environment too: they must listen where the primary measures.
process.env.HOST = '127.0.0.1';
process.env.PORT = '0';
// A run drives thousands of streams and saturating calls from one address, one account and a few
// sessions: the caps that keep one client of a real console from starving the others would be
// what it measured. (Unset in the environment only: a run that sets one keeps its value.)
process.env.MAX_CONNECTIONS_PER_IP ??= process.env.MAX_CONNECTIONS ?? '1000000';
process.env.EVENTS_MAX_PER_ACCOUNT ??= '1000000';
process.env.EVENTS_MAX_TOTAL ??= '1000000';
process.env.MAX_INFLIGHT_PER_SESSION ??= '100000';

const config = loadConfig(process.env, { sandboxKey: SANDBOX_AES_KEY_TEXT });
const gateway = await startGateway(config, {
  startSandbox: () => startSandbox({ port: 0, host: '127.0.0.1' }),
  processMetrics: false,
});

if (!isGatewayWorker()) {
  function memory(): Record<string, number | null> {
    if (!gateway.app) throw new Error('memory figures are per process; not offered with WORKERS > 1');
    const usage = process.memoryUsage();
    return {
      rss: usage.rss,
      heapUsed: usage.heapUsed,
      external: usage.external,
      arrayBuffers: usage.arrayBuffers,
      hwm: procStatusBytes('self', 'VmHWM'),
    };
  }
  const gc = (globalThis as { gc?: () => void }).gc;

  serveRequests({
    memory: () => memory(),
    gc: async () => {
      memory();
      if (!gc) throw new Error('start the gateway child with --expose-gc');
      // Two passes with a turn of the event loop between: finalizers of the first free more.
      gc();
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      return memory();
    },
    'reset-peak': () => {
      memory();
      return { ok: resetPeakRss('self') };
    },
  });
  const backend = gateway.app?.config.chatBackendUrl ?? config.chatBackendUrl;
  sendReady({ port: gateway.port, url: `http://127.0.0.1:${gateway.port}`, backend, workers: config.workers });
}
