/**
 * The gateway in a child process, configured from the environment like server/main.ts, listening
 * on a free loopback port. Differences from main.ts, for measuring: HOST/PORT are forced to
 * 127.0.0.1:0, BENCH_SANDBOX=1 starts the sandbox backend in this process (as main.ts does when
 * CHAT_BACKEND_URL is unset), and IPC requests read memory and force a GC (with --expose-gc).
 *
 * WORKERS > 1 runs server/main.ts's cluster mode instead: this process becomes the primary (the
 * same startPrimary() main.ts uses) and this file runs again in each worker, which serves exactly
 * as a worker of main.ts does. Memory and GC requests are then refused: they would only see the
 * primary.
 */
import { pino } from 'pino';
import { buildApp } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import { SANDBOX_AES_KEY_TEXT } from '../../../server/sandbox/key.js';
import { startPrimary } from '../../../server/cluster/primary.js';
import { isGatewayWorker, runWorker } from '../../../server/cluster/worker.js';
import { procStatusBytes, resetPeakRss } from '../lib/proc.js';
import { sendReady, serveRequests } from '../lib/child.js';

// Workers read the environment themselves: they must listen where the primary measures.
process.env.HOST = '127.0.0.1';
process.env.PORT = '0';

if (isGatewayWorker()) {
  await runWorker();
} else if (loadConfig(process.env, { sandboxKey: SANDBOX_AES_KEY_TEXT }).workers > 1) {
  await clusterGateway();
} else {
  await singleGateway();
}

/** WORKERS > 1: every worker listens on the same port 0 socket, which the cluster shares. */
async function clusterGateway(): Promise<void> {
  if (process.env.BENCH_SANDBOX === '1') throw new Error('BENCH_SANDBOX=1 is for one process; leave CHAT_BACKEND_URL unset for the cluster sandbox');
  const config = loadConfig(process.env, { sandboxKey: SANDBOX_AES_KEY_TEXT });
  const log = pino({ level: config.logLevel });
  const primary = await startPrimary({ config, log });
  const refused = () => {
    throw new Error('memory figures are per process; not offered with WORKERS > 1');
  };
  let closing: Promise<number> | null = null;
  const close = () => (closing ??= primary.shutdown('close'));
  serveRequests({
    memory: refused,
    gc: refused,
    'reset-peak': refused,
    close: async () => {
      const code = await close();
      setImmediate(() => process.exit(code));
      return {};
    },
  });
  process.on('SIGTERM', () => {
    if (closing) {
      primary.killWorkers();
      process.exit(1);
    }
    void close().then((code) => process.exit(code));
  });
  const { port } = await primary.ready;
  sendReady({ port, url: `http://127.0.0.1:${port}`, backend: config.chatBackendUrl, workers: config.workers });
}

async function singleGateway(): Promise<void> {
  const useSandbox = process.env.BENCH_SANDBOX === '1';
  let config = loadConfig({ ...process.env, HOST: '127.0.0.1', PORT: '0' }, { sandboxKey: SANDBOX_AES_KEY_TEXT });
  let stopSandbox: (() => Promise<void>) | null = null;
  if (useSandbox) {
    const { startSandbox } = await import('../../../server/sandbox/start.js');
    const started = await startSandbox({ port: 0, host: '127.0.0.1' });
    stopSandbox = started.close;
    config = { ...config, chatBackendUrl: started.url, fileServerUrl: started.url };
  }

  const app = await buildApp({ config, sandbox: useSandbox, processMetrics: false });

  function memory(): Record<string, number | null> {
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
      if (!gc) throw new Error('start the gateway child with --expose-gc');
      // Two passes with a turn of the event loop between: finalizers of the first free more.
      gc();
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      return memory();
    },
    'reset-peak': () => ({ ok: resetPeakRss('self') }),
    close: async () => {
      await app.close();
      if (stopSandbox) await stopSandbox();
      setImmediate(() => process.exit(0));
      return {};
    },
  });

  let stopping = false;
  process.on('SIGTERM', () => {
    if (stopping) process.exit(1);
    stopping = true;
    app.shuttingDown = true;
    void app
      .close()
      .then(() => stopSandbox?.())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  sendReady({ port, url: `http://127.0.0.1:${port}`, backend: config.chatBackendUrl });
}
