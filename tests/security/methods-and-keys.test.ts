import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESOURCES, resourceCalls } from '../../server/contract/index.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { sendJson } from '../support/fake-backend.js';
import { fakeLogInOver } from '../support/fake-session.js';
import { callsSince, httpText, rawRequest, type Rig, rigPerTest } from './support/rig.js';

/**
 * CONNECT used to close the socket with no answer at all (Node drops it when nobody listens for
 * it), and the backend map copied the client's query keys through plain objects, so
 * `?constructor=1` found Object's own constructor as the map's rename and reached the backend as
 * `function Object() { [native code] }=1`. Now CONNECT gets 405 in the envelope, and client keys
 * are only ever looked up as the map's own members.
 */

const rig = rigPerTest();

describe('CONNECT', () => {
  it('answers 405 METHOD_NOT_ALLOWED in the envelope, tunnels nothing, and the gateway stays up', async () => {
    const r = await rig();
    const before = r.backend.calls.length;
    for (const target of ['example.com:443', `127.0.0.1:${r.backend.port}`]) {
      const answer = await rawRequest(r.port, httpText(`CONNECT ${target} HTTP/1.1`, { host: target }));
      expect(answer.status, target).toBe(405);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(answer.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
      expect(JSON.parse(answer.body)).toEqual({
        code: 405,
        msg: 'This method is not allowed here',
        error: 'METHOD_NOT_ALLOWED',
      });
      expect(answer.closedByServer).toBe(true);
    }
    expect(callsSince(r.backend, before)).toEqual([]);
    expect((await fetch(`${r.url}/healthz`)).status).toBe(200);
  });

  it('gets the same answer on METRICS_PORT', async () => {
    const r = await rig({ METRICS_PORT: '0' });
    const answer = await rawRequest(
      r.app.metricsAddress()!.port,
      httpText('CONNECT example.com:443 HTTP/1.1', { host: 'example.com:443' }),
    );
    expect(answer.status).toBe(405);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 405, error: 'METHOD_NOT_ALLOWED' });
  });
});

describe('client keys in the backend map', () => {
  const users = resourceCalls(RESOURCES.find((resource) => resource.id === 'users')!);
  const MAP: BackendMapFile = {
    resources: {
      users: {
        calls: {
          list: { path: '/manage/user/page', params: { pageNum: 'current' } },
          update: { path: '/manage/user/update' },
        },
      },
    },
  };

  async function mappedRig(): Promise<{ r: Rig; cookie: string }> {
    const dir = mkdtempSync(path.join(tmpdir(), 'sec-map-'));
    writeFileSync(path.join(dir, 'map.json'), JSON.stringify(MAP));
    const r = await rig({ BACKEND_MAP: path.join(dir, 'map.json') });
    const ok = { code: 200, msg: 'ok', data: { list: [], total: 0 } };
    r.backend.route('GET /manage/user/page', (_call, res) => sendJson(res, ok));
    r.backend.route('POST /manage/user/update', (_call, res) => sendJson(res, { code: 200, msg: 'ok' }));
    return { r, cookie: await fakeLogInOver(r.url, { token: 'tok-keys', userId: '8' }) };
  }

  it("never reads Object.prototype's names as the map's renames; as members the contract lacks, they are not sent", async () => {
    const { r, cookie } = await mappedRig();
    const before = r.backend.calls.length;
    const query = 'constructor=1&toString=2&hasOwnProperty=3&valueOf=4&pageNum=5';
    const answer = await fetch(`${r.url}${users.list}?${query}`, { headers: { cookie } });
    expect(answer.status).toBe(200);
    const [sent] = callsSince(r.backend, before, '/manage/user/page');
    const params = new URLSearchParams(sent!.url.split('?')[1]);
    // Only the contract's members go through a map (issue 36 point 9); the rename still applies.
    expect(Object.fromEntries(params)).toEqual({ current: '5' });
    expect(sent!.url).not.toContain('function');
  });

  it('does the same for the members of a body', async () => {
    const { r, cookie } = await mappedRig();
    const before = r.backend.calls.length;
    const answer = await fetch(`${r.url}${users.save}`, {
      method: 'POST',
      headers: { cookie, origin: r.url, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 4, constructor: 'c', toString: 't' }),
    });
    expect(answer.status).toBe(200);
    const [sent] = callsSince(r.backend, before, '/manage/user/update');
    expect(JSON.parse(sent!.body)).toEqual({ id: 4 });
  });
});
