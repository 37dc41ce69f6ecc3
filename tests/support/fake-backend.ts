import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCall {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type FakeHandler = (call: ReceivedCall, res: ServerResponse) => void | Promise<void>;

/**
 * A real HTTP backend for gateway tests, listening on a free loopback port. Routes are keyed by
 * "METHOD /path" (query ignored); every call is recorded so tests can see what reached it.
 */
export interface FakeBackend {
  url: string;
  port: number;
  calls: ReceivedCall[];
  route(key: string, handler: FakeHandler): void;
  close(): Promise<void>;
}

export function sendJson(res: ServerResponse, body: unknown, status = 200, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeBackend(port = 0): Promise<FakeBackend> {
  const routes = new Map<string, FakeHandler>();
  const calls: ReceivedCall[] = [];
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const call: ReceivedCall = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      body: await readBody(req),
    };
    calls.push(call);
    const handler = routes.get(`${call.method} ${call.url.split('?')[0]}`);
    if (!handler) return sendJson(res, { code: 404, msg: 'no such fake route' }, 404);
    try {
      await handler(call, res);
    } catch (error) {
      if (!res.headersSent) sendJson(res, { code: 500, msg: String(error) }, 500);
    }
  };
  // A request body that cannot be read (the client went away) ends the exchange instead of
  // rejecting where nobody listens.
  const server = createServer((req, res) => {
    serve(req, res).catch(() => res.destroy());
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    calls,
    route: (key, handler) => void routes.set(key, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
