import { afterEach, beforeAll, expect, it } from 'vitest';
import { seedEjabberd, type Seeded } from '../support/ejabberd-seed.js';
import { describeEjabberd, useEjabberd } from '../support/ejabberd-suite.js';
import { XmppClient } from '../support/xmpp-client.js';

/**
 * ejabberd 23.01's rooms (mod_muc_admin), shared roster groups, rosters and private storage, on
 * a real server whose XMPP host and MUC service are not the defaults, as EJABBERD_HOST and
 * EJABBERD_MUC_HOST allow: the answers the map relies on (docs/dialects/ejabberd.md).
 */

const HOST = 'chat.test';
const MUC = 'rooms.chat.test';

describeEjabberd('ejabberd 23.01 HTTP API: rooms, shared roster groups, private storage', () => {
  const ejabberd = useEjabberd({ host: HOST, mucHost: MUC });
  let seeded: Seeded;
  const clients: XmppClient[] = [];
  const call = (command: string, body: Record<string, unknown> = {}) => ejabberd.server.api(command, body);
  const room = (index: number) => seeded.rooms[index]!;

  beforeAll(async () => {
    seeded = await seedEjabberd(ejabberd.server, { users: 12, rooms: 4 });
  }, 120_000);

  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    await expect.poll(async () => (await call('connected_users_info')).json, { timeout: 30_000 }).toEqual([]);
  });

  it('serves the configured host and MUC service', async () => {
    expect(ejabberd.server.host).toBe(HOST);
    expect(ejabberd.server.mucHost).toBe(MUC);
    expect(await call('registered_vhosts')).toEqual({ status: 200, json: [HOST] });
  });

  it('lists rooms whole as full JIDs, and with public and participants by regex', async () => {
    const { status, json } = await call('muc_online_rooms', { service: MUC });
    expect(status).toBe(200);
    expect((json as string[]).sort()).toEqual(seeded.rooms.map((r) => `${r.name}@${MUC}`).sort());
    expect((await call('muc_online_rooms', { service: 'global' })).json).toEqual(expect.arrayContaining([room(0).jid]));
    const byRegex = (await call('muc_online_rooms_by_regex', { service: MUC, regex: '001' })).json;
    expect(byRegex).toEqual([{ jid: room(0).jid, public: 'true', participants: 0 }]);
  });

  it('answers room options as an object of strings, and {} for a missing room', async () => {
    const { status, json } = await call('get_room_options', { name: room(0).name, service: MUC });
    expect(status).toBe(200);
    expect(json).toMatchObject({
      title: room(0).title,
      description: room(0).description,
      persistent: 'true',
      public: 'true',
      members_only: 'false',
      moderated: 'true',
      max_users: expect.stringMatching(/^\d+$/),
    });
    for (const value of Object.values(json as Record<string, unknown>)) expect(typeof value).toBe('string');
    expect(await call('get_room_options', { name: 'nosuch', service: MUC })).toEqual({ status: 200, json: {} });
  });

  it('changes an option (a title, mute all) and refuses a missing room (400) or an unknown option (500)', async () => {
    const { name } = room(1);
    const option = async (key: string) =>
      ((await call('get_room_options', { name, service: MUC })).json as Record<string, string>)[key];
    expect(await call('change_room_option', { name, service: MUC, option: 'title', value: 'Renamed room' })).toEqual({
      status: 200,
      json: 0,
    });
    expect(await option('title')).toBe('Renamed room');
    // Mute all: newcomers join as visitors, without voice.
    expect(
      await call('change_room_option', { name, service: MUC, option: 'members_by_default', value: 'false' }),
    ).toEqual({
      status: 200,
      json: 0,
    });
    expect(await option('members_by_default')).toBe('false');
    expect(await call('change_room_option', { name: 'nosuch', service: MUC, option: 'title', value: 'x' })).toEqual({
      status: 400,
      json: 'Room not found',
    });
    expect(await call('change_room_option', { name, service: MUC, option: 'no_such_option', value: 'x' })).toEqual({
      status: 500,
      json: 'internal_error',
    });
  });

  it('lists affiliations (owner and members) and sets one; an unknown one is 400', async () => {
    const r = room(2);
    const { status, json } = await call('get_room_affiliations', { name: r.name, service: MUC });
    expect(status).toBe(200);
    expect(json).toEqual(
      expect.arrayContaining([
        { username: r.owner, domain: HOST, affiliation: 'owner', reason: '' },
        ...r.members.map((m) => ({ username: m, domain: HOST, affiliation: 'member', reason: '' })),
      ]),
    );
    expect(json).toHaveLength(1 + r.members.length);
    const jid = `${seeded.users[11]!.account}@${HOST}`;
    expect(await call('set_room_affiliation', { name: r.name, service: MUC, jid, affiliation: 'outcast' })).toEqual({
      status: 200,
      json: 0,
    });
    expect(await call('get_room_affiliation', { name: r.name, service: MUC, jid })).toEqual({
      status: 200,
      json: { affiliation: 'outcast' },
    });
    expect(await call('set_room_affiliation', { name: r.name, service: MUC, jid, affiliation: 'boss' })).toEqual({
      status: 400,
      json: 'Invalid affiliation',
    });
    expect(await call('get_room_affiliations', { name: 'nosuch', service: MUC })).toEqual({
      status: 400,
      json: 'The room does not exist.',
    });
  });

  it('lists occupants with their full JID, nick and role; get_user_rooms is where an account sits now', async () => {
    const r = room(0);
    const u = seeded.users.find((x) => x.account === r.owner)!;
    expect(await call('get_room_occupants', { name: r.name, service: MUC })).toEqual({ status: 200, json: [] });
    const client = await XmppClient.connect({
      port: ejabberd.server.c2sPort,
      host: HOST,
      account: u.account,
      password: u.password,
    });
    clients.push(client);
    await client.joinRoom(r.jid, 'owner-nick');
    expect(await call('get_room_occupants', { name: r.name, service: MUC })).toEqual({
      status: 200,
      json: [{ jid: client.jid, nick: 'owner-nick', role: 'moderator' }],
    });
    expect(await call('get_room_occupants_number', { name: r.name, service: MUC })).toEqual({
      status: 200,
      json: { occupants: 1 },
    });
    expect(await call('get_user_rooms', { user: u.account, host: HOST })).toEqual({ status: 200, json: [r.jid] });
    expect(await call('get_room_occupants', { name: 'nosuch', service: MUC })).toEqual({
      status: 400,
      json: 'room_not_found',
    });
  });

  it('creates a room (an existing one is 400) and destroys it (a missing one is 400)', async () => {
    const body = { name: 'fresh', service: MUC, host: HOST, options: [{ name: 'title', value: 'Fresh' }] };
    expect(await call('create_room_with_opts', body)).toEqual({ status: 200, json: 0 });
    expect(await call('create_room_with_opts', body)).toEqual({ status: 400, json: 'Room already exists' });
    expect((await call('muc_online_rooms', { service: MUC })).json).toContain(`fresh@${MUC}`);
    expect(await call('destroy_room', { name: 'fresh', service: MUC })).toEqual({ status: 200, json: 0 });
    expect((await call('muc_online_rooms', { service: MUC })).json).not.toContain(`fresh@${MUC}`);
    expect(await call('get_room_options', { name: 'fresh', service: MUC })).toEqual({ status: 200, json: {} });
    expect(await call('destroy_room', { name: 'fresh', service: MUC })).toEqual({
      status: 400,
      json: "Room doesn't exists",
    });
  });

  it('keeps shared roster groups: @all@ marks every account, members are listed apart, rosters show them', async () => {
    expect(await call('srg_list', { host: HOST })).toEqual({ status: 200, json: ['everyone'] });
    const info = (await call('srg_get_info', { group: 'everyone', host: HOST })).json as Array<{
      key: string;
      value: string;
    }>;
    expect(Object.fromEntries(info.map(({ key, value }) => [key, value]))).toEqual({
      label: seeded.sharedGroup!.label,
      description: seeded.sharedGroup!.description,
      displayed_groups: 'everyone',
      all_users: 'true',
    });
    expect(await call('srg_get_members', { group: 'everyone', host: HOST })).toEqual({ status: 200, json: [] });
    const account = seeded.users[3]!.account;
    const roster = (await call('get_roster', { user: account, host: HOST })).json as Array<Record<string, string>>;
    expect(roster.map((c) => c.jid)).toEqual(
      expect.arrayContaining([`${seeded.users[4]!.account}@${HOST}`, `admin@${HOST}`]),
    );
    expect(roster[0]).toEqual({
      jid: expect.any(String),
      nick: expect.any(String),
      subscription: 'both',
      ask: 'undefined',
      group: 'Everyone',
    });

    expect(
      await call('srg_create', {
        group: 'staff',
        host: HOST,
        label: 'Staff',
        description: '',
        display: 'staff\\neveryone',
      }),
    ).toEqual({
      status: 200,
      json: 0,
    });
    expect(await call('srg_user_add', { user: account, host: HOST, group: 'staff', grouphost: HOST })).toEqual({
      status: 200,
      json: 0,
    });
    expect(await call('srg_get_members', { group: 'staff', host: HOST })).toEqual({
      status: 200,
      json: [`${account}@${HOST}`],
    });
    const staff = (await call('srg_get_info', { group: 'staff', host: HOST })).json as Array<{
      key: string;
      value: string;
    }>;
    expect(staff).toContainEqual({ key: 'displayed_groups', value: 'staff\neveryone' });
    expect(await call('srg_user_del', { user: account, host: HOST, group: 'staff', grouphost: HOST })).toEqual({
      status: 200,
      json: 0,
    });
    expect(await call('srg_delete', { group: 'staff', host: HOST })).toEqual({ status: 200, json: 0 });
    expect(await call('srg_delete', { group: 'staff', host: HOST })).toEqual({ status: 200, json: 0 });
    expect(await call('srg_get_info', { group: 'staff', host: HOST })).toEqual({ status: 200, json: [] });
  });

  it('shows a group’s members one way, to the groups it is displayed to, accounts made later too', async () => {
    const [friend, other] = [seeded.users[9]!.account, seeded.users[10]!.account];
    const group = (name: string, label: string, display: string) =>
      call('srg_create', { group: name, host: HOST, label, description: '', display });
    const add = (user: string, name: string) =>
      call('srg_user_add', { user, host: HOST, group: name, grouphost: HOST });
    // The seed's `everyone` shows every account to every account: only these groups' labels are read.
    const seen = async (account: string, label: string) =>
      ((await call('get_roster', { user: account, host: HOST })).json as { jid: string; group: string }[])
        .filter((c) => c.group === label)
        .map((c) => c.jid);

    // A member added to a group displayed to one that does not exist yet: ejabberd crashes.
    expect(await group('lonely', 'Lonely', 'nowhere')).toEqual({ status: 200, json: 0 });
    expect(await add(friend, 'lonely')).toEqual({ status: 500, json: 'internal_error' });
    expect(await call('srg_delete', { group: 'lonely', host: HOST })).toEqual({ status: 200, json: 0 });

    // The default friend's layout: both groups first, then their members.
    expect(await group('friend', 'Friends', 'all')).toEqual({ status: 200, json: 0 });
    expect(await group('all', 'All accounts', 'friend')).toEqual({ status: 200, json: 0 });
    expect(await add(friend, 'friend')).toEqual({ status: 200, json: 0 });
    expect(await add('@all@', 'all')).toEqual({ status: 200, json: 0 });
    expect(await seen(other, 'Friends')).toEqual([`${friend}@${HOST}`]);
    expect(await seen(other, 'All accounts')).toEqual([]);
    expect(await seen(friend, 'All accounts')).toContain(`${other}@${HOST}`);
    expect(await call('register', { user: 'newcomer', host: HOST, password: 'pw-newcomer' })).toMatchObject({
      status: 200,
    });
    expect(await seen('newcomer', 'Friends')).toEqual([`${friend}@${HOST}`]);

    // Made again: label and displayed groups rewritten, members kept.
    expect(await group('friend', 'Pals', 'all')).toEqual({ status: 200, json: 0 });
    expect(await call('srg_get_members', { group: 'friend', host: HOST })).toEqual({
      status: 200,
      json: [`${friend}@${HOST}`],
    });
    // Nothing is checked on add: an account that does not exist becomes a member, a missing group is not made.
    expect(await add('nobody', 'friend')).toEqual({ status: 200, json: 0 });
    expect((await call('srg_get_members', { group: 'friend', host: HOST })).json).toContain(`nobody@${HOST}`);
    // …and every account sees it in its roster, an address nobody answers.
    expect((await seen(other, 'Pals')).sort()).toEqual([`${friend}@${HOST}`, `nobody@${HOST}`].sort());
    expect(await add(friend, 'no-such-group')).toEqual({ status: 200, json: 0 });
    expect((await call('srg_list', { host: HOST })).json).not.toContain('no-such-group');

    for (const name of ['friend', 'all']) await call('srg_delete', { group: name, host: HOST });
    await call('unregister', { user: 'newcomer', host: HOST });
    expect(await call('srg_list', { host: HOST })).toEqual({ status: 200, json: ['everyone'] });
  });

  it('adds and lists stored roster items (process_rosteritems lists them for any account)', async () => {
    const [a, b] = [seeded.users[5]!.account, seeded.users[6]!.account];
    const item = { localuser: a, localhost: HOST, user: b, host: HOST, nick: 'Bee', group: 'Friends', subs: 'both' };
    expect(await call('add_rosteritem', item)).toEqual({ status: 200, json: 0 });
    expect((await call('get_roster', { user: a, host: HOST })).json).toContainEqual({
      jid: `${b}@${HOST}`,
      nick: 'Bee',
      subscription: 'both',
      ask: 'undefined',
      group: 'Friends',
    });
    expect(
      await call('process_rosteritems', {
        action: 'list',
        subs: 'any',
        asks: 'any',
        users: `${a}@${HOST}`,
        contacts: 'any',
      }),
    ).toEqual({ status: 200, json: [{ user: `${a}@${HOST}`, contact: `${b}@${HOST}` }] });
    expect(await call('get_roster')).toEqual({ status: 400, json: 'Request have missing argument: user' });
  });

  it('keeps an XML element per account in private storage, where the gateway can keep what ejabberd cannot', async () => {
    const ns = 'urn:chat-admin-console:bans';
    const element = `<bans xmlns="${ns}"><ban user="user0003" at="2026-01-01T00:00:00Z">Spam &amp; abuse</ban></bans>`;
    expect(await call('private_get', { user: 'admin', host: HOST, element: 'bans', ns })).toEqual({
      status: 200,
      json: { res: `<query xmlns='jabber:iq:private'><bans xmlns='${ns}'/></query>` },
    });
    expect(await call('private_set', { user: 'admin', host: HOST, element })).toEqual({ status: 200, json: 0 });
    expect(await call('private_get', { user: 'admin', host: HOST, element: 'bans', ns })).toEqual({
      status: 200,
      json: {
        res: `<query xmlns='jabber:iq:private'><bans xmlns='${ns}'><ban user='user0003' at='2026-01-01T00:00:00Z'>Spam &amp; abuse</ban></bans></query>`,
      },
    });
  });
});
