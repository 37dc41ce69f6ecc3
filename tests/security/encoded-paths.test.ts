import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS } from '../../server/contract/index.js';
import { fakeLogInOver } from '../support/fake-session.js';
import { SAVE_PATH, callsSince, httpText, rawRequest, startRig, type Rig } from './support/rig.js';

/**
 * Holes 2 and 7: the same-origin rule read the raw URL while the router decoded it, so an
 * encoded spelling of /manage (or an absolute-form target) reached the backend cross-site; and a
 * dot-segment spelling of the login path slipped past the login handling, whose answer then
 * carried the token. Sent over raw sockets: clients normalise such paths before sending.
 */

describe('spellings of a path', () => {
  let rig: Rig;
  let cookie: string;

  beforeAll(async () => {
    rig = await startRig();
    cookie = await fakeLogInOver(rig.url, { token: 'tok-victim', userId: '7' });
  });
  afterAll(async () => {
    await rig.close();
  });

  const body = JSON.stringify({ word: 'pwned' });
  const json = { 'content-type': 'application/json' };

  it.each([
    ['/%6danage/station/sensitiveWord/save', { origin: 'https://evil.example' }],
    ['/m%61nage/station/sensitiveWord/save', { origin: 'https://evil.example' }],
    ['/%6Danage/station/sensitiveWord/save', {}],
    ['/manage/station/sensitiveWord/save', {}],
    ['/manage/station/sensitiveWord/save', { origin: 'https://evil.example' }],
    ['/%61pi/logout', { origin: 'https://evil.example' }],
    ['/%61pi/error-log', {}],
  ])('refuses a cross-site or origin-less POST %s before it reaches the backend', async (path, headers) => {
    const before = rig.backend.calls.length;
    const answer = await rawRequest(rig.port, httpText(`POST ${path} HTTP/1.1`, { cookie, ...json, ...headers }, body));
    expect([400, 403]).toContain(answer.status);
    expect(JSON.parse(answer.body)).toMatchObject({
      code: answer.status,
      error: answer.status === 400 ? 'BAD_REQUEST' : 'CROSS_ORIGIN',
    });
    expect(callsSince(rig.backend, before)).toEqual([]);
  });

  it('refuses an unsafe method cross-site on any path, routed or not', async () => {
    const before = rig.backend.calls.length;
    for (const [method, path] of [
      ['PUT', '/manage/x'],
      ['PATCH', '/api/session'],
      ['DELETE', '/anything'],
      ['POST', '/'],
    ]) {
      const answer = await rawRequest(
        rig.port,
        httpText(`${method} ${path} HTTP/1.1`, { cookie, ...json, origin: 'https://evil.example' }, '{}'),
      );
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'CROSS_ORIGIN' });
    }
    expect(callsSince(rig.backend, before)).toEqual([]);
  });

  it.each([
    `http://127.0.0.1/manage/station/sensitiveWord/save`,
    `http://evil.example${SAVE_PATH}`,
    `https://127.0.0.1:1${SAVE_PATH}`,
  ])('refuses the absolute-form target %s with 400, even same-origin', async (target) => {
    const before = rig.backend.calls.length;
    const sameOrigin = { origin: 'http://127.0.0.1' };
    const answer = await rawRequest(
      rig.port,
      httpText(`POST ${target} HTTP/1.1`, { cookie, ...json, ...sameOrigin }, body),
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 400, error: 'BAD_REQUEST' });
    expect(callsSince(rig.backend, before)).toEqual([]);
  });

  it.each([
    '/manage/./logIn',
    '/manage/%2e/logIn',
    '/manage/%2E%2E/manage/logIn',
    '/manage/x/../logIn',
    '/manage//logIn',
    '/manage/logIn/',
    '/manage/login',
    '/manage/LOGIN',
    '/manage/logIn;jsessionid=1',
    '/manage%2flogIn',
    '/manage/%6cogIn',
    '/manage\\logIn',
    '/api/%2e%2e/manage/logIn',
    '/plate/..%2fmanage/logIn',
    '/plate/%2e%2e/manage/logIn',
    '/manage/logIn.json',
    '/manage/logIn.',
    '/manage/logIn%20',
    '/manage/logIn%C2%A0',
    '/manage/logIn/x',
    '/manage/LogIn.do',
    '/manage/logIn~',
    '/manage/logIn%3f',
  ])('refuses the login spelled %s with 400 before anything is proxied', async (path) => {
    const before = rig.backend.calls.length;
    const login = JSON.stringify({ account: 'tok-stolen/1', password: 'pw', code: '' });
    // With a session, so nothing but the path's spelling stands between the call and the backend.
    const answer = await rawRequest(
      rig.port,
      httpText(`POST ${path} HTTP/1.1`, { cookie, ...json, origin: 'http://127.0.0.1' }, login),
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 400, error: 'BAD_REQUEST' });
    expect(answer.body).not.toContain('tok-stolen');
    expect(callsSince(rig.backend, before)).toEqual([]);
  });

  it('lets a longer name that only starts like the login through: it is another call', async () => {
    const before = rig.backend.calls.length;
    await rawRequest(rig.port, httpText('GET /manage/logInfo HTTP/1.1', { cookie }));
    await rawRequest(rig.port, httpText('GET /manage/logIn-history HTTP/1.1', { cookie }));
    expect(callsSince(rig.backend, before).map((c) => c.url)).toEqual(['/manage/logInfo', '/manage/logIn-history']);
  });

  it('answers the login path only with POST: another method gets 405, never the backend', async () => {
    const before = rig.backend.calls.length;
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
      const answer = await rawRequest(
        rig.port,
        httpText(`${method} ${CALLS.login}?account=tok-stolen/1&password=pw HTTP/1.1`, {
          cookie,
          origin: 'http://127.0.0.1',
        }),
      );
      expect(answer.status, method).toBe(405);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'METHOD_NOT_ALLOWED' });
      expect(answer.headers.allow).toBe('POST');
    }
    expect(callsSince(rig.backend, before)).toEqual([]);
  });

  it('lets the plain spelling through, with the session and a same-origin Origin', async () => {
    const before = rig.backend.calls.length;
    const answer = await rawRequest(
      rig.port,
      httpText(`POST ${SAVE_PATH} HTTP/1.1`, { cookie, ...json, origin: 'http://127.0.0.1' }, body),
    );
    expect(answer.status).toBe(200);
    expect(callsSince(rig.backend, before, SAVE_PATH)).toHaveLength(1);
  });

  it('lets escaped characters a file name needs through to /plate', async () => {
    rig.backend.route('GET /plate/%E5%A4%B4%E5%83%8F%20a.png', (_call, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end('png');
    });
    const answer = await rawRequest(rig.port, httpText('GET /plate/%E5%A4%B4%E5%83%8F%20a.png HTTP/1.1'));
    expect(answer.status).toBe(200);
  });

  it('answers a URL that does not decode in the catalogue envelope', async () => {
    const answer = await rawRequest(rig.port, httpText('GET /manage/%zz HTTP/1.1', { cookie }));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 400, error: 'BAD_REQUEST' });
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });
});
