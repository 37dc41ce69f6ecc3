import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';

/**
 * The sandbox's OpenIM Server (SANDBOX_DIALECT=openim, service `im`) over HTTP, as OpenIM's admin
 * front end calls it: the `imToken` of the chat backend's admin login in `token`, `operationID`,
 * JSON bodies, `{errCode, errMsg, errDlt, data}` at HTTP 200. From `openimsdk/open-im-server`
 * `internal/api/router.go` and `internal/rpc/group/group.go`; each write checked in the store.
 */

type Row = Record<string, unknown>;
interface Answer {
  errCode: number;
  errMsg: string;
  errDlt: string;
  data?: Row;
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

let sandbox: StartedSandbox;
let login: Row;
let seq = 0;

async function post(base: string, path: string, body: unknown, token?: string): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      operationID: `op-${++seq}`,
      ...(token === undefined ? {} : { token }),
    },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

const im = (path: string, body: unknown, token = String(login.imToken)) =>
  post(sandbox.services.im!, path, body, token);
const store = () => sandbox.app.sandbox;
const live = () =>
  store()
    .groups.all()
    .filter((g) => g.status !== 'dissolved')
    .sort((a, b) => Date.parse(b.createTime) - Date.parse(a.createTime));
const page = { pageNumber: 1, showNumber: 10 };

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 13, withdrawalTickMs: 0, dialect: 'openim' });
  const answer = await post(sandbox.url, '/account/login', {
    account: 'admin',
    password: md5('admin123'),
    version: 'openim-admin-front 3.8',
  });
  login = answer.data!;
});

afterAll(async () => {
  await sandbox?.close();
});

describe('the imToken and OpenIM Server’s token check', () => {
  it('hands out an imToken for imAdmin with the login, the same one for four minutes', async () => {
    expect(login).toMatchObject({ imUserID: 'imAdmin', imToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) });
    const again = await post(sandbox.url, '/account/login', {
      account: 'operator',
      password: md5('operator123'),
      version: '1',
    });
    expect(again.data?.imToken).toBe(login.imToken);
  });

  it('accepts the imToken and refuses no token, the chat admin token, and a token it never issued', async () => {
    expect((await im('/group/get_groups', { pagination: page })).errCode).toBe(0);
    expect(await post(sandbox.services.im!, '/group/get_groups', { pagination: page })).toMatchObject({
      errCode: 1001,
      errDlt: 'header must have token',
    });
    // Signed by OpenIM Chat's secret, not OpenIM Server's.
    expect((await im('/group/get_groups', { pagination: page }, String(login.adminToken))).errCode).toBe(1505);
    expect((await im('/group/get_groups', { pagination: page }, 'not-a-jwt')).errCode).toBe(1503);
  });

  it('serves the groups on OpenIM Server only: the chat backend’s APIs do not know them', async () => {
    for (const base of [sandbox.url, sandbox.services.chat!]) {
      const res = await fetch(`${base}/group/get_groups`, {
        method: 'POST',
        headers: { operationID: 'x', token: String(login.adminToken) },
        body: JSON.stringify({ pagination: page }),
      });
      expect(res.status).toBe(404);
    }
  });
});

describe('/group/get_groups', () => {
  it('answers CMSGroup rows: live groups newest first, the owner’s id and nickname beside the GroupInfo', async () => {
    const answer = await im('/group/get_groups', { pagination: { pageNumber: 2, showNumber: 3 } });
    const expected = live();
    expect(answer.data?.total).toBe(expected.length);
    const rows = answer.data?.groups as Row[];
    expect(rows.map((r) => (r.groupInfo as Row).groupID)).toEqual(expected.slice(3, 6).map((g) => String(g.id)));
    const group = expected[3]!;
    const owner = store()
      .members.get(group.id)!
      .find((m) => m.role === 'owner')!;
    expect(Object.keys(rows[0]!)).toEqual(['groupInfo', 'groupOwnerUserName', 'groupOwnerUserID']);
    expect(rows[0]).toMatchObject({
      groupOwnerUserID: String(owner.userId),
      groupOwnerUserName: store().users.get(owner.userId)!.nickname,
      groupInfo: { groupName: group.name, memberCount: group.memberCount, createTime: Date.parse(group.createTime) },
    });
  });

  it('checks the pagination as its Check() does, and answers no rows for a showNumber of 0', async () => {
    expect(await im('/group/get_groups', {})).toMatchObject({ errCode: 1001, errDlt: 'pagination is empty' });
    expect(await im('/group/get_groups', { pagination: { pageNumber: 0, showNumber: 5 } })).toMatchObject({
      errCode: 1001,
      errDlt: 'pageNumber is invalid',
    });
    const none = await im('/group/get_groups', { pagination: { pageNumber: 1, showNumber: 0 } });
    expect(none.data).toEqual({ total: live().length, groups: null });
  });

  it('searches the name as a case-sensitive pattern, and finds one group by id', async () => {
    const group = live()[2]!;
    const upper = await im('/group/get_groups', { pagination: page, groupName: group.name.toUpperCase() });
    const names = ((upper.data?.groups as Row[] | null) ?? []).map((r) => (r.groupInfo as Row).groupName);
    if (group.name !== group.name.toUpperCase()) expect(names).not.toContain(group.name);
    const one = await im('/group/get_groups', { pagination: page, groupID: String(group.id) });
    expect(one.data?.total).toBe(1);
  });
});

describe('/group/get_groups_info and /group/get_group_member_list', () => {
  it('answers the GroupInfo of known ids, leaving unknown ones out, and refuses none', async () => {
    const group = live()[0]!;
    const answer = await im('/group/get_groups_info', { groupIDs: [String(group.id), '424242424'] });
    expect((answer.data?.groupInfos as Row[]).map((g) => g.groupID)).toEqual([String(group.id)]);
    expect(await im('/group/get_groups_info', {})).toMatchObject({ errCode: 1001 });
  });

  it('pages the members owners first, with OpenIM’s role levels and mute ends', async () => {
    const group = live().find((g) => (store().members.get(g.id) ?? []).length > 3)!;
    const stored = store().members.get(group.id)!;
    const answer = await im('/group/get_group_member_list', { groupID: String(group.id), pagination: page });
    expect(answer.data?.total).toBe(stored.length);
    const members = answer.data?.members as Row[];
    expect(members[0]).toMatchObject({ roleLevel: 100, groupID: String(group.id) });
    for (const m of members) {
      const kept = stored.find((s) => String(s.userId) === m.userID)!;
      expect(m.roleLevel).toBe({ owner: 100, admin: 60, member: 20 }[kept.role]);
      expect((m.muteEndTime as number) > Date.now()).toBe(kept.muted);
    }
    expect(await im('/group/get_group_member_list', { pagination: page })).toMatchObject({
      errCode: 1001,
      errDlt: 'groupID is empty',
    });
  });
});

describe('/group/mute_group, cancel_mute_group and dismiss_group', () => {
  it('mutes and unmutes through the one status field (3, then 0)', async () => {
    const group = live().find((g) => !g.muted)!;
    expect((await im('/group/mute_group', { groupID: String(group.id) })).errCode).toBe(0);
    const info = await im('/group/get_groups_info', { groupIDs: [String(group.id)] });
    expect((info.data?.groupInfos as Row[])[0]!.status).toBe(3);
    expect(store().groups.get(group.id)!.muted).toBe(true);
    expect((await im('/group/cancel_mute_group', { groupID: String(group.id) })).errCode).toBe(0);
    expect(store().groups.get(group.id)!.muted).toBe(false);
    expect(await im('/group/mute_group', { groupID: '424242424' })).toMatchObject({ errCode: 1004 });
  });

  it('dismisses a group once (1204 after), keeping its members unless deleteMember', async () => {
    const [keep, drop] = live().filter((g) => (store().members.get(g.id) ?? []).length > 0);
    const members = store().members.get(keep!.id)!.length;
    expect((await im('/group/dismiss_group', { groupID: String(keep!.id) })).errCode).toBe(0);
    expect(store().groups.get(keep!.id)!.status).toBe('dissolved');
    expect(store().members.get(keep!.id)!.length).toBe(members);
    expect(await im('/group/dismiss_group', { groupID: String(keep!.id) })).toMatchObject({
      errCode: 1204,
      errMsg: 'DismissedAlreadyError',
    });
    expect((await im('/group/dismiss_group', { groupID: String(drop!.id), deleteMember: true })).errCode).toBe(0);
    expect(store().members.get(drop!.id)).toEqual([]);
    expect(await im('/group/dismiss_group', { groupID: '424242424' })).toMatchObject({ errCode: 1004 });
  });
});
