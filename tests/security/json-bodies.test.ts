import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { CALLS, RESOURCES, resourceCalls } from '../../server/contract/index.js';
import { JSON_MAX_DEPTH } from '../../server/lib/json-body.js';
import { sendJson } from '../support/fake-backend.js';
import { fakeLogInOver } from '../support/fake-session.js';
import { SAVE_PATH, callsSince, startRig, type Rig } from './support/rig.js';

/**
 * The limits on JSON bodies (nesting depth, `__proto__` keys) hold for every content type a
 * backend parses as JSON, not only `application/json`: otherwise the same body under
 * `application/merge-patch+json` would reach the backend unchecked.
 */

const JSON_TYPES = [
  'application/json',
  'application/merge-patch+json',
  'application/vnd.api+json; charset=utf-8',
  'Application/Problem+JSON',
  'text/json',
  'application/x-json',
];

const deep = '['.repeat(JSON_MAX_DEPTH + 1) + ']'.repeat(JSON_MAX_DEPTH + 1);
const poisoned = '{"name":"a","__proto__":{"isAdmin":true}}';
const poisonedConstructor = '{"constructor":{"prototype":{"isAdmin":true}}}';
/** The same key deeper down, inside an array, and spelled with JSON escapes (which JSON.parse turns back into `__proto__`). */
const poisonedElsewhere = [
  '{"words":["a"],"nested":{"deeper":{"__proto__":{"isAdmin":true}}}}',
  '{"ids":[1,{"__proto__":{"isAdmin":true}}]}',
  '{"name":"a","\\u005f\\u005fproto\\u005f\\u005f":{"isAdmin":true}}',
  '{"name":"a","\\u005F_proto__":{"isAdmin":true}}',
];

describe('JSON bodies of every JSON type', () => {
  let rig: Rig;
  let cookie: string;

  beforeAll(async () => {
    rig = await startRig();
    cookie = await fakeLogInOver(rig.url, { token: 'tok-j', userId: '2' });
  });
  afterAll(async () => {
    await rig.close();
  });

  const post = (url: string, contentType: string, body: string) =>
    fetch(`${rig.url}${url}`, {
      method: 'POST',
      headers: { cookie, origin: rig.url, 'content-type': contentType },
      body,
    });

  it.each(JSON_TYPES)(
    'as %s: nested too deep, or with __proto__, is refused with 400 before the backend',
    async (type) => {
      for (const body of [deep, poisoned, poisonedConstructor, '{"a":']) {
        const before = rig.backend.calls.length;
        const answer = await post(SAVE_PATH, type, body);
        expect(answer.status, body.slice(0, 20)).toBe(400);
        expect(await answer.json()).toMatchObject({ code: 400, error: 'BAD_REQUEST' });
        expect(callsSince(rig.backend, before)).toEqual([]);
      }
    },
  );

  it.each(JSON_TYPES)('as %s: within bounds, reaches the backend with its content type', async (type) => {
    const before = rig.backend.calls.length;
    const answer = await post(SAVE_PATH, type, '{"words":["a","b"],"nested":{"level":[[1]]}}');
    expect(answer.status).toBe(200);
    const [call] = callsSince(rig.backend, before);
    expect(call!.headers['content-type']).toBe(type);
    expect(JSON.parse(call!.body)).toEqual({ words: ['a', 'b'], nested: { level: [[1]] } });
  });

  it("is refused the same on the gateway's own routes", async () => {
    for (const type of JSON_TYPES.slice(1)) {
      const answer = await post('/api/error-log', type, deep);
      expect(answer.status, type).toBe(400);
      expect(await answer.json()).toMatchObject({ error: 'BAD_REQUEST' });
    }
  });

  it('refuses a __proto__ or constructor.prototype key on the login and the error log, before the backend', async () => {
    const login = '{"account":"admin","password":"pw","code":"","__proto__":{"isAdmin":true}}';
    const report = '{"message":"m","url":"/x","info":{"__proto__":{"polluted":true}}}';
    for (const type of JSON_TYPES) {
      for (const [url, body] of [
        [CALLS.login, login],
        [CALLS.login, poisonedConstructor],
        ['/api/error-log', report],
        ['/api/error-log', poisoned],
      ] as const) {
        const before = rig.backend.calls.length;
        const answer = await post(url, type, body);
        expect(answer.status, `${url} ${type} ${body}`).toBe(400);
        expect(await answer.json()).toMatchObject({ code: 400, error: 'BAD_REQUEST' });
        expect(callsSince(rig.backend, before)).toEqual([]);
      }
    }
    // Nothing was polluted on the way.
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a __proto__ key on /manage however deep and however spelled, under every unsafe method, before the backend', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const body of [poisoned, poisonedConstructor, ...poisonedElsewhere]) {
        const before = rig.backend.calls.length;
        const answer = await fetch(`${rig.url}${SAVE_PATH}`, {
          method,
          headers: { cookie, origin: rig.url, 'content-type': 'application/json' },
          body,
        });
        expect(answer.status, `${method} ${body}`).toBe(400);
        expect(await answer.json()).toMatchObject({ code: 400, error: 'BAD_REQUEST' });
        expect(callsSince(rig.backend, before)).toEqual([]);
      }
    }
    // The escapes are what the check must see through: the same body without them passes.
    const before = rig.backend.calls.length;
    expect((await post(SAVE_PATH, 'application/json', '{"name":"a","\\u005f_protocol__":1}')).status).toBe(200);
    expect(callsSince(rig.backend, before)).toHaveLength(1);
  });

  it('leaves other types (a form, text) to pass through as they are', async () => {
    const before = rig.backend.calls.length;
    expect((await post(SAVE_PATH, 'application/x-www-form-urlencoded', 'a=%5B%5B%5B')).status).toBe(200);
    expect((await post(SAVE_PATH, 'application/jsonl', '[[[')).status).toBe(200);
    expect(callsSince(rig.backend, before).map((c) => c.body)).toEqual(['a=%5B%5B%5B', '[[[']);
  });
});

describe('JSON bodies through a backend map', () => {
  const users = resourceCalls(RESOURCES.find((resource) => resource.id === 'users')!);
  const MAP: BackendMapFile = { resources: { users: { calls: { update: { path: '/manage/user/update' } } } } };
  let rig: Rig;
  let cookie: string;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sec-json-map-'));
    writeFileSync(path.join(dir, 'map.json'), JSON.stringify(MAP));
    rig = await startRig({ BACKEND_MAP: path.join(dir, 'map.json') });
    rig.backend.route('POST /manage/user/update', (_call, res) => sendJson(res, { code: 200, msg: 'ok' }));
    cookie = await fakeLogInOver(rig.url, { token: 'tok-jm', userId: '3' });
  });
  afterAll(async () => {
    await rig.close();
  });

  it('refuses a __proto__ key on a mapped /manage call under every JSON type, before the backend, and maps a clean one', async () => {
    for (const type of JSON_TYPES) {
      for (const body of [poisoned, poisonedConstructor, ...poisonedElsewhere]) {
        const before = rig.backend.calls.length;
        const answer = await fetch(`${rig.url}${users.save}`, {
          method: 'POST',
          headers: { cookie, origin: rig.url, 'content-type': type },
          body,
        });
        expect(answer.status, `${type} ${body}`).toBe(400);
        expect(await answer.json()).toMatchObject({ code: 400, error: 'BAD_REQUEST' });
        expect(callsSince(rig.backend, before)).toEqual([]);
      }
    }
    const before = rig.backend.calls.length;
    const clean = await fetch(`${rig.url}${users.save}`, {
      method: 'POST',
      headers: { cookie, origin: rig.url, 'content-type': 'application/json' },
      body: '{"id":4,"nickname":"a"}',
    });
    expect(clean.status).toBe(200);
    expect(callsSince(rig.backend, before, '/manage/user/update')).toHaveLength(1);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});
