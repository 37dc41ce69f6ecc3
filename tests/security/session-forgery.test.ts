import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS, GATEWAY_PATHS, PERMISSIONS, WITHDRAWAL_REVIEW_PERMISSION } from '../../server/contract/index.js';
import { sendJson } from '../support/fake-backend.js';
import { SessionSealer } from '../../server/session/seal.js';
import { SseClient } from '../support/sse-client.js';
import { cookieHeader, fakeLogInOver } from '../support/fake-session.js';
import { SAVE_PATH, callsSince, startRig, type Rig } from './support/rig.js';

/**
 * Hole 1: any cookie of the right shape was a session. The gateway now takes only the `token`
 * cookie it sealed itself; anything else is refused before any backend call.
 */

const SECRET = 'security-suite-session-secret-0123456789abcdef';

describe('a cookie the gateway did not seal', () => {
  let rig: Rig;
  let real: string;

  beforeAll(async () => {
    rig = await startRig({ SESSION_SECRET: SECRET });
    // The real session may read anonymous error-log entries (ERROR_LOG_ADMIN_PERMISSION).
    rig.backend.route(`GET ${CALLS.permission}`, (_call, res) =>
      sendJson(res, {
        code: 200,
        msg: 'ok',
        data: [{ permission: WITHDRAWAL_REVIEW_PERMISSION }, { permission: PERMISSIONS.adminUser }],
      }),
    );
    real = await fakeLogInOver(rig.url, { token: 'tok-real', userId: '7' });
  });
  afterAll(async () => {
    await rig.close();
  });

  const sealedElsewhere = new SessionSealer(Buffer.from('another-gateway-secret-0123456789abcdef')).seal({
    token: 'tok-real',
    userId: '7',
    id: 'x',
    issuedAt: Date.now(),
    lastSeen: Date.now(),
  });

  const forgeries: Array<[string, string]> = [
    ['an old-format cookie (the token in the clear)', 'token=anything; userId=999'],
    ['a cookie sealed under another SESSION_SECRET', `token=${sealedElsewhere}; userId=7`],
    ['a sealed-looking value with one character changed', ''],
    ['a userId cookie alone', 'userId=999'],
  ];

  beforeAll(() => {
    const token = /token=([^;]+)/.exec(real)![1]!;
    const flipped = token.slice(0, -3) + (token.at(-3) === 'A' ? 'B' : 'A') + token.slice(-2);
    forgeries[2]![1] = `token=${flipped}; userId=7`;
  });

  it.each(forgeries.map(([label], index) => [label, index] as const))(
    'refuses %s: error log, session, events and /manage, with no backend call',
    async (_label, index) => {
      const [, cookie] = forgeries[index]!;
      const before = rig.backend.calls.length;
      const origin = { origin: rig.url };

      const read = await fetch(`${rig.url}${GATEWAY_PATHS.errorLog}`, { headers: { cookie } });
      expect(read.status).toBe(401);
      expect(await read.json()).toMatchObject({ code: 401, error: 'NOT_LOGGED_IN' });

      const wipe = await fetch(`${rig.url}${GATEWAY_PATHS.errorLog}`, {
        method: 'DELETE',
        headers: { cookie, ...origin },
      });
      expect(wipe.status).toBe(401);
      expect(await wipe.json()).toMatchObject({ code: 401, error: 'NOT_LOGGED_IN' });

      const session = await fetch(`${rig.url}${GATEWAY_PATHS.session}`, { headers: { cookie } });
      expect(await session.json()).toMatchObject({ loggedIn: false, userId: null });

      const stream = await SseClient.open(rig.port, cookie);
      await stream.waitFor(() => stream.ended, 'the refusal');
      expect(stream.status).toBe(401);
      expect(JSON.parse(stream.body)).toMatchObject({ error: 'NOT_LOGGED_IN' });

      const save = await fetch(`${rig.url}${SAVE_PATH}`, {
        method: 'POST',
        headers: { cookie, ...origin, 'content-type': 'application/json' },
        body: JSON.stringify({ word: 'forged' }),
      });
      expect(save.status).toBe(401);
      expect(await save.json()).toMatchObject({ code: 401, error: 'NOT_LOGGED_IN' });

      const permission = await fetch(`${rig.url}${CALLS.permission}`, { headers: { cookie } });
      expect(permission.status).toBe(401);

      // Refused without asking the backend, not even once per cache period.
      expect(callsSince(rig.backend, before)).toEqual([]);
    },
  );

  it('credits an error-log entry posted with a forged cookie to nobody', async () => {
    const posted = await fetch(`${rig.url}${GATEWAY_PATHS.errorLog}`, {
      method: 'POST',
      headers: { cookie: 'token=anything; userId=999', origin: rig.url, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'forged author', url: '/x' }),
    });
    expect(posted.status).toBe(200);
    const list = await fetch(`${rig.url}${GATEWAY_PATHS.errorLog}?keyword=forged%20author`, {
      headers: { cookie: real },
    });
    const entries = ((await list.json()) as { data: { list: Array<{ userId: string | null }> } }).data.list;
    expect(entries).toHaveLength(1);
    expect(entries[0]!.userId).toBeNull();
  });

  it('believes the sealed user id, not the userId cookie beside it', async () => {
    const token = /token=([^;]+)/.exec(real)![1]!;
    const cookie = cookieHeader({ token, userId: '999' });
    const session = await fetch(`${rig.url}${GATEWAY_PATHS.session}`, { headers: { cookie } });
    expect(await session.json()).toMatchObject({ loggedIn: true, userId: '7' });

    const before = rig.backend.calls.length;
    const save = await fetch(`${rig.url}${SAVE_PATH}`, {
      method: 'POST',
      headers: { cookie, origin: rig.url, 'content-type': 'application/json' },
      body: JSON.stringify({ word: 'hello' }),
    });
    expect(save.status).toBe(200);
    const [call] = callsSince(rig.backend, before, SAVE_PATH);
    expect(call!.headers['w-userid']).toBe('7');
    expect(call!.headers['w-token']).toBe('tok-real');
    expect(call!.headers.cookie).toBeUndefined();
  });

  it('reads, wipes and streams for the session it sealed', async () => {
    expect((await fetch(`${rig.url}${GATEWAY_PATHS.errorLog}`, { headers: { cookie: real } })).status).toBe(200);
    const stream = await SseClient.open(rig.port, real);
    try {
      expect(stream.status).toBe(200);
      await stream.waitFor(() => stream.counts().length > 0, 'the first count');
    } finally {
      stream.close();
    }
  });
});
