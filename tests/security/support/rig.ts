import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { SANDBOX_AES_KEY_TEXT } from '../../../sandbox/key.js';
import { startSandbox, type StartedSandbox } from '../../../sandbox/start.js';
import { buildApp, type BuildAppOptions } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import { CALLS, WITHDRAWAL_REVIEW_PERMISSION } from '../../../server/contract/index.js';
import { sendJson, startFakeBackend, type FakeBackend, type ReceivedCall } from '../../support/fake-backend.js';
import { TEST_KEY_TEXT, writeFakeUi } from '../../server/support/gateway.js';
import { routeFakeLogin } from '../../support/fake-session.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The attacks' target: a started gateway (listening on a loopback port, so raw sockets can send
 * what no HTTP client would) in front of a recording fake backend, which answers the login, the
 * permission look-up, the withdrawal count and a data-changing call, and keeps every call it got.
 */
export interface Rig {
  app: FastifyInstance;
  port: number;
  url: string;
  backend: FakeBackend;
  close(): Promise<void>;
}

/** The data-changing call the attacks aim at. */
export const SAVE_PATH = '/manage/station/sensitiveWord/save';

export async function startRecordingBackend(): Promise<FakeBackend> {
  const backend = await startFakeBackend();
  routeFakeLogin(backend);
  backend.route(`POST ${SAVE_PATH}`, (_call, res) => sendJson(res, { code: 200, msg: 'saved' }));
  backend.route(`GET ${CALLS.permission}`, (_call, res) =>
    sendJson(res, { code: 200, msg: 'ok', data: [{ permission: WITHDRAWAL_REVIEW_PERMISSION }] }),
  );
  backend.route(`GET ${CALLS.withdrawalCount}`, (_call, res) => sendJson(res, { code: 200, msg: 'ok', data: 3 }));
  backend.route(`GET ${CALLS.siteConfig}`, (_call, res) =>
    sendJson(res, { code: 200, msg: 'ok', data: { chatRoomName: 'Sec', webIconPath: '' } }),
  );
  return backend;
}

export async function startGateway(
  backendUrl: string,
  env: Record<string, string> = {},
  options: Omit<BuildAppOptions, 'config'> = {},
): Promise<{ app: FastifyInstance; port: number; url: string }> {
  const config = loadConfig({
    CHAT_BACKEND_URL: backendUrl,
    RESPONSE_AES_KEY: TEST_KEY_TEXT,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sec-data-')),
    UI_DIR: writeFakeUi(),
    ...env,
  });
  const app = await buildApp({ logger: false, ...options, config });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  return { app, port, url: `http://127.0.0.1:${port}` };
}

export async function startRig(
  env: Record<string, string> = {},
  options: Omit<BuildAppOptions, 'config'> = {},
): Promise<Rig> {
  const backend = await startRecordingBackend();
  const gateway = await startGateway(backend.url, env, options);
  return {
    ...gateway,
    backend,
    async close() {
      await gateway.app.close();
      await backend.close();
    },
  };
}

/**
 * A gateway rig per test: call at the top of a file, before its own afterEach hooks (which run
 * first, so a test's sockets and streams are gone before its gateways close). Returns the starter.
 */
export function rigPerTest(): (env?: Record<string, string>) => Promise<Rig> {
  const rigs: Rig[] = [];
  afterEach(async () => {
    for (const rig of rigs.splice(0)) await rig.close();
  });
  return async (env = {}) => {
    const started = await startRig(env);
    rigs.push(started);
    return started;
  };
}

/**
 * A started gateway in front of the sandbox backend for the enclosing describe block: started
 * before its first test, closed after its last. Call inside the block; read it inside tests.
 */
export function useSandboxGateway(): () => { url: string; sandbox: StartedSandbox } {
  let sandbox: StartedSandbox | undefined;
  let gateway: Awaited<ReturnType<typeof startGateway>> | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, withdrawalTickMs: 0 });
    gateway = await startGateway(sandbox.url, { RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT });
  });
  afterAll(async () => {
    await gateway?.app.close();
    await sandbox?.close();
  });
  return () => {
    if (!gateway || !sandbox) throw new Error('the sandbox gateway is not running: use it inside a test');
    return { url: gateway.url, sandbox };
  };
}

/** The calls the backend got since `since` (an index into calls) whose path is `path`, or all of them. */
export function callsSince(backend: FakeBackend, since: number, path?: string): ReceivedCall[] {
  return backend.calls.slice(since).filter((c) => path === undefined || c.url.split('?')[0] === path);
}

export interface RawAnswer {
  /** 0 when the socket closed without an answer. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The whole text received. */
  raw: string;
}

function parseAnswer(raw: string): RawAnswer {
  // A 100 Continue may precede the final answer.
  let text = raw;
  while (/^HTTP\/1\.[01] 1\d\d /.test(text)) text = text.slice(text.indexOf('\r\n\r\n') + 4);
  const end = text.indexOf('\r\n\r\n');
  if (!text.startsWith('HTTP/') || end < 0) return { status: 0, headers: {}, body: '', raw };
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = text.slice(end + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    let decoded = '';
    let rest = body;
    for (;;) {
      const lineEnd = rest.indexOf('\r\n');
      const size = Number.parseInt(rest.slice(0, lineEnd), 16);
      if (!(size > 0)) break;
      decoded += rest.slice(lineEnd + 2, lineEnd + 2 + size);
      rest = rest.slice(lineEnd + 2 + size + 2);
    }
    body = decoded;
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body, raw };
}

/**
 * Sends bytes exactly as given over a new socket and resolves with what came back once the
 * server closes the socket or `timeoutMs` passes (then the socket is closed by us).
 */
export function rawRequest(
  port: number,
  text: string,
  timeoutMs = 5_000,
): Promise<RawAnswer & { closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let raw = '';
    let closedByServer = false;
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(text));
    socket.on('data', (chunk: string) => (raw += chunk));
    socket.on('end', () => (closedByServer = true));
    socket.on('error', () => (closedByServer = true));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ ...parseAnswer(raw), closedByServer });
    });
  });
}

/** A request's text: request line, headers (Host and Connection: close added), body with its length. */
export function httpText(requestLine: string, headers: Record<string, string> = {}, body?: string): string {
  const all: Record<string, string> = { host: '127.0.0.1', connection: 'close', ...headers };
  if (body !== undefined) all['content-length'] = String(Buffer.byteLength(body));
  const lines = Object.entries(all).map(([k, v]) => `${k}: ${v}`);
  return `${requestLine}\r\n${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
}

/** Opens a socket and sends `text` without ending it; resolves once connected. */
export function openSocket(
  port: number,
  text: string,
): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let raw = '';
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (raw += chunk));
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      socket.write(text);
      resolve({ socket, received: () => raw, closed });
    });
    socket.once('error', reject);
  });
}
