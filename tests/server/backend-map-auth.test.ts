import { describe, expect, it } from 'vitest';
import { BackendAuth, setQuery, withQuery } from '../../server/backend-map/auth.js';
import { compilePermissions } from '../../server/backend-map/permissions.js';
import { parseBackendMap } from '../../server/backend-map/load.js';
import type { AuthMap, BackendMapFile } from '../../server/backend-map/types.js';
import { ALL_PERMISSIONS, PERMISSIONS } from '../../server/contract/index.js';
import { SessionSealer } from '../../server/session/seal.js';

/** The map's `auth` and `permissions` expressions, each on its own. */

const OPENIM: AuthMap = {
  login: {
    path: '/account/login',
    password: 'md5',
    extra: { version: '1' },
    answer: { token: '/data/adminToken', userId: '/data/adminUserID', keep: { level: '/data/level' } },
  },
  token: { headers: ['token'] },
  generated: [{ value: 'uuid', header: 'operationID' }],
};
const form = { account: 'admin', password: 'admin123', code: '654321' };
const parse = (map: BackendMapFile) => parseBackendMap(JSON.stringify(map), 'map.json');

describe('auth.login', () => {
  it('sends JSON with the password as md5 hex and the fixed members; the code only when named', () => {
    const sent = new BackendAuth(OPENIM).loginRequest(form);
    expect(sent).toEqual({
      method: 'POST',
      path: '/account/login',
      body: {
        contentType: 'application/json',
        text: JSON.stringify({ version: '1', account: 'admin', password: '0192023a7bbd73250516f069df18b500' }),
      },
    });
  });

  it('sends a form or a query, under the backend’s names, sha256 or as typed', () => {
    const formLogin = new BackendAuth({
      ...OPENIM,
      login: {
        ...OPENIM.login,
        in: 'form',
        fields: { account: 'u', password: 'p', code: 'googlecode' },
        password: 'sha256',
        extra: {},
      },
    });
    expect(formLogin.loginRequest(form).body).toEqual({
      contentType: 'application/x-www-form-urlencoded',
      text: 'u=admin&p=240be518fabd2724ddb6f04eeb1da5967448d7e831c08c8fa822809f74c720a9&googlecode=654321',
    });
    const queryLogin = new BackendAuth({
      ...OPENIM,
      login: { ...OPENIM.login, method: 'GET', password: 'none', extra: {} },
    });
    expect(queryLogin.loginRequest(form)).toEqual({
      method: 'GET',
      path: '/account/login?account=admin&password=admin123',
    });
  });

  it('reads the token, user id and kept values; a refusal by the map’s envelope and refusal table', () => {
    const auth = new BackendAuth(
      OPENIM,
      { code: '/errCode', message: '/errMsg', success: [0] },
      new Map([['20001', 400]]),
    );
    expect(auth.readLogin({ errCode: 0, data: { adminToken: 'jwt', adminUserID: 'imAdmin', level: 100 } })).toEqual({
      ok: true,
      credentials: { token: 'jwt', userId: 'imAdmin', kept: { level: '100' } },
    });
    expect(auth.readLogin({ errCode: 20001, errMsg: 'PasswordError' })).toEqual({
      ok: false,
      code: 400,
      msg: 'PasswordError',
    });
    expect(auth.readLogin({ errCode: 20002, errMsg: '' })).toEqual({
      ok: false,
      code: 20002,
      msg: 'The chat backend refused the login (code 20002)',
    });
    expect(auth.readLogin({ errCode: 0, data: { adminUserID: 'x' } })).toEqual({
      ok: false,
      unusable: 'no token at /data/adminToken',
    });
    expect(auth.readLogin({ errCode: 0, data: { adminToken: 't', adminUserID: 'x', level: 'a\nb' } })).toMatchObject({
      ok: false,
    });
  });

  it('takes the login’s own envelope over the map’s', () => {
    const auth = new BackendAuth(
      { ...OPENIM, login: { ...OPENIM.login, answer: { ...OPENIM.login.answer, code: '/status', success: ['ok'] } } },
      { code: '/errCode' },
    );
    expect(auth.readLogin({ status: 'ok', data: { adminToken: 't', adminUserID: 1 } })).toMatchObject({
      ok: true,
      credentials: { userId: '1' },
    });
  });
});

describe('auth: what each call carries', () => {
  const session = { token: 'tok', userId: '7', kept: {} };

  it('generates a fresh UUID or time per call, on calls with and without a session', () => {
    const auth = new BackendAuth({
      ...OPENIM,
      generated: [
        { value: 'uuid', header: 'operationID' },
        { value: 'epoch-seconds', query: 't' },
        { value: 'epoch-millis', header: 'x-ms' },
      ],
    });
    const a = auth.credentials(null, 'POST', '/account/login', 1718000000_123);
    const b = auth.credentials(null, 'POST', '/account/login', 1718000000_123);
    expect(a.headers.operationid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.headers.operationid).not.toBe(b.headers.operationid);
    expect(a.query).toEqual({ t: '1718000000' });
    expect(a.headers['x-ms']).toBe('1718000000123');
    expect(a.headers.token).toBeUndefined();
  });

  it('carries the token and user id in headers (with a prefix), a query parameter or a cookie', () => {
    const auth = new BackendAuth({
      login: OPENIM.login,
      token: { headers: ['Authorization', 'token'], prefix: 'Bearer ', query: 'access_token', cookie: 'SID' },
      userId: { headers: ['x-user'], cookie: 'UID' },
    });
    expect(auth.credentials(session, 'GET', '/x')).toEqual({
      headers: { authorization: 'Bearer tok', token: 'Bearer tok', cookie: 'SID=tok; UID=7', 'x-user': '7' },
      query: { access_token: 'tok' },
    });
  });

  it('adds the signer’s parameters, with the kept values it reads', () => {
    const auth = new BackendAuth({
      login: { ...OPENIM.login, answer: { token: '/t', userId: '/u', keep: { apiKey: '/k' } } },
      signer: { name: 'shiku' },
    });
    const signed = auth.credentials(
      { token: '5c1b7a2f0e9d4c3ba1f2e3d4c5b6a798', userId: '1000', kept: { apiKey: 'mihuanim' } },
      'GET',
      '/console/userList?page=1',
      1718000000_000,
    );
    expect(signed.query).toEqual({
      access_token: '5c1b7a2f0e9d4c3ba1f2e3d4c5b6a798',
      time: '1718000000',
      secret: '73b2f813e2086af5d477c37ce812d11e',
    });
  });

  it('sets query parameters over any of the same name and keeps the others as sent', () => {
    expect(setQuery('q=a%20b&access_token=forged&x=1', { access_token: 't', time: '9' })).toBe(
      'q=a%20b&x=1&access_token=t&time=9',
    );
    expect(setQuery('', { a: '1' })).toBe('a=1');
    expect(setQuery('q=1', {})).toBe('q=1');
    expect(withQuery('/p?acc%65ss_token=forged', { access_token: 't' })).toBe('/p?access_token=t');
    expect(withQuery('/p', {})).toBe('/p');
  });
});

describe('permissions', () => {
  it('reads a table over a kept value, with a fallback, or all', () => {
    const table = compilePermissions({
      from: 'level',
      table: { '100': 'all', '80': [PERMISSIONS.userProfile] },
      otherwise: [PERMISSIONS.push],
    });
    if (table.kind !== 'fixed') throw new Error('a table is fixed');
    expect(table.of({ level: '100' })).toEqual(ALL_PERMISSIONS);
    expect(table.of({ level: '80' })).toEqual([PERMISSIONS.userProfile]);
    expect(table.of({ level: '1' })).toEqual([PERMISSIONS.push]);
    expect(table.of(undefined)).toEqual([PERMISSIONS.push]);
    const none = compilePermissions({ from: 'level', table: {} });
    expect(none.kind === 'fixed' && none.of({ level: '100' })).toEqual([]);
    const all = compilePermissions('all');
    expect(all.kind === 'fixed' && all.of(undefined)).toEqual(ALL_PERMISSIONS);
    expect(compilePermissions({ call: { path: '/perms', method: 'POST' }, list: '/data/list' })).toEqual({
      kind: 'call',
      method: 'POST',
      path: '/perms',
      list: ['data', 'list'],
    });
  });
});

describe('checking auth and permissions at start', () => {
  it('accepts the OpenIM and Shiku bindings', () => {
    expect(parse({ auth: OPENIM, permissions: { from: 'level', table: { '100': 'all' } } }).auth).toEqual(OPENIM);
    const shikuAuth: AuthMap = {
      login: {
        path: '/console/login',
        in: 'form',
        fields: { code: 'googlecode' },
        password: 'md5',
        answer: { token: '/data/access_Token', userId: '/data/account', keep: { role: '/data/role' } },
      },
      signer: { name: 'shiku', options: { apiKey: 'mihuanim' } },
    };
    expect(parse({ auth: shikuAuth, permissions: 'all' }).permissions).toBe('all');
  });

  it.each([
    [{ auth: { ...OPENIM, signer: { name: 'nope' } } }, '/auth/signer/name', 'no signer "nope" (known: shiku)'],
    [{ auth: { ...OPENIM, signer: { name: 'shiku' } } }, '/auth/signer', 'apiKey'],
    [{ auth: { login: OPENIM.login } }, '/auth', 'the token travels nowhere'],
    [
      { auth: { ...OPENIM, login: { ...OPENIM.login, extra: { password: 'x' } } } },
      '/auth/login/extra/password',
      'also the name of a form field',
    ],
    [{ auth: { ...OPENIM, login: { ...OPENIM.login, password: 'sha1' } } }, '/auth/login/password', 'must be one of'],
    [{ auth: { ...OPENIM, login: { ...OPENIM.login, answer: { token: '/t' } } } }, '/auth/login/answer', 'userId'],
    [{ auth: { ...OPENIM, token: { headers: ['bad header'] } } }, '/auth/token/headers/0', 'must match'],
    [{ auth: { ...OPENIM, generated: [{ value: 'uuid' }] } }, '/auth/generated/0', 'fewer than 2'],
    [
      { auth: OPENIM, permissions: { from: 'role', table: {} } },
      '/permissions/from',
      '"role" is not a value the login keeps (auth.login.answer.keep: level)',
    ],
    [{ permissions: { from: 'level', table: {} } }, '/permissions/from', 'keep: none'],
    [
      { auth: OPENIM, permissions: { from: 'level', table: { '80': ['/manage/nope'] } } },
      '/permissions/table/80/0',
      'no permission "/manage/nope"',
    ],
    [
      { auth: OPENIM, permissions: { from: 'level', table: {}, otherwise: ['/x'] } },
      '/permissions/otherwise/0',
      'no permission',
    ],
    [{ permissions: 'some' }, '/permissions', 'must be "all", {call, list} or {from, table, otherwise?}'],
  ] as [unknown, string, string][])('refuses %j at %s', (map, at, reason) => {
    expect(() => parse(map as BackendMapFile)).toThrow(`map.json at ${at}: `);
    expect(() => parse(map as BackendMapFile)).toThrow(reason);
  });
});

describe('the sealed session with kept values', () => {
  const sealer = new SessionSealer(Buffer.alloc(32, 7));
  const base = { token: 't', userId: 'u', id: 'i', issuedAt: 1_000_000, lastSeen: 2_000_000 };

  it('keeps them through the seal, and a session without them seals as before', () => {
    expect(sealer.unseal(sealer.seal({ ...base, kept: { level: '100' } }))).toEqual({
      ...base,
      kept: { level: '100' },
    });
    expect(sealer.unseal(sealer.seal(base))).toEqual(base);
    expect(sealer.unseal(sealer.seal({ ...base, kept: {} }))).toEqual(base);
  });
});
