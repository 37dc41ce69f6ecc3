import { CALLS, WITHDRAWAL_REVIEW_PERMISSION } from '../../../server/contract/index.js';
import { PERMISSIONS } from '../../../server/contract/permissions.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../../support/fake-backend.js';
import { fakeLogInOver, routeFakeLogin } from '../../support/fake-session.js';
import { NodeProcess, tempDir, waitHealthy } from '../../support/processes.js';
import { REPO_ROOT } from '../../support/paths.js';
import { freePort } from '../../support/ports.js';
import { expect } from 'vitest';
import { waitUntil } from '../../support/wait.js';
import { builtGatewayArgs } from './built-gateway.js';

/** The backend session the held backend's login hands out. */
export const HELD_SESSION = { token: 'held-token', userId: '7' } as const;

/** Logs in through the gateway at `baseUrl` (in front of a held backend); returns the Cookie header. */
export function logInHeld(baseUrl: string): Promise<string> {
  return fakeLogInOver(baseUrl, HELD_SESSION);
}

/**
 * A fake backend for shutdown tests: site config for readiness, the withdrawal permission and
 * count for an event stream, and GET /manage/slow, held open until the test releases it, so
 * "in flight during shutdown" is a fact of the test, not a guess about timing.
 */
export interface HeldBackend {
  backend: FakeBackend;
  /** Lets the held /manage/slow call answer. */
  release(): void;
  slowAnswered(): boolean;
}

export async function startHeldBackend(): Promise<HeldBackend> {
  const backend = await startFakeBackend();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let answered = false;
  routeFakeLogin(backend);
  backend.route(`GET ${CALLS.siteConfig}`, (_call, res) =>
    sendJson(res, { code: 200, msg: 'ok', data: { chatRoomName: 'ops' } }),
  );
  // The session is an administrator who reads everyone's UI errors too.
  backend.route(`GET ${CALLS.permission}`, (_call, res) =>
    sendJson(res, {
      code: 200,
      msg: 'ok',
      data: [{ permission: WITHDRAWAL_REVIEW_PERMISSION }, { permission: PERMISSIONS.adminUser }],
    }),
  );
  backend.route(`GET ${CALLS.withdrawalCount}`, (_call, res) => sendJson(res, { code: 200, msg: 'ok', data: 4 }));
  backend.route('GET /manage/slow', async (_call, res) => {
    await released;
    answered = true;
    sendJson(res, { code: 200, msg: 'ok', data: { slow: true } });
  });
  return { backend, release, slowAnswered: () => answered };
}

/**
 * Starts GET /manage/slow through the gateway and resolves once the backend holds it, i.e. it is
 * in flight. The answer comes back wrapped: an async function returning a bare promise would
 * wait for it.
 */
export async function startSlowCall(
  held: HeldBackend,
  baseUrl: string,
  cookie: string,
): Promise<{ answer: Promise<Response> }> {
  const call = fetch(`${baseUrl}/manage/slow`, { headers: { cookie } });
  // Keep a rejection from surfacing as unhandled before the test awaits it.
  call.catch(() => {});
  await waitUntil(
    () => held.backend.calls.some((c) => c.url === '/manage/slow'),
    'the slow call to reach the backend',
    {
      timeoutMs: 30_000,
      intervalMs: 20,
    },
  );
  return { answer: call };
}

/** The shipped gateway bundle (what the image runs) as a process of its own. */
export function gatewayProcess(env: Record<string, string>): NodeProcess {
  return new NodeProcess(builtGatewayArgs(), { cwd: REPO_ROOT, env });
}

export interface HeldRig extends HeldBackend {
  gateway: NodeProcess;
  port: number;
  baseUrl: string;
  dataDir: string;
  /** The session's cookies, as the gateway set them at login. */
  cookie: string;
}

/**
 * A gateway process in front of a held backend, answering /healthz, and a session logged in
 * through it; `defer` registers what stops
 * them (cleanupAfterEach). `env` adds to the gateway's environment (WORKERS, say).
 */
export async function startHeldRig(
  defer: (cleanup: () => Promise<void>) => void,
  env: Record<string, string> = {},
  startTimeoutMs = 30_000,
): Promise<HeldRig> {
  const held = await startHeldBackend();
  const { backend } = held;
  defer(() => backend.close());

  const port = await freePort();
  const dataDir = tempDir('ops-gateway-data-');
  const gateway = gatewayProcess({
    CHAT_BACKEND_URL: backend.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    UI_DIR: tempDir('ops-gateway-ui-'),
    LOG_LEVEL: 'info',
    SHUTDOWN_TIMEOUT_MS: '60000',
    ...env,
  });
  defer(async () => {
    held.release();
    await gateway.stop();
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitHealthy(gateway, baseUrl, startTimeoutMs);
  return { ...held, gateway, port, baseUrl, dataDir, cookie: await logInHeld(baseUrl) };
}

/** Resolves once the gateway has logged the start of its shutdown. */
export function shutdownBegun(rig: HeldRig): Promise<void> {
  return rig.gateway.waitFor(
    () => rig.gateway.logLines().some((l) => String(l.msg).startsWith('shutting down')),
    'the shutdown to begin',
  );
}

/**
 * A second SIGTERM while a call is held: the process exits at once with a failure code, without
 * waiting for the call, which the client then sees broken.
 */
export async function expectSecondSignalExitsAtOnce(rig: HeldRig, slow: { answer: Promise<Response> }): Promise<void> {
  rig.gateway.signal('SIGTERM');
  await shutdownBegun(rig);
  rig.gateway.signal('SIGTERM');

  const exit = await rig.gateway.exited;
  expect(exit.code).not.toBe(0);
  expect(exit.code).not.toBeNull();
  // The backend still holds the call: the process did not wait for it.
  expect(rig.slowAnswered()).toBe(false);
  await expect(slow.answer).rejects.toThrow();
  expect(rig.gateway.logLines().map((l) => l.msg)).toContain('second signal: exiting at once');
}
