import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { RESOURCES, resourceCalls } from '../../server/contract/index.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { SAME_ORIGIN, buildTestGateway } from './support/gateway.js';
import { logInInject } from '../support/login.js';

/**
 * The plans of the shipped Shiku map through the gateway, against the sandbox's Shiku dialect: a
 * delete of several words where the backend refuses one (the others gone, the refused one named),
 * and the clock correction (a backend whose clock is ten minutes ahead refuses every signature
 * made with ours, and accepts those made with its own time as asked at login).
 */

const SHIKU_MAP = path.resolve('server/backend-map/bindings/shiku-im.json');
const calls = (id: string) => resourceCalls(RESOURCES.find((r) => r.id === id)!);

function writeMap(map: BackendMapFile): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'gw-plans-')), 'map.json');
  writeFileSync(file, JSON.stringify(map));
  return file;
}

const logIn = (app: FastifyInstance) => logInInject(app, 'admin');

describe('a delete sent once per id, through the gateway', () => {
  let sandbox: StartedSandbox;
  let app: FastifyInstance;

  beforeAll(async () => {
    sandbox = await startSandbox({ dialect: 'shiku', port: 0, seed: 21, withdrawalTickMs: 0 });
    app = await buildTestGateway({
      CHAT_BACKEND_URL: sandbox.url,
      UPSTREAM_TIMEOUT_MS: '5000',
      BACKEND_MAP: SHIKU_MAP,
    });
  });

  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
  });

  it('deletes every word the backend takes and names the one it refuses', async () => {
    const cookies = await logIn(app);
    const listed = await app.inject({
      method: 'GET',
      url: `${calls('sensitiveWords').list}?pageNum=1&pageSize=3`,
      cookies,
    });
    const words = (listed.json() as { data: { list: { id: string; word: string }[] } }).data.list;
    const ids = words.map((w) => w.id);
    expect(ids).toHaveLength(3);
    // A word someone else deleted meanwhile: Shiku's deletekeyword fails on it (an internal exception).
    const gone = ids[1]!;
    const store = sandbox.app.sandbox;
    const before = store.sensitiveWords.all().length;
    store.sensitiveWords.remove([store.sensitiveWords.find((w) => w.word === words[1]!.word)!.id]);

    const res = await app.inject({
      method: 'POST',
      url: calls('sensitiveWords').remove,
      cookies,
      headers: SAME_ORIGIN,
      payload: { ids },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      code: number;
      msg: string;
      data: { done: string[]; refused: { id: string; code: number; msg: string }[] };
    };
    expect(body.code).not.toBe(200);
    expect(body.msg).toMatch(/^1 of 3 refused: /);
    expect(body.data.done).toEqual([ids[0], ids[2]]);
    expect(body.data.refused).toEqual([{ id: gone, code: body.code, msg: expect.any(String) as string }]);
    expect(store.sensitiveWords.all()).toHaveLength(before - 3);
  });
});

describe('the clock correction, against a backend ten minutes ahead', () => {
  let sandbox: StartedSandbox;
  let corrected: FastifyInstance;
  let uncorrected: FastifyInstance;

  beforeAll(async () => {
    sandbox = await startSandbox({
      dialect: 'shiku',
      port: 0,
      seed: 22,
      withdrawalTickMs: 0,
      clock: () => Date.now() + 600_000,
    });
    corrected = await buildTestGateway({
      CHAT_BACKEND_URL: sandbox.url,
      UPSTREAM_TIMEOUT_MS: '5000',
      BACKEND_MAP: SHIKU_MAP,
    });
    const without = JSON.parse(readFileSync(SHIKU_MAP, 'utf8')) as BackendMapFile;
    delete without.auth!.clock;
    uncorrected = await buildTestGateway({
      CHAT_BACKEND_URL: sandbox.url,
      UPSTREAM_TIMEOUT_MS: '5000',
      BACKEND_MAP: writeMap(without),
    });
  });

  afterAll(async () => {
    await corrected?.close();
    await uncorrected?.close();
    await sandbox?.close();
  });

  it('signs with the backend’s time as asked at login', async () => {
    const list = `${calls('users').list}?pageNum=1&pageSize=5`;
    const right = await corrected.inject({ method: 'GET', url: list, cookies: await logIn(corrected) });
    expect(right.json(), right.body).toMatchObject({ code: 200 });
    const wrong = await uncorrected.inject({ method: 'GET', url: list, cookies: await logIn(uncorrected) });
    expect(wrong.json()).toMatchObject({ code: 400, msg: '授权认证失败' });
  });
});
