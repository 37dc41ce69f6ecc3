import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS, GATEWAY_PATHS, SESSION_ENDED_EVENT } from '../../server/contract/index.js';
import { sendJson } from '../support/fake-backend.js';
import { SseClient } from '../support/sse-client.js';
import { FAKE_PASSWORD, fakeAccount, fakeLogInOver, setCookieValues } from '../support/fake-session.js';
import { SAVE_PATH, callsSince, startRig, type Rig } from './support/rig.js';

/**
 * Which session a request speaks for. Two holes: a second `token` cookie planted for a deeper path
 * (`Cookie: token=<attacker>; token=<victim>`) was served as the attacker, since the parser keeps
 * the first; and a failed login cleared the browser's cookie but left its session valid for any
 * copy of it.
 */

const LOGOUT_PATH = '/manage/system/logout';

function tokenOf(cookie: string): string {
  return /(?:^|; )token=([^;]*)/.exec(cookie)![1]!;
}

function save(url: string, cookie: string): Promise<Response> {
  return fetch(`${url}${SAVE_PATH}`, {
    method: 'POST',
    headers: { cookie, origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ word: 'shadowed' }),
  });
}

describe('session cookies', () => {
  let rig: Rig;

  beforeAll(async () => {
    rig = await startRig({ BACKEND_LOGOUT_PATH: LOGOUT_PATH });
    rig.backend.route(`POST ${LOGOUT_PATH}`, (_call, res) => sendJson(res, { code: 200, msg: 'bye' }));
  });
  afterAll(async () => {
    await rig.close();
  });

  it('refuses a request carrying two session cookies, whichever comes first, without calling the backend', async () => {
    const attacker = tokenOf(await fakeLogInOver(rig.url, { token: 'tok-attacker', userId: '66' }));
    const victim = tokenOf(await fakeLogInOver(rig.url, { token: 'tok-victim', userId: '7' }));
    const before = rig.backend.calls.length;
    for (const cookie of [`token=${attacker}; token=${victim}`, `token=${victim}; userId=7; token=${attacker}`]) {
      const saved = await save(rig.url, cookie);
      expect(saved.status).toBe(401);
      expect(await saved.json()).toMatchObject({ code: 401, error: 'NOT_LOGGED_IN' });
      for (const path of [CALLS.permission, GATEWAY_PATHS.errorLog, GATEWAY_PATHS.backendOffer, GATEWAY_PATHS.events]) {
        const answer = await fetch(`${rig.url}${path}`, { headers: { cookie } });
        expect(answer.status, path).toBe(401);
        expect(await answer.json()).toMatchObject({ error: 'NOT_LOGGED_IN' });
      }
      // The login too: it would otherwise end one of the two sessions on a failure.
      const login = await fetch(`${rig.url}${CALLS.login}`, {
        method: 'POST',
        headers: { cookie, origin: rig.url, 'content-type': 'application/json' },
        body: JSON.stringify({
          account: fakeAccount({ token: 'tok-x', userId: '9' }),
          password: FAKE_PASSWORD,
          code: '',
        }),
      });
      expect(login.status).toBe(401);
      // The UI still learns it has no session, and no cookie is cleared (ours would be the one to go).
      const session = await fetch(`${rig.url}${GATEWAY_PATHS.session}`, { headers: { cookie } });
      expect(await session.json()).toMatchObject({ loggedIn: false });
      expect(session.headers.getSetCookie()).toEqual([]);
    }
    expect(callsSince(rig.backend, before)).toEqual([]);
    // Each cookie alone is still its own session.
    expect((await save(rig.url, `token=${victim}`)).status).toBe(200);
    expect(callsSince(rig.backend, before, SAVE_PATH)[0]!.headers['w-token']).toBe('tok-victim');

    // Logging out with both ends both: clearing ours alone would leave the planted one in charge.
    const out = await fetch(`${rig.url}${GATEWAY_PATHS.logout}`, {
      method: 'POST',
      headers: { cookie: `token=${attacker}; token=${victim}`, origin: rig.url },
    });
    expect(out.status).toBe(204);
    expect((await save(rig.url, `token=${attacker}`)).status).toBe(401);
    expect((await save(rig.url, `token=${victim}`)).status).toBe(401);
  });

  it('ends the session a failed login arrives with, as a logout does', async () => {
    const cookie = await fakeLogInOver(rig.url, { token: 'tok-left-open', userId: '12' });
    const tab = await SseClient.open(rig.port, cookie);
    await tab.waitFor(() => tab.counts().length > 0, 'the first count');
    expect((await save(rig.url, cookie)).status).toBe(200);

    const before = rig.backend.calls.length;
    const failed = await fetch(`${rig.url}${CALLS.login}`, {
      method: 'POST',
      headers: { cookie, origin: rig.url, 'content-type': 'application/json' },
      body: JSON.stringify({
        account: fakeAccount({ token: 'tok-left-open', userId: '12' }),
        password: 'wrong',
        code: '',
      }),
    });
    expect(failed.status).toBe(200);
    expect(await failed.json()).toMatchObject({ code: 1001 });
    expect(setCookieValues(failed.headers.getSetCookie())).toEqual({ token: '', userId: '' });

    // The old value, kept by whoever copied it, is refused; its stream ends; the backend is told.
    const replayed = await save(rig.url, cookie);
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toMatchObject({ error: 'NOT_LOGGED_IN' });
    await tab.waitFor(() => tab.ended, 'the stream of the ended session to end');
    expect(JSON.parse(tab.events.find((e) => e.event === SESSION_ENDED_EVENT)!.data)).toEqual({ reason: 'logged-out' });
    const told = callsSince(rig.backend, before, LOGOUT_PATH);
    expect(told).toHaveLength(1);
    expect(told[0]!.headers['w-token']).toBe('tok-left-open');
    expect(callsSince(rig.backend, before, SAVE_PATH)).toEqual([]);
  });

  it('ends the session a successful login arrives with, and tells the backend only of another token', async () => {
    const first = await fakeLogInOver(rig.url, { token: 'tok-before', userId: '21' });
    const tab = await SseClient.open(rig.port, first);
    await tab.waitFor(() => tab.counts().length > 0, 'the first count');

    const before = rig.backend.calls.length;
    const login = await fetch(`${rig.url}${CALLS.login}`, {
      method: 'POST',
      headers: { cookie: first, origin: rig.url, 'content-type': 'application/json' },
      body: JSON.stringify({
        account: fakeAccount({ token: 'tok-after', userId: '22' }),
        password: FAKE_PASSWORD,
        code: '',
      }),
    });
    expect(await login.json()).toMatchObject({ code: 200 });
    const fresh = setCookieValues(login.headers.getSetCookie());
    // One new cookie, not a cleared one beside it.
    expect(fresh.token).toMatch(/.{20,}/);
    expect(tokenOf(first)).not.toBe(fresh.token);

    // The session the browser came with is over, for any copy of its cookie.
    expect((await save(rig.url, first)).status).toBe(401);
    await tab.waitFor(() => tab.ended, "the replaced session's stream to end");
    expect(callsSince(rig.backend, before, LOGOUT_PATH).map((c) => c.headers['w-token'])).toEqual(['tok-before']);
    expect((await save(rig.url, `token=${fresh.token}; userId=22`)).status).toBe(200);

    // A backend that hands the same token back: the gateway's old session ends, the token lives on.
    const again = `token=${fresh.token}; userId=22`;
    const sameTokenBefore = rig.backend.calls.length;
    const relogin = await fetch(`${rig.url}${CALLS.login}`, {
      method: 'POST',
      headers: { cookie: again, origin: rig.url, 'content-type': 'application/json' },
      body: JSON.stringify({
        account: fakeAccount({ token: 'tok-after', userId: '22' }),
        password: FAKE_PASSWORD,
        code: '',
      }),
    });
    expect(await relogin.json()).toMatchObject({ code: 200 });
    expect(callsSince(rig.backend, sameTokenBefore, LOGOUT_PATH)).toEqual([]);
    expect((await save(rig.url, again)).status).toBe(401);
    const renewed = setCookieValues(relogin.headers.getSetCookie()).token!;
    expect((await save(rig.url, `token=${renewed}; userId=22`)).status).toBe(200);
  });
});
