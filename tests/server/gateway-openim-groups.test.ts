import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS, GATEWAY_PATHS, GROUPS, resourceCalls } from '../../server/contract/index.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { SAME_ORIGIN, buildTestGateway } from './support/gateway.js';

/**
 * OpenIM's groups through the gateway and the shipped map, against the sandbox's OpenIM dialect
 * with its three services: the admin login on the admin API hands out an `imToken`, which the
 * groups' calls carry to OpenIM Server (the map's `im` service). Each write is checked in the
 * sandbox's store, and every call the sandbox got is checked to have gone to the right service.
 */

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const calls = resourceCalls(GROUPS);

type Row = Record<string, unknown>;

let sandbox: StartedSandbox;
let app: FastifyInstance;
let cookies: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ dialect: 'openim', withdrawalTickMs: 0, seed: 5 });
  app = await buildTestGateway({
    CHAT_BACKEND_URL: sandbox.url,
    OPENIM_CHAT_API_URL: sandbox.services.chat!,
    OPENIM_SERVER_API_URL: sandbox.services.im!,
    UPSTREAM_TIMEOUT_MS: '5000',
    BACKEND_MAP: path.join(REPO_ROOT, 'server/backend-map/bindings/openim-chat.json'),
  });
  const res = await app.inject({
    method: 'POST',
    url: CALLS.login,
    headers: SAME_ORIGIN,
    payload: { account: 'admin', password: 'admin123' },
  });
  expect(res.json()).toMatchObject({ code: 200 });
  cookies = Object.fromEntries(res.cookies.map((c) => [c.name, c.value]));
});

afterAll(async () => {
  await app?.close();
  await sandbox?.close();
});

async function get(url: string): Promise<{ code: number; msg?: string; data: Row }> {
  const res = await app.inject({ method: 'GET', url, cookies });
  return res.json() as { code: number; msg?: string; data: Row };
}

async function act(name: string, id: unknown): Promise<{ code: number; msg?: string }> {
  const res = await app.inject({
    method: 'POST',
    url: calls.action(name),
    headers: SAME_ORIGIN,
    cookies,
    payload: { id },
  });
  return res.json() as { code: number; msg?: string };
}

const storeGroup = (id: unknown) => sandbox.app.sandbox.groups.get(Number(id))!;
const live = () =>
  sandbox.app.sandbox.groups
    .all()
    .filter((g) => g.status !== 'dissolved')
    .sort((a, b) => Date.parse(b.createTime) - Date.parse(a.createTime));

describe('OpenIM groups through the shipped map', () => {
  it('offers the groups screen and its actions, and leaves online users out', async () => {
    const offer = (await app.inject({ method: 'GET', url: GATEWAY_PATHS.backendOffer, cookies })).json() as {
      unsupported: { resources: string[]; calls: Record<string, string[]>; actions: Record<string, string[]> };
    };
    expect(offer.unsupported.resources).not.toContain('groups');
    expect(offer.unsupported.resources).toContain('onlineUsers');
    expect(offer.unsupported.calls.groups ?? []).not.toContain('detail');
    expect(offer.unsupported.actions.groups ?? []).toEqual([]);
  });

  it('lists the live groups newest first, from OpenIM Server with the imToken', async () => {
    const answer = await get(`${calls.list}?pageNum=1&pageSize=5`);
    expect(answer.code, answer.msg).toBe(200);
    const expected = live();
    expect(answer.data.total).toBe(expected.length);
    const rows = answer.data.list as Row[];
    expect(rows.map((r) => r.id)).toEqual(expected.slice(0, 5).map((g) => g.id));
    const first = expected[0]!;
    const owner = sandbox.app.sandbox.members.get(first.id)!.find((m) => m.role === 'owner')!;
    expect(rows[0]).toMatchObject({
      id: first.id,
      name: first.name,
      avatar: first.avatar,
      memberCount: first.memberCount,
      notice: first.notice,
      ownerAccount: String(owner.userId),
      status: 'normal',
      muted: first.muted,
      createTime: new Date(Date.parse(first.createTime)).toISOString(),
    });
  });

  it('searches by name as OpenIM does (a case-sensitive pattern)', async () => {
    const name = live()[3]!.name;
    const answer = await get(`${calls.list}?pageNum=1&pageSize=50&keyword=${encodeURIComponent(name)}`);
    const names = (answer.data.list as Row[]).map((r) => r.name);
    expect(names).toContain(name);
    for (const n of names) expect(String(n)).toContain(name);
  });

  it('opens a group’s page: the record from get_groups_info, its members from get_group_member_list', async () => {
    const group = live().find((g) => (sandbox.app.sandbox.members.get(g.id) ?? []).length > 2)!;
    const answer = await get(`${calls.detail}?id=${group.id}`);
    expect(answer.code, answer.msg).toBe(200);
    expect(answer.data.group).toMatchObject({ id: group.id, name: group.name, status: 'normal' });
    const members = answer.data.members as Row[];
    const stored = sandbox.app.sandbox.members.get(group.id)!;
    expect(members).toHaveLength(stored.length);
    // Owners first, then admins, then members (OpenIM's memberSort).
    expect(members[0]).toMatchObject({ role: 'owner' });
    const order = { owner: 0, admin: 1, member: 2 } as const;
    const roles = members.map((m) => order[m.role as keyof typeof order]);
    expect(roles).toEqual([...roles].sort((a, b) => a - b));
    const one = stored.find((m) => m.role === 'member')!;
    const user = sandbox.app.sandbox.users.get(one.userId)!;
    expect(members.find((m) => m.userId === one.userId)).toMatchObject({
      account: String(one.userId),
      nickname: user.nickname,
      role: 'member',
      muted: one.muted,
      joinTime: new Date(Date.parse(one.joinTime)).toISOString(),
    });
  });

  it('mutes a whole group and lifts it, as the group’s status', async () => {
    const group = live().find((g) => !g.muted)!;
    expect(await act('muteAll', group.id)).toMatchObject({ code: 200 });
    expect(storeGroup(group.id).muted).toBe(true);
    const muted = await get(`${calls.list}?pageNum=1&pageSize=1&id=${group.id}`);
    expect(muted.data.list).toEqual([expect.objectContaining({ id: group.id, muted: true, status: 'normal' })]);
    expect(await act('unmuteAll', group.id)).toMatchObject({ code: 200 });
    expect(storeGroup(group.id).muted).toBe(false);
  });

  it('dissolves a group: it leaves the list, its record reads dissolved, a second time is refused', async () => {
    const group = live()[1]!;
    expect(await act('dissolve', group.id)).toMatchObject({ code: 200 });
    expect(storeGroup(group.id).status).toBe('dissolved');
    const list = await get(`${calls.list}?pageNum=1&pageSize=100`);
    expect((list.data.list as Row[]).map((r) => r.id)).not.toContain(group.id);
    const record = await get(`${calls.detail}?id=${group.id}`);
    expect(record.data.group).toMatchObject({ id: group.id, status: 'dissolved', muted: false });
    const again = await act('dissolve', group.id);
    expect(again.code).toBe(1204);
  });

  it('answers an unknown group as OpenIM does: a missing record, an action refused as not found', async () => {
    const record = await get(`${calls.detail}?id=999999999`);
    expect(record.code).toBe(200);
    expect(record.data.group).toBeUndefined();
    // Go writes the empty member page as null; the page draws no members from it.
    expect(record.data.members).toBeNull();
    expect(await act('muteAll', 999999999)).toMatchObject({ code: 404 });
  });
});
