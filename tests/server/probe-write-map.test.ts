import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { backendAuthOf } from '../../server/backend-map/auth.js';
import { parseBackendMap } from '../../server/backend-map/load.js';
import { checkMapText } from '../../server/backend-map/map-check.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { CALLS, GATEWAY_PATHS, RESOURCES, resourceCalls } from '../../server/contract/index.js';
import { Upstream } from '../../server/lib/upstream.js';
import { writeStartingMapFromDocument } from '../../server/probe/write-map.js';
import { REPO_ROOT } from '../support/paths.js';
import { SAME_ORIGIN, buildTestGateway } from './support/gateway.js';
import { startForeignBackend, type ForeignBackend } from './support/foreign-backend.js';

/**
 * The probe's --write-map against a REST backend in a dialect the project has never seen
 * (support/foreign-backend.ts): the map it writes from the backend's OpenAPI document and answers
 * loads, passes map:check, and binds the users list through the gateway; what it could not tell
 * is asked in the map's questions.
 */

const users = resourceCalls(RESOURCES.find((r) => r.id === 'users')!);
const tsx = path.join(REPO_ROOT, 'node_modules/.bin/tsx');
let backend: ForeignBackend;
const upstreams: Upstream[] = [];
let written: BackendMapFile;
let mapFile: string;

function run(args: string[]) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(tsx, args, { cwd: REPO_ROOT, env: process.env, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

const connect = (map: BackendMapFile | null) => {
  const upstream = new Upstream({
    baseUrl: backend.url,
    timeoutMs: 5_000,
    tlsInsecure: false,
    maxAnswerBytes: 1024 * 1024,
    auth: backendAuthOf(map ?? undefined),
    decoder: async (answer) => answer.body,
  });
  upstreams.push(upstream);
  return upstream;
};

beforeAll(async () => {
  backend = await startForeignBackend();
  const result = await writeStartingMapFromDocument({ account: 'root', password: 'hunter2', base: null, connect });
  expect(result).not.toBeNull();
  written = result!.map;
  mapFile = path.join(mkdtempSync(path.join(tmpdir(), 'written-map-')), 'foreign.json');
  writeFileSync(mapFile, JSON.stringify(written, null, 2));
});

afterAll(async () => {
  for (const u of upstreams) await u.close();
  await backend?.close();
});

describe('--write-map against a backend it has never seen', () => {
  it('reads the login, token travel, envelope and key case from the document and the answers', () => {
    expect(written).toMatchObject({
      answer: { code: '/status', message: '/detail', data: '/payload', success: ['OK'] },
      keyCase: 'snake',
      auth: {
        login: {
          path: '/api/v2/auth/sign-in',
          fields: { account: 'login_name', password: 'passwd' },
          answer: { token: '/payload/access_token', userId: '/payload/admin_id' },
        },
        token: { headers: ['Authorization'], prefix: 'Bearer ' },
      },
    });
  });

  it('matches the members list to users, its fields by name, with times, money and states in their forms', () => {
    expect(written.resources?.users).toMatchObject({
      id: 'string',
      calls: {
        list: {
          path: '/api/v2/members',
          params: { pageNum: 'page', pageSize: 'per_page', keyword: 'q' },
          answer: { list: '/payload/items', total: '/payload/total_items' },
        },
        detail: { path: '/api/v2/members/{id}' },
        update: { method: 'PATCH', path: '/api/v2/members/{id}' },
      },
      fields: {
        account: { name: 'login_name' },
        nickname: { name: 'display_name' },
        phone: { name: 'mobile' },
        status: { name: 'state', values: { normal: 'ACTIVE', banned: 'SUSPENDED' } },
        balance: { name: 'wallet_balance', money: 'yuan' },
        registerTime: { name: 'created_at', time: 'epoch-seconds' },
        lastLoginTime: { name: 'last_seen_at' },
        channel: { absent: true },
        // A member outside the contract, shown on the record page rather than refused.
        isOnline: { shown: 'switch' },
      },
      actions: { ban: { path: '/api/v2/members/{id}/suspend', bulk: { each: true } }, unban: { unsupported: true } },
    });
    expect(written.resources?.sensitiveWords?.fields).toMatchObject({
      word: { name: 'text' },
      createTime: { name: 'added_at', time: 'yyyy-MM-dd HH:mm:ss' },
    });
    // What the document does not serve is unsupported, the console's own calls too.
    expect(written.resources?.groups).toEqual({ unsupported: true });
    expect(written.console?.calls?.siteConfig).toEqual({ unsupported: true });
  });

  it('asks what it cannot tell, each at its place in the map', () => {
    const asked = new Map((written.questions ?? []).map((q) => [q.at, q.ask]));
    expect(asked.get('/resources/users/calls/list/firstPage')).toContain('count from 1');
    expect(asked.get('/resources/users/actions/ban')).toContain('reason: note');
    expect(asked.get('/resources/users/fields/channel')).toContain('no member');
    expect(asked.get('/timeZone')).toContain('without a zone');
    expect(asked.get('/permissions')).toContain('"all"');
  });

  it('writes a map that loads and passes map:check, listing its questions', { timeout: 150_000 }, async () => {
    expect(() => parseBackendMap(readFileSync(mapFile, 'utf8'), mapFile)).not.toThrow();
    expect(checkMapText(readFileSync(mapFile, 'utf8'), mapFile).errors).toEqual([]);
    const ran = await run(['server/backend-map/check-main.ts', mapFile]);
    expect(ran.status, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toContain('question /resources/users/actions/ban:');
    expect(ran.stdout).toContain(
      `${mapFile}: the gateway would load this map, ${written.questions!.length} questions open`,
    );
  });

  it('binds the users list through the gateway: the console logs in with its own form and reads its rows', async () => {
    const app: FastifyInstance = await buildTestGateway({
      CHAT_BACKEND_URL: backend.url,
      UPSTREAM_TIMEOUT_MS: '5000',
      BACKEND_MAP: mapFile,
    });
    try {
      const login = await app.inject({
        method: 'POST',
        url: CALLS.login,
        headers: SAME_ORIGIN,
        payload: { account: 'root', password: 'hunter2' },
      });
      expect(login.json()).toMatchObject({ code: 200, data: { userId: '1' } });
      const cookies = Object.fromEntries(login.cookies.map((c) => [c.name, c.value]));
      const list = await app.inject({
        method: 'GET',
        url: `${users.list}?pageNum=1&pageSize=20&keyword=an`,
        cookies,
      });
      expect(list.json()).toEqual({
        code: 200,
        msg: 'done',
        data: {
          list: [
            {
              id: 1001,
              account: 'ann',
              nickname: 'Ann',
              phone: '+8613800000001',
              status: 'normal',
              balance: 1230,
              registerTime: '2024-06-01T00:00:00.000Z',
              lastLoginTime: '2024-06-02T08:00:00Z',
              avatar: 'https://img.example/ann.png',
              isOnline: true,
            },
          ],
          total: 1,
        },
      });
      expect(backend.calls.at(-1)?.url).toBe('/api/v2/members?page=1&per_page=20&q=an');
      // The record page's fields outside the contract, and what the map leaves out, in the offer.
      const offer = await app.inject({ method: 'GET', url: GATEWAY_PATHS.backendOffer, cookies });
      expect(offer.json()).toMatchObject({
        shown: { users: [{ key: 'isOnline', kind: 'switch' }] },
        unsupported: { fields: { users: ['channel', 'privileged', 'lastLoginIp'] } },
      });
    } finally {
      await app.close();
    }
  });
});

describe('--map X --write-map Y', () => {
  it('keeps the map read whole, its bound entries as written, and fills in the rest', async () => {
    const base: BackendMapFile = {
      ...written,
      resources: { users: written.resources!.users!, groups: { calls: { list: { path: '/api/v2/rooms' } } } },
      questions: [],
    };
    const again = await writeStartingMapFromDocument({ account: 'root', password: 'hunter2', base, connect });
    expect(again!.map.resources?.users).toEqual(written.resources!.users);
    expect(again!.map.resources?.groups).toEqual({ calls: { list: { path: '/api/v2/rooms' } } });
    expect(again!.map.resources?.sensitiveWords).toEqual(written.resources!.sensitiveWords);
    expect(again!.map.auth).toEqual(written.auth);
  });

  it('refuses to write over the file it reads', { timeout: 150_000 }, async () => {
    const ran = await run([
      'server/probe/main.ts',
      ...['--backend', backend.url, '--account', 'root', '--password', 'hunter2'],
      ...['--map', mapFile, '--write-map', path.join(path.dirname(mapFile), '.', 'foreign.json')],
    ]);
    expect(ran.status).toBe(64);
    expect(ran.stderr).toContain('is the map read (--map)');
    expect(JSON.parse(readFileSync(mapFile, 'utf8'))).toEqual(written);
  });
});
