import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson } from '../support/fake-backend.js';
import { fakeLogInOver } from '../support/fake-session.js';
import { callsSince, httpText, rawRequest, startRig, type Rig } from './support/rig.js';

/**
 * Some of the backend's GET calls change state (syncing withdrawals, say), and the session is a
 * cookie a cross-site page's <img> or fetch carries along. Under /manage, a call the browser marks
 * as started by another site or another origin of the same site is refused, whatever its method.
 */

const SYNC = '/manage/finance/syncCashWithdrawal';

describe('/manage calls another site started', () => {
  let rig: Rig;
  let cookie: string;

  beforeAll(async () => {
    rig = await startRig();
    rig.backend.route(`GET ${SYNC}`, (_call, res) => sendJson(res, { code: 200, msg: 'synced' }));
    rig.backend.route('GET /plate/a.png', (_call, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end('png');
    });
    cookie = await fakeLogInOver(rig.url, { token: 'tok-x', userId: '9' });
  });
  afterAll(async () => {
    await rig.close();
  });

  it.each([
    ['GET', SYNC, 'cross-site'],
    ['GET', SYNC, 'same-site'],
    ['HEAD', SYNC, 'cross-site'],
    ['GET', `${SYNC}?id=1`, 'cross-site'],
    ['GET', '/manage/anything/else', 'cross-site'],
    ['GET', '/m%61nage/finance/syncCashWithdrawal', 'cross-site'],
    ['POST', SYNC, 'same-site'],
  ])('refuses %s %s marked %s with 403 CROSS_ORIGIN, and the backend hears nothing', async (method, url, site) => {
    const before = rig.backend.calls.length;
    const answer = await rawRequest(
      rig.port,
      httpText(`${method} ${url} HTTP/1.1`, { cookie, 'sec-fetch-site': site, origin: 'http://127.0.0.1' }),
    );
    expect([400, 403]).toContain(answer.status);
    if (method !== 'HEAD')
      expect(JSON.parse(answer.body)).toMatchObject({ error: answer.status === 403 ? 'CROSS_ORIGIN' : 'BAD_REQUEST' });
    if (url.startsWith('/manage')) expect(answer.status).toBe(403);
    expect(callsSince(rig.backend, before)).toEqual([]);
  });

  it.each([['same-origin'], ['none'], [undefined]])(
    'serves a call marked %s (the console, a typed URL, a plain client)',
    async (site) => {
      const before = rig.backend.calls.length;
      const answer = await rawRequest(
        rig.port,
        httpText(`GET ${SYNC} HTTP/1.1`, { cookie, ...(site ? { 'sec-fetch-site': site } : {}) }),
      );
      expect(answer.status).toBe(200);
      expect(callsSince(rig.backend, before, SYNC)).toHaveLength(1);
    },
  );

  it('still serves /plate files to another site (the chat client shows avatars)', async () => {
    const answer = await rawRequest(rig.port, httpText('GET /plate/a.png HTTP/1.1', { 'sec-fetch-site': 'same-site' }));
    expect(answer.status).toBe(200);
  });
});
