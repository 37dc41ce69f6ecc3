import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A port nobody listens on right now, for a process that reads its port from the environment or
 * must come back on the same one. Another process could take it in between, which on a test
 * machine is rare enough to accept.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
