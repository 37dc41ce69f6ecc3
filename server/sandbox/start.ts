import type { AddressInfo } from 'node:net';
import { buildSandbox, type SandboxApp, type SandboxOptions } from './app.js';

export interface StartSandboxOptions extends SandboxOptions {
  port?: number;
  host?: string;
}

export interface StartedSandbox {
  /** Base URL, e.g. http://127.0.0.1:40123 (no trailing slash). */
  url: string;
  app: SandboxApp;
  close(): Promise<void>;
}

/** Builds the sandbox backend and listens: in-process behind the gateway, or alone for tests. */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<StartedSandbox> {
  const { port = 0, host = '127.0.0.1', ...rest } = options;
  const app = await buildSandbox(rest);
  await app.listen({ port, host });
  const address = app.server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { url: `http://${shownHost}:${address.port}`, app, close: () => app.close() };
}
