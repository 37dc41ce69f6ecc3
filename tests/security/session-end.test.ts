import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS, GATEWAY_PATHS, SESSION_ENDED_EVENT } from '../../server/contract/index.js';
import { sendJson } from '../support/fake-backend.js';
import { SseClient } from '../support/sse-client.js';
import { fakeLogInOver, logInOver, setCookieValues } from '../support/fake-session.js';
import { SAVE_PATH, callsSince, startRig, useSandboxGateway, type Rig } from './support/rig.js';

/**
 * Hole 3: logout only cleared cookies, so the old value replayed afterwards kept working and its
 * event streams went on. Logout now revokes the session; idle and old sessions end by themselves.
 */

const LOGOUT_PATH = '/manage/system/logout';

function logout(url: string, cookie: string): Promise<Response> {
  return fetch(`${url}${GATEWAY_PATHS.logout}`, { method: 'POST', headers: { cookie, origin: url } });
}

function save(url: string, cookie: string): Promise<Response> {
  return fetch(`${url}${SAVE_PATH}`, {
    method: 'POST',
    headers: { cookie, origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ word: 'after logout' }),
  });
}

describe('logout', () => {
  let rig: Rig;

  beforeAll(async () => {
    rig = await startRig({ BACKEND_LOGOUT_PATH: LOGOUT_PATH });
    rig.backend.route(`POST ${LOGOUT_PATH}`, (_call, res) => sendJson(res, { code: 200, msg: 'bye' }));
  });
  afterAll(async () => {
    await rig.close();
  });

  it('refuses the old cookie for every call afterwards, ends its streams, and tells the backend', async () => {
    const cookie = await fakeLogInOver(rig.url, { token: 'tok-leaving', userId: '7' });
    const other = await fakeLogInOver(rig.url, { token: 'tok-staying', userId: '8' });
    const tabs = [await SseClient.open(rig.port, cookie), await SseClient.open(rig.port, cookie)];
    const bystander = await SseClient.open(rig.port, other);
    for (const tab of [...tabs, bystander]) await tab.waitFor(() => tab.counts().length > 0, 'the first count');
    expect((await save(rig.url, cookie)).status).toBe(200);

    const before = rig.backend.calls.length;
    const out = await logout(rig.url, cookie);
    expect(out.status).toBe(204);
    expect(setCookieValues(out.headers.getSetCookie())).toEqual({ token: '', userId: '' });

    // The backend's logout call got the session's token, once.
    const told = callsSince(rig.backend, before, LOGOUT_PATH);
    expect(told).toHaveLength(1);
    expect(told[0]!.method).toBe('POST');
    expect(told[0]!.headers['w-token']).toBe('tok-leaving');
    expect(told[0]!.headers['w-userid']).toBe('7');

    // Both tabs of the session hear why and end; the other session's stream goes on.
    for (const tab of tabs) {
      await tab.waitFor(() => tab.ended, 'the stream of the logged-out session to end');
      const ended = tab.events.find((e) => e.event === SESSION_ENDED_EVENT);
      expect(JSON.parse(ended!.data)).toEqual({ reason: 'logged-out' });
    }
    expect(bystander.ended).toBe(false);
    bystander.close();

    // The old value, replayed: 401 NOT_LOGGED_IN in the envelope for every kind of call.
    const afterLogout = rig.backend.calls.length;
    const replayed = await save(rig.url, cookie);
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toEqual({ code: 401, msg: 'Not logged in', error: 'NOT_LOGGED_IN' });
    for (const path of [CALLS.permission, CALLS.count, GATEWAY_PATHS.errorLog]) {
      const answer = await fetch(`${rig.url}${path}`, { headers: { cookie } });
      expect(answer.status, path).toBe(401);
      expect(await answer.json()).toMatchObject({ error: 'NOT_LOGGED_IN' });
    }
    const reopened = await SseClient.open(rig.port, cookie);
    await reopened.waitFor(() => reopened.ended, 'the refusal');
    expect(reopened.status).toBe(401);
    expect(await (await fetch(`${rig.url}${GATEWAY_PATHS.session}`, { headers: { cookie } })).json()).toMatchObject({
      loggedIn: false,
    });
    expect(callsSince(rig.backend, afterLogout)).toEqual([]);

    // A second logout with the dead cookie does not call the backend again.
    expect((await logout(rig.url, cookie)).status).toBe(204);
    expect(callsSince(rig.backend, afterLogout)).toEqual([]);
  });

  it('gives every login a session of its own: logging one out leaves the other', async () => {
    const first = await fakeLogInOver(rig.url, { token: 'tok-twice', userId: '6' });
    const second = await fakeLogInOver(rig.url, { token: 'tok-twice', userId: '6' });
    expect(first).not.toBe(second);
    expect((await logout(rig.url, first)).status).toBe(204);
    expect((await save(rig.url, first)).status).toBe(401);
    expect((await save(rig.url, second)).status).toBe(200);
  });

  it('answers 204 even when the backend logout fails, and the session is still refused', async () => {
    rig.backend.route(`POST ${LOGOUT_PATH}`, (_call, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<h1>boom</h1>');
    });
    const cookie = await fakeLogInOver(rig.url, { token: 'tok-unlucky', userId: '9' });
    expect((await logout(rig.url, cookie)).status).toBe(204);
    expect((await save(rig.url, cookie)).status).toBe(401);
  });
});

describe('logout against the sandbox backend', () => {
  const sandboxGateway = useSandboxGateway();

  it('the replayed cookie no longer reads the sandbox', async () => {
    const gateway = sandboxGateway();
    const cookie = await logInOver(gateway.url, { account: 'admin', password: 'admin123' });
    const before = await fetch(`${gateway.url}${CALLS.permission}`, { headers: { cookie } });
    expect(((await before.json()) as { code: number }).code).toBe(200);
    expect((await logout(gateway.url, cookie)).status).toBe(204);
    const after = await fetch(`${gateway.url}${CALLS.permission}`, { headers: { cookie } });
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ error: 'NOT_LOGGED_IN' });
  });
});

describe('idle and old sessions', () => {
  let rig: Rig;
  let now = Date.UTC(2026, 0, 5, 9, 0, 0);
  const minutes = (n: number) => n * 60_000;

  beforeAll(async () => {
    rig = await startRig({ SESSION_IDLE_MINUTES: '30', SESSION_MAX_HOURS: '2' }, { now: () => now });
  });
  afterAll(async () => {
    await rig.close();
  });

  const sessionOf = async (cookie: string) =>
    (await (await fetch(`${rig.url}${GATEWAY_PATHS.session}`, { headers: { cookie } })).json()) as {
      loggedIn: boolean;
    };

  it('re-seals last-seen at most about once a minute, and an active session lives on past the idle time', async () => {
    let cookie = await fakeLogInOver(rig.url, { token: 'tok-active', userId: '1' });
    const quick = await fetch(`${rig.url}${CALLS.permission}`, { headers: { cookie } });
    expect(quick.headers.getSetCookie()).toEqual([]); // within the minute: no new cookie
    for (let i = 0; i < 4; i++) {
      now += minutes(20);
      const answer = await fetch(`${rig.url}${CALLS.permission}`, { headers: { cookie } });
      expect(answer.status).toBe(200);
      const refreshed = setCookieValues(answer.headers.getSetCookie()).token;
      expect(refreshed, 'a refreshed cookie').toBeTruthy();
      cookie = `token=${refreshed}`;
    }
    expect((await sessionOf(cookie)).loggedIn).toBe(true);
  });

  it('refuses a session idle past SESSION_IDLE_MINUTES without asking the backend', async () => {
    const cookie = await fakeLogInOver(rig.url, { token: 'tok-idle', userId: '2' });
    now += minutes(29);
    expect((await sessionOf(cookie)).loggedIn).toBe(true);
    now += minutes(2);
    const before = rig.backend.calls.length;
    const answer = await fetch(`${rig.url}${CALLS.permission}`, { headers: { cookie } });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ error: 'NOT_LOGGED_IN' });
    expect(callsSince(rig.backend, before)).toEqual([]);
  });

  it('refuses a session past SESSION_MAX_HOURS however busy it was', async () => {
    let cookie = await fakeLogInOver(rig.url, { token: 'tok-old', userId: '3' });
    for (let i = 0; i < 8; i++) {
      now += minutes(14);
      const answer = await fetch(`${rig.url}${CALLS.permission}`, { headers: { cookie } });
      const refreshed = setCookieValues(answer.headers.getSetCookie()).token;
      if (refreshed) cookie = `token=${refreshed}`;
    }
    // 112 minutes in, still fine; 2 hours after the login, over.
    expect((await sessionOf(cookie)).loggedIn).toBe(true);
    now += minutes(9);
    expect((await sessionOf(cookie)).loggedIn).toBe(false);
    expect((await fetch(`${rig.url}${CALLS.permission}`, { headers: { cookie } })).status).toBe(401);
  });

  it('sends a navigation with an expired session to the login form with the page it wanted', async () => {
    const cookie = await fakeLogInOver(rig.url, { token: 'tok-nav', userId: '4' });
    const fresh = await fetch(`${rig.url}/finance/OnlineRecharge`, {
      headers: { cookie, accept: 'text/html' },
      redirect: 'manual',
    });
    expect(fresh.status).toBe(200);
    now += minutes(31);
    const stale = await fetch(`${rig.url}/finance/OnlineRecharge`, {
      headers: { cookie, accept: 'text/html' },
      redirect: 'manual',
    });
    expect(stale.status).toBe(302);
    expect(stale.headers.get('location')).toBe('/login?redirect=%2Ffinance%2FOnlineRecharge');
  });
});
