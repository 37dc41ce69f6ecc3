/**
 * The sandbox chat backend in its own process on a fixed port (PORT), so the soak can SIGKILL it
 * and start it again where the gateway expects it. IPC `slow` makes every answer wait `ms` first,
 * past the gateway's UPSTREAM_TIMEOUT_MS; `fast` ends that.
 */
import { buildSandbox } from '../../sandbox/app.js';
import { sendReady, serveRequests } from '../support/child.js';

const port = Number(process.env.PORT);
if (!Number.isInteger(port) || port <= 0) throw new Error('PORT must name the port to listen on');

let delayMs = 0;
const app = await buildSandbox({ withdrawalTickMs: 1_000 });
app.addHook('onRequest', async () => {
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
});

serveRequests({
  slow: (message) => {
    delayMs = Number(message.ms);
    return { delayMs };
  },
  fast: () => {
    delayMs = 0;
    return { delayMs };
  },
});

await app.listen({ port, host: '127.0.0.1' });
sendReady({ port, url: `http://127.0.0.1:${port}` });
