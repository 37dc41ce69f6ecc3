import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildSandbox, type SandboxApp, type SandboxOptions } from './app.js';

// The gateway loads this module alone (its own bundle, dist/server/sandbox-start.js) and needs the
// key beside the start.
export { SANDBOX_AES_KEY_TEXT } from './key.js';

export interface StartSandboxOptions extends SandboxOptions {
  port?: number;
  host?: string;
  /**
   * Where the backend's further services listen (OpenIM's chat API): the port after `port`
   * (`port` 10009: 10010), or any free port when `port` is 0 or this is false.
   */
  servicesOnNextPorts?: boolean;
}

export interface StartedSandbox {
  /** Base URL, e.g. http://127.0.0.1:40123 (no trailing slash). */
  url: string;
  /** The base URLs of the backend's further services by name (OpenIM's `chat`); empty for the others. */
  services: Record<string, string>;
  app: SandboxApp;
  close(): Promise<void>;
}

async function listen(app: FastifyInstance, port: number, host: string): Promise<string> {
  await app.listen({ port, host });
  const address = app.server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${shownHost}:${address.port}`;
}

/** Builds the sandbox backend and listens: in-process behind the gateway, or alone for tests. */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<StartedSandbox> {
  const { port = 0, host = '127.0.0.1', servicesOnNextPorts = false, ...rest } = options;
  const app = await buildSandbox(rest);
  const url = await listen(app, port, host);
  const services: Record<string, string> = {};
  let next = port;
  for (const [name, service] of Object.entries(app.sandboxServices)) {
    next += 1;
    services[name] = await listen(service, servicesOnNextPorts && port !== 0 ? next : 0, host);
  }
  return { url, services, app, close: () => app.close() };
}
