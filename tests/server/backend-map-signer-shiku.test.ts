import { describe, expect, it } from 'vitest';
import { shiku, shikuSecret } from '../../server/backend-map/signers/shiku.js';
import { SIGNERS } from '../../server/backend-map/signers/index.js';
import type { AuthMap } from '../../server/backend-map/types.js';

/** The shiku signer against the worked example of docs/dialects/shiku-im.md §3. */

const TOKEN = '5c1b7a2f0e9d4c3ba1f2e3d4c5b6a798';
const session = { token: TOKEN, userId: '1000', kept: {} };
const AUTH: AuthMap = {
  login: { path: '/console/login', answer: { token: '/data/access_Token', userId: '/data/account' } },
};

describe('the shiku signer', () => {
  it('is found by its name', () => {
    expect(SIGNERS.get('shiku')).toBe(shiku);
  });

  it('signs the doc’s worked example: md5(apiKey + time + userId + access_token)', () => {
    expect(shikuSecret('mihuanim', 1718000000, '1000', TOKEN)).toBe('73b2f813e2086af5d477c37ce812d11e');
    const signature = shiku.sign({
      method: 'GET',
      path: '/console/userList',
      session,
      options: { apiKey: 'mihuanim' },
      now: 1718000000_999,
    });
    expect(signature).toEqual({
      query: { access_token: TOKEN, time: '1718000000', secret: '73b2f813e2086af5d477c37ce812d11e' },
    });
  });

  it('takes the apiKey the login answer gave over the map’s', () => {
    const signature = shiku.sign({
      method: 'GET',
      path: '/console/userList',
      session: { ...session, kept: { apiKey: 'other' } },
      options: { apiKey: 'mihuanim' },
      now: 1718000000_000,
    });
    expect(signature?.query?.secret).toBe(shikuSecret('other', 1718000000, '1000', TOKEN));
  });

  it('leaves the paths Shiku’s filter exempts unsigned', () => {
    for (const path of [
      '/console/login',
      '/pages/console/index.html',
      '/config',
      '/getCurrentTime',
      '/getImgCode',
      '/job/x',
    ]) {
      expect(shiku.sign({ method: 'GET', path, session, options: { apiKey: 'k' }, now: 0 }), path).toBeNull();
    }
    // Inside /console only the login and pages are exempt: /console/config is checked.
    expect(
      shiku.sign({ method: 'GET', path: '/console/config', session, options: { apiKey: 'k' }, now: 0 }),
    ).not.toBeNull();
  });

  it('needs an apiKey from the login answer or the map', () => {
    expect(shiku.check(AUTH, {})).toMatch(/apiKey/);
    expect(shiku.check(AUTH, { apiKey: 'mihuanim' })).toBeNull();
    expect(shiku.check(AUTH, { apiKey: 3 })).toMatch(/apiKey/);
    expect(
      shiku.check({ login: { ...AUTH.login, answer: { ...AUTH.login.answer, keep: { apiKey: '/data/apiKey' } } } }, {}),
    ).toBeNull();
  });
});
