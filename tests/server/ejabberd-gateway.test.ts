import { beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { RESOURCES, resourceCalls, CALLS } from '../../server/contract/index.js';
import { describeEjabberd, useEjabberd } from '../support/ejabberd-suite.js';
import { seedEjabberd, type Seeded } from '../support/ejabberd-seed.js';
import { XmppClient } from '../support/xmpp-client.js';
import { SAME_ORIGIN, buildTestGateway, parseSetCookies } from './support/gateway.js';

/**
 * The console bound to a real ejabberd 23.01 (Debian's package) by the shipped map: every call the
 * map binds goes through the gateway to the server, and every write is checked through ejabberd's
 * own API, never through the gateway that made it.
 */

const MAP = 'server/backend-map/bindings/ejabberd.json';
const calls = (id: string) => resourceCalls(RESOURCES.find((r) => r.id === id)!);
const users = calls('users');
const groups = calls('groups');
const online = calls('onlineUsers');
const mass = calls('massMessages');
const friends = calls('defaultFriends');

// The gateway's answers here have many shapes (pages, records, figures), read member by member in the assertions.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { code: number; msg?: string; data?: any };

describeEjabberd('the console on a real ejabberd', () => {
  const ej = useEjabberd({ host: 'chat.test', mucHost: 'rooms.chat.test' });
  let app: FastifyInstance;
  let seeded: Seeded;
  let cookie = '';

  const get = async (path: string) => {
    const res = await app.inject({ method: 'GET', url: path, headers: { cookie } });
    return res.json() as Answer;
  };
  const post = async (path: string, body: unknown) => {
    const res = await app.inject({
      method: 'POST',
      url: path,
      headers: { cookie, ...SAME_ORIGIN },
      payload: body as object,
    });
    return res.json() as Answer;
  };
  const logIn = async (account: string, password: string) =>
    app.inject({ method: 'POST', url: CALLS.login, headers: SAME_ORIGIN, payload: { account, password } });

  beforeAll(async () => {
    const server = ej.server;
    seeded = await seedEjabberd(server, { users: 40, rooms: 3 });
    app = await buildTestGateway({
      BACKEND_MAP: MAP,
      CHAT_BACKEND_URL: server.url,
      EJABBERD_HOST: server.host,
      EJABBERD_MUC_HOST: server.mucHost,
    });
    const res = await logIn(server.admin.account, server.admin.password);
    expect(res.json()).toMatchObject({ code: 200, data: { userId: `${server.admin.account}@${server.host}` } });
    const token = parseSetCookies(res.headers['set-cookie']).get('token')!.value;
    cookie = `token=${token}`;
    // The credentials stay sealed: neither the password nor its Basic form reaches the browser.
    expect(token).not.toContain(server.admin.password);
    expect(token).not.toContain(
      Buffer.from(`${server.admin.account}@${server.host}:${server.admin.password}`).toString('base64'),
    );
  }, 180_000);

  it('lets only the server’s administrators in, with the console’s wrong-login answer for the rest', async () => {
    const { server } = ej;
    expect((await logIn(server.admin.account, 'wrong')).json()).toMatchObject({ code: 1001 });
    // A real account with its right password, but not in the admin ACL: ejabberd answers 403.
    expect((await logIn(server.user.account, server.user.password)).json()).toMatchObject({ code: 1001 });
    expect((await logIn(`${server.admin.account}@${server.host}`, server.admin.password)).json()).toMatchObject({
      code: 200,
    });
  });

  it('pages, searches and sorts the whole account list at the gateway, with nicknames and last seen per row', async () => {
    const total = seeded.users.length + 2; // the admin and the non-admin account
    const first = await get(`${users.list}?pageNum=1&pageSize=10&sort=account`);
    expect(first.code).toBe(200);
    expect(first.data.total).toBe(total);
    expect(first.data.list).toHaveLength(10);
    const accounts = first.data.list.map((r: { account: string }) => r.account);
    expect(accounts).toEqual([...accounts].sort());
    const last = await get(`${users.list}?pageNum=5&pageSize=10&sort=-account`);
    expect(last.data.list).toHaveLength(total - 40);
    const one = seeded.users.find((u) => u.lastSeen !== null)!;
    const found = await get(`${users.list}?keyword=${one.account.toUpperCase()}`);
    expect(found.data.total).toBe(1);
    expect(found.data.list[0]).toMatchObject({
      id: one.account,
      account: one.account,
      nickname: one.nickname,
      status: 'normal',
      lastLoginTime: new Date(one.lastSeen! * 1000).toISOString(),
    });
    const never = seeded.users.find((u) => u.lastSeen === null)!;
    const row = (await get(`${users.list}?id=${never.account}`)).data.list[0];
    // get_last's "Registered but didn't login" time is no login: left out, not shown as one.
    expect(row.lastLoginTime).toBeUndefined();
    expect(row.nickname).toBe(never.nickname);
  });

  it('edits a nickname, resets a password, bans with a kept reason and unbans, each checked in ejabberd', async () => {
    const { server } = ej;
    const [a, b] = seeded.users;
    expect(await post(users.save, { id: a!.account, nickname: 'Renamed 名前' })).toMatchObject({ code: 200 });
    expect((await server.api('get_vcard', { user: a!.account, host: server.host, name: 'NICKNAME' })).json).toEqual({
      content: 'Renamed 名前',
    });
    const reset = await post(users.action('resetPassword'), { id: a!.account });
    expect(reset.data.password).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(
      (await server.api('check_password', { user: a!.account, host: server.host, password: reset.data.password })).json,
    ).toBe(0);

    expect(await post(users.action('ban'), { id: b!.account, reason: 'spam links' })).toMatchObject({ code: 200 });
    expect(
      (await server.api('check_password', { user: b!.account, host: server.host, password: b!.password })).json,
    ).toBe(1);
    const banned = await get(`${users.list}?status=banned`);
    expect(banned.data.list.map((r: { id: string }) => r.id)).toEqual([b!.account]);
    const detail = await get(`${users.detail}?id=${b!.account}`);
    expect(detail.data.user).toMatchObject({ id: b!.account, status: 'banned' });
    expect(detail.data.ban).toMatchObject({ reason: 'spam links', by: server.admin.account });
    expect(await post(users.action('unban'), { id: b!.account })).toMatchObject({ code: 200 });
    expect((await get(`${users.list}?status=banned`)).data.total).toBe(0);
  });

  it('shows rooms with their options and affiliations, mutes them all and dissolves one', async () => {
    const { server } = ej;
    const room = seeded.rooms[0]!;
    const list = await get(`${groups.list}?pageSize=20`);
    expect(list.data.total).toBe(seeded.rooms.length);
    const detail = await get(`${groups.detail}?id=${room.name}`);
    expect(detail.data.group).toMatchObject({
      id: room.name,
      name: room.title,
      notice: room.description,
      muted: false,
    });
    expect(detail.data.members).toEqual(
      expect.arrayContaining([expect.objectContaining({ account: room.owner, role: 'owner' })]),
    );
    expect(await post(groups.action('muteAll'), { id: room.name })).toMatchObject({ code: 200 });
    const options = (await server.api('get_room_options', { name: room.name, service: server.mucHost })).json as Record<
      string,
      string
    >;
    expect(options.members_by_default).toBe('false');
    expect((await get(`${groups.list}?id=${room.name}`)).data.list[0].muted).toBe(true);
    expect(await post(groups.action('dissolve'), { id: room.name })).toMatchObject({ code: 200 });
    const rooms = (await server.api('muc_online_rooms', { service: server.mucHost })).json as string[];
    expect(rooms).not.toContain(room.jid);
  });

  it('lists who is online and kicks them', async () => {
    const { server } = ej;
    const user = seeded.users[5]!;
    const client = await XmppClient.connect({
      port: server.c2sPort,
      host: server.host,
      account: user.account,
      password: user.password,
    });
    try {
      const list = await get(online.list);
      const row = list.data.list.find((r: { account: string }) => r.account === user.account);
      expect(row).toMatchObject({ account: user.account, ip: expect.any(String) });
      expect(await post(online.action('forceLogout'), { id: row.id })).toMatchObject({ code: 200 });
      await client.waitClosed();
    } finally {
      await client.close();
    }
  });

  it('sends a mass message to every account, stored offline for those not connected', async () => {
    const { server } = ej;
    const user = seeded.users[7]!;
    const before = (await server.api('get_offline_count', { user: user.account, host: server.host })).json as {
      value: number;
    };
    const sent = await post(mass.action('send'), {
      segment: 'all',
      title: 'Maintenance <tonight>',
      content: 'Back at 02:00 & later',
    });
    expect(sent).toMatchObject({ code: 200, data: { state: 'sent' } });
    // mod_announce fans the message out in its own process after send_stanza answers: wait for the store.
    const count = async () =>
      ((await server.api('get_offline_count', { user: user.account, host: server.host })).json as { value: number })
        .value;
    await expect.poll(count, { timeout: 30_000 }).toBe(before.value + 1);
  });

  it('sends a mass message to the accounts online only: a connected one receives it, nothing is stored offline', async () => {
    const { server } = ej;
    const [here, away] = seeded.users.slice(24, 26);
    const offline = async () =>
      ((await server.api('get_offline_count', { user: away!.account, host: server.host })).json as { value: number })
        .value;
    const before = await offline();
    const client = await XmppClient.connect({
      port: server.c2sPort,
      host: server.host,
      account: here!.account,
      password: here!.password,
    });
    try {
      // Online once ejabberd lists the session (the client's login can be answered before the
      // server has it among the host's sessions, which announce/online reads).
      await expect
        .poll(
          async () =>
            ((await server.api('user_sessions_info', { user: here!.account, host: server.host })).json as unknown[])
              .length,
          { timeout: 30_000 },
        )
        .toBeGreaterThan(0);
      const sent = await post(mass.action('send'), {
        segment: 'online',
        title: 'Now',
        content: 'Restart in 5 minutes',
      });
      expect(sent).toMatchObject({ code: 200, data: { segment: 'online', state: 'sent' } });
      await expect.poll(() => client.received.includes('Restart in 5 minutes'), { timeout: 30_000 }).toBe(true);
      // A message to /announce/all sent after it is stored for the offline account: once that one is
      // counted, mod_announce has handled the earlier one, which stored nothing.
      await post(mass.action('send'), { segment: 'all', title: 'Later', content: 'For everyone' });
      await expect.poll(offline, { timeout: 30_000 }).toBe(before + 1);
    } finally {
      await client.close();
    }
  }, 90_000);

  it('offers only the audiences ejabberd can announce to: all and online', async () => {
    const offer = (await app.inject({ method: 'GET', url: '/api/backend-offer', headers: { cookie } })).json();
    expect(offer.inputOptions).toEqual({ massMessages: { segment: ['all', 'online'] } });
  });

  it('answers a user’s roster, added through ejabberd’s own add_rosteritem, as the detail’s friends', async () => {
    const { server } = ej;
    const [owner, contact] = seeded.users.slice(20, 22);
    expect(
      (
        await server.api('add_rosteritem', {
          localuser: owner!.account,
          localhost: server.host,
          user: contact!.account,
          host: server.host,
          nick: 'Old friend',
          group: 'Friends',
          subs: 'both',
        })
      ).json,
    ).toBe(0);
    const detail = await get(`${users.detail}?id=${owner!.account}`);
    expect(detail.code).toBe(200);
    expect(detail.data.user).toMatchObject({ id: owner!.account });
    expect(detail.data.friends).toContainEqual(
      expect.objectContaining({
        account: `${contact!.account}@${server.host}`,
        nickname: 'Old friend',
        subscription: 'both',
      }),
    );
  });

  it('makes, lists and deletes a default friend as two shared roster groups, seen in every roster', async () => {
    const { server } = ej;
    const [friend, ann, bob] = seeded.users.slice(10, 13);
    const host = server.host;
    // The seed's shared group `everyone` shows every account to every account: its entries are left out here.
    const rosterOf = async (account: string) =>
      ((await server.api('get_roster', { user: account, host })).json as { jid: string; group: string }[])
        .filter((c) => c.group !== seeded.sharedGroup!.label)
        .map((c) => `${c.jid} ${c.group}`);
    // A shared roster group the console did not make is not a default friend.
    expect(
      (await server.api('srg_create', { group: 'staff', host, label: 'Staff', description: '', display: '' })).json,
    ).toBe(0);

    expect(await post(friends.save, { userAccount: friend!.account })).toMatchObject({ code: 200 });
    const groupsNow = (await server.api('srg_list', { host })).json as string[];
    expect(groupsNow).toEqual(
      expect.arrayContaining([`console-friend-${friend!.account}`, `console-everyone-${friend!.account}`, 'everyone']),
    );
    expect((await server.api('srg_get_members', { group: `console-friend-${friend!.account}`, host })).json).toEqual([
      `${friend!.account}@${host}`,
    ]);
    // Every account sees the friend, and only the friend; the friend sees every account.
    expect(await rosterOf(ann!.account)).toEqual([`${friend!.account}@${host} Friends`]);
    expect(await rosterOf(bob!.account)).toEqual([`${friend!.account}@${host} Friends`]);
    expect(await rosterOf(friend!.account)).toEqual(
      expect.arrayContaining([`${ann!.account}@${host} All accounts`, `${bob!.account}@${host} All accounts`]),
    );

    const list = await get(`${friends.list}?pageSize=20`);
    expect(list.data.total).toBe(1);
    expect(list.data.list[0]).toMatchObject({
      id: friend!.account,
      userAccount: friend!.account,
      nickname: friend!.nickname,
    });
    expect((await get(`${friends.list}?id=${friend!.account}`)).data.list).toHaveLength(1);

    expect(await post(friends.remove, { ids: [friend!.account] })).toMatchObject({ code: 200 });
    expect(((await server.api('srg_list', { host })).json as string[]).sort()).toEqual(['everyone', 'staff']);
    expect(await rosterOf(ann!.account)).toEqual([]);
    expect((await get(friends.list)).data.total).toBe(0);
  });

  it('deletes several default friends at once, both groups of each', async () => {
    const { server } = ej;
    const host = server.host;
    const accounts = seeded.users.slice(14, 16).map((u) => u.account);
    for (const account of accounts) {
      expect(await post(friends.save, { userAccount: account })).toMatchObject({ code: 200 });
    }
    expect((await get(friends.list)).data.total).toBe(2);
    expect(await post(friends.remove, { ids: accounts })).toMatchObject({ code: 200 });
    const left = (await server.api('srg_list', { host })).json as string[];
    expect(left.filter((g) => g.startsWith('console-'))).toEqual([]);
  });

  it('counts accounts, rooms and who is online for the dashboard, and offers only what it binds', async () => {
    const count = await get('/manage/count');
    expect(count.data).toMatchObject({ userCount: seeded.users.length + 2, onlineUsers: expect.any(Number) });
    expect(count.data.groupCount).toBeGreaterThanOrEqual(seeded.rooms.length - 1);
    const offer = (await app.inject({ method: 'GET', url: '/api/backend-offer', headers: { cookie } })).json();
    expect(offer.unsupported.resources).toContain('withdrawalReview');
    expect(offer.unsupported.resources).not.toContain('users');
    expect(offer.unsupported.resources).not.toContain('defaultFriends');
    expect(offer.unsupported.resources).toContain('defaultGroups');
    expect(offer.unsupported.calls.defaultFriends).toEqual(['update']);
    expect(offer.unsupported.fields.defaultFriends).toEqual(['welcomeMessage', 'sort', 'createTime']);
  });
});
