// Loaded before the shipped gateway bundle (`node --expose-gc --import tests/soak/gateway-probe.mjs
// dist/server/main.js`), so the soak measures the very program the image runs: it answers the
// soak's IPC requests for the process's memory and a forced GC, and says it is ready once the
// gateway answers /healthz on PORT. Plain JavaScript: nothing but Node runs in that process.
import { readFileSync } from 'node:fs';

const port = Number(process.env.PORT);

function memory() {
  const usage = process.memoryUsage();
  const status = readFileSync('/proc/self/status', 'utf8');
  const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  return {
    rss: usage.rss,
    heapUsed: usage.heapUsed,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    hwm: hwm ? Number(hwm[1]) * 1024 : null,
  };
}

async function gcTwice() {
  if (typeof globalThis.gc !== 'function') throw new Error('start the gateway with --expose-gc');
  // Two passes with a turn of the event loop between: finalizers of the first free more.
  globalThis.gc();
  await new Promise((resolve) => setImmediate(resolve));
  globalThis.gc();
  return memory();
}

const handlers = { memory: async () => memory(), gc: gcTwice };

process.on('message', (message) => {
  const handler = handlers[message?.type];
  const reply = (body) => {
    if (process.connected) process.send?.({ ...body, id: message.id });
  };
  if (!handler) return reply({ error: `no handler for ${String(message?.type)}` });
  handler().then(reply, (error) => reply({ error: error instanceof Error ? error.message : String(error) }));
});
// A parent that dies without stopping us must not leave the gateway running.
process.on('disconnect', () => process.exit(0));

async function announceWhenHealthy() {
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  process.send?.({ type: 'ready', port, url: `http://127.0.0.1:${port}` });
}
void announceWhenHealthy();
