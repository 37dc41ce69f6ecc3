import { CALLS, WITHDRAWAL_REVIEW_PERMISSION } from '../../../server/contract/index.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../../server/support/fake-backend.js';
import { waitUntil } from '../../server/support/wait.js';

/**
 * A fake backend for shutdown tests: a login that answers any account with a session, site config
 * for readiness, the withdrawal permission and count for an event stream, and GET /manage/slow, held open until the test releases it, so
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
  backend.route(`POST ${CALLS.login}`, (_call, res) => sendJson(res, { code: 200, msg: 'ok', data: { token: 'held-token', userId: 7 } }));
  backend.route(`GET ${CALLS.siteConfig}`, (_call, res) => sendJson(res, { code: 200, msg: 'ok', data: { chatRoomName: 'ops' } }));
  backend.route(`GET ${CALLS.permission}`, (_call, res) =>
    sendJson(res, { code: 200, msg: 'ok', data: [{ permission: WITHDRAWAL_REVIEW_PERMISSION }] }),
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
export async function startSlowCall(held: HeldBackend, baseUrl: string, cookie: string): Promise<{ answer: Promise<Response> }> {
  const call = fetch(`${baseUrl}/manage/slow`, { headers: { cookie } });
  // Keep a rejection from surfacing as unhandled before the test awaits it.
  call.catch(() => {});
  await waitUntil(() => held.backend.calls.some((c) => c.url === '/manage/slow'), 'the slow call to reach the backend', {
    timeoutMs: 30_000,
    intervalMs: 20,
  });
  return { answer: call };
}
