import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS } from '../../server/contract/index.js';
import { JSON_MAX_DEPTH } from '../../server/lib/json-body.js';
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
    fetch(`${rig.url}${url}`, { method: 'POST', headers: { cookie, origin: rig.url, 'content-type': contentType }, body });

  it.each(JSON_TYPES)('as %s: nested too deep, or with __proto__, is refused with 400 before the backend', async (type) => {
    for (const body of [deep, poisoned, poisonedConstructor, '{"a":']) {
      const before = rig.backend.calls.length;
      const answer = await post(SAVE_PATH, type, body);
      expect(answer.status, body.slice(0, 20)).toBe(400);
      expect(await answer.json()).toMatchObject({ code: 400, error: 'BAD_REQUEST' });
      expect(callsSince(rig.backend, before)).toEqual([]);
    }
  });

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

  it('leaves other types (a form, text) to pass through as they are', async () => {
    const before = rig.backend.calls.length;
    expect((await post(SAVE_PATH, 'application/x-www-form-urlencoded', 'a=%5B%5B%5B')).status).toBe(200);
    expect((await post(SAVE_PATH, 'application/jsonl', '[[[')).status).toBe(200);
    expect(callsSince(rig.backend, before).map((c) => c.body)).toEqual(['a=%5B%5B%5B', '[[[']);
  });
});
