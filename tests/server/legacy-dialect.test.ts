import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import {
  GATEWAY_PATHS,
  RESOURCES,
  resourceCalls,
  type ListAnswer,
  type Resource,
} from '../../server/contract/index.js';
import { SANDBOX_AES_KEY_TEXT } from '../../sandbox/key.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { LEGACY_UNOFFERED } from '../../sandbox/legacy/paths.js';
import { REPO_ROOT } from '../support/paths.js';
import { SAME_ORIGIN, writeFakeUi } from './support/gateway.js';
import { logInInject } from '../support/login.js';
import { BackendClient } from '../../sandbox/client.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

/**
 * The legacy dialect bound by its shipped map, end to end through the gateway: every screen it
 * offers answers as the same data does on the default dialect, writes land, and the three screens
 * it lacks are refused and announced to the UI.
 */

type Row = Record<string, unknown>;
const SEED = 77;
const NOW = Date.parse('2026-03-02T04:05:06.789Z');

let legacy: StartedSandbox;
let plain: StartedSandbox;
let mapped: FastifyInstance;
let direct: FastifyInstance;
const cookies: Record<string, Record<string, string>> = {};

async function gateway(backend: string, map: string | null): Promise<FastifyInstance> {
  const config = loadConfig({
    CHAT_BACKEND_URL: backend,
    RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'gw-legacy-')),
    UI_DIR: writeFakeUi(),
    ...(map ? { BACKEND_MAP: map } : {}),
  });
  return buildApp({ config, logger: false });
}

const login = (app: FastifyInstance) => logInInject(app, 'admin');

beforeAll(async () => {
  legacy = await startSandbox({ seed: SEED, now: NOW, withdrawalTickMs: 0, dialect: 'legacy' });
  plain = await startSandbox({ seed: SEED, now: NOW, withdrawalTickMs: 0 });
  mapped = await gateway(legacy.url, path.join(REPO_ROOT, 'sandbox/legacy-map.json'));
  direct = await gateway(plain.url, null);
  cookies.mapped = await login(mapped);
  cookies.direct = await login(direct);
});

afterAll(async () => {
  await mapped?.close();
  await direct?.close();
  await legacy?.close();
  await plain?.close();
});

async function get(app: FastifyInstance, url: string) {
  const res = await app.inject({ method: 'GET', url, cookies: app === mapped ? cookies.mapped : cookies.direct });
  return res.json() as { code: number; msg: string; data?: unknown; error?: string };
}

async function post(app: FastifyInstance, url: string, payload: unknown) {
  const res = await app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: SAME_ORIGIN,
    cookies: app === mapped ? cookies.mapped : cookies.direct,
  });
  return res.json() as { code: number; msg: string; data?: unknown; error?: string };
}

/** The dialect writes whole seconds: compare times at that precision. */
function seconds(value: unknown): unknown {
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value))
    return `${value.slice(0, 19)}Z`;
  if (Array.isArray(value)) return value.map(seconds);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, seconds(v)]));
  return value;
}

const offered = RESOURCES.filter((r) => !LEGACY_UNOFFERED.has(r.id));
const byId = (id: string) => RESOURCES.find((r) => r.id === id)!;

/** Only what the contract declares: undeclared extras of a record may read otherwise in a dialect. */
function declared(resource: Resource, row: Row): Row {
  const keys =
    resource.kind === 'list' || resource.kind === 'settings' ? resource.fields.map((f) => f.key) : Object.keys(row);
  // The two sandboxes saw this test's logins at slightly different moments.
  const skipped = resource.id === 'admins' ? ['lastLoginTime'] : [];
  return Object.fromEntries(keys.filter((k) => k in row && !skipped.includes(k)).map((k) => [k, row[k]]));
}

describe('the legacy dialect through its map', () => {
  it.each(offered.filter((r) => r.kind === 'list').map((r) => [r.id, r] as const))(
    '%s lists the same rows, sorted and paged',
    async (_id, resource) => {
      const list = resourceCalls(resource).list;
      const field = resource.kind === 'list' ? resource.defaultSort.replace(/^-/, '') : 'id';
      const query = `?pageNum=2&pageSize=5&sort=${encodeURIComponent(`-${field}`)}`;
      const [a, b] = await Promise.all([get(mapped, list + query), get(direct, list + query)]);
      expect(a.code, a.msg).toBe(200);
      const ours = a.data as ListAnswer<Row>;
      const theirs = b.data as ListAnswer<Row>;
      expect(ours.total).toBe(theirs.total);
      expect(ours.list.map((r) => seconds(declared(resource, r)))).toEqual(
        theirs.list.map((r) => seconds(declared(resource, r))),
      );
      if (theirs.totals) expect(ours.totals).toEqual(theirs.totals);
    },
  );

  it.each(offered.filter((r) => r.kind === 'settings').map((r) => [r.id, r] as const))(
    '%s reads the same settings',
    async (_id, resource) => {
      const config = resourceCalls(resource).config;
      const [a, b] = await Promise.all([get(mapped, config), get(direct, config)]);
      expect(a.code, a.msg).toBe(200);
      expect(a.data).toEqual(b.data);
    },
  );

  it('reads statistics for a range, in the console units', async () => {
    const resource = byId('dailyStatistics');
    const url = `${resourceCalls(resource).list}?startDate=2026-02-20&endDate=2026-02-26`;
    const [a, b] = await Promise.all([get(mapped, url), get(direct, url)]);
    expect(a.code, a.msg).toBe(200);
    expect(a.data).toEqual(b.data);
    expect((a.data as ListAnswer).list).toHaveLength(7);
  });

  it('filters by status, switch and date range as the console sends them', async () => {
    const users = resourceCalls(byId('users')).list;
    for (const query of [
      'status=banned',
      'privileged=true',
      'registerTimeFrom=2026-01-01&registerTimeTo=2026-02-01',
      'keyword=a&channel=web',
    ]) {
      const [a, b] = await Promise.all([get(mapped, `${users}?${query}`), get(direct, `${users}?${query}`)]);
      expect(a.code, `${query}: ${a.msg}`).toBe(200);
      expect((a.data as ListAnswer).total, query).toBe((b.data as ListAnswer).total);
      expect((a.data as ListAnswer<Row>).list.map((r) => r.id)).toEqual(
        (b.data as ListAnswer<Row>).list.map((r) => r.id),
      );
    }
  });

  it('opens a user with the nested record in the console names', async () => {
    const users = resourceCalls(byId('users'));
    const first = ((await get(direct, `${users.list}?pageSize=1`)).data as ListAnswer<Row>).list[0]!;
    const [a, b] = await Promise.all([
      get(mapped, `${users.detail}?id=${String(first.id)}`),
      get(direct, `${users.detail}?id=${String(first.id)}`),
    ]);
    expect(a.code, a.msg).toBe(200);
    expect(seconds(declared(byId('users'), (a.data as { user: Row }).user))).toEqual(
      seconds(declared(byId('users'), (b.data as { user: Row }).user)),
    );
  });

  it('creates, edits and deletes, runs actions with inputs, and saves settings', async () => {
    const announcements = resourceCalls(byId('announcements'));
    const created = await post(mapped, announcements.save, {
      title: 'Maintenance',
      content: 'Tonight',
      published: true,
      pinned: false,
      publishTime: '2026-03-03T02:00:00.000Z',
    });
    expect(created.code, created.msg).toBe(200);
    const id = (created.data as Row).id as number;
    expect(created.data).toMatchObject({
      title: 'Maintenance',
      published: true,
      publishTime: '2026-03-03T02:00:00.000Z',
    });
    const edited = await post(mapped, announcements.save, {
      id,
      title: 'Maintenance moved',
      content: 'Tomorrow',
      published: false,
      pinned: true,
      publishTime: '2026-03-04T02:00:00.000Z',
    });
    expect(edited.data).toMatchObject({ id, title: 'Maintenance moved', pinned: true });
    const found = (await get(mapped, `${announcements.list}?keyword=moved`)).data as ListAnswer<Row>;
    expect(found.list.map((r) => r.id)).toEqual([id]);
    expect((await post(mapped, announcements.remove, { ids: [id] })).code).toBe(200);
    expect(((await get(mapped, `${announcements.list}?keyword=moved`)).data as ListAnswer).total).toBe(0);

    const users = resourceCalls(byId('users'));
    const target = ((await get(mapped, `${users.list}?status=normal&pageSize=2`)).data as ListAnswer<Row>).list;
    expect((await post(mapped, users.action('ban'), { id: target[0]!.id, reason: 'Spam' })).code).toBe(200);
    expect((await post(mapped, users.action('ban'), { ids: [target[1]!.id], reason: 'Spam' })).code).toBe(200);
    const banned = (await get(mapped, `${users.list}?status=banned&keyword=${String(target[0]!.id)}`))
      .data as ListAnswer<Row>;
    expect(banned.list[0]).toMatchObject({ id: target[0]!.id, status: 'banned' });
    // The reason arrived under the dialect's name and was kept: the operation log shows it.
    const log = (await get(mapped, `${resourceCalls(byId('operationLog')).list}?action=ban`)).data as ListAnswer<Row>;
    expect(String(log.list[0]!.detail)).toContain('Spam');

    // A refused field comes back under the console's name (the dialect calls it nickName).
    const refused = await post(mapped, users.save, { id: target[0]!.id, nickname: '' });
    expect(refused).toMatchObject({ code: 400, data: { field: 'nickname' } });

    const signIn = resourceCalls(byId('signInConfig')).config;
    const before = (await get(mapped, signIn)).data as Row;
    const saved = await post(mapped, signIn, { ...before, dailyReward: 123 });
    expect(saved.code, saved.msg).toBe(200);
    expect((saved.data as Row).dailyReward).toBe(123);
    // The dialect stored yuan: the store holds the same fen.
    expect(legacy.app.sandbox.settings.signInConfig!.dailyReward).toBe(123);
  });

  it('refuses the three screens the dialect lacks and tells the UI', async () => {
    for (const id of LEGACY_UNOFFERED) {
      const answer = await get(mapped, resourceCalls(byId(id)).list);
      expect(answer).toMatchObject({ code: 404, error: 'UNSUPPORTED_BY_BACKEND' });
    }
    const offer = (
      await mapped.inject({ method: 'GET', url: GATEWAY_PATHS.backendOffer, cookies: cookies.mapped })
    ).json();
    expect(offer.unsupported.resources.sort()).toEqual([...LEGACY_UNOFFERED].sort());
  });

  it('answers the contract paths of translated screens with "no such interface"', async () => {
    const client = new BackendClient(legacy.url);
    const session = await client.login('admin', 'admin123');
    const users = resourceCalls(byId('users')).list;
    expect((await client.call(users, { session })).envelope).toEqual({
      code: 404,
      msg: `No such interface: GET ${users}`,
    });
    // Screens it serves unchanged keep the contract's paths.
    expect((await client.call(resourceCalls(byId('appInterface')).config, { session })).envelope.code).toBe(200);
  });
});
