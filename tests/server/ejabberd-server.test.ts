import { afterEach, beforeAll, expect, it } from 'vitest';
import { seedEjabberd, type Seeded } from '../support/ejabberd-seed.js';
import { describeEjabberd, useEjabberd } from '../support/ejabberd-suite.js';
import { XmppClient } from '../support/xmpp-client.js';

/**
 * What ejabberd 23.01's HTTP API answers, on a real server started from Debian's package: the
 * facts the ejabberd map relies on (accounts, vCards, last activity, sessions, offline messages,
 * announcements, statistics), so an upgrade that changes one fails here, beside
 * docs/dialects/ejabberd.md, before it fails in the browser. Rooms, shared roster groups and
 * private storage: ejabberd-rooms.test.ts.
 */

describeEjabberd('ejabberd 23.01 HTTP API: accounts, sessions, messages', () => {
  const ejabberd = useEjabberd();
  let seeded: Seeded;
  const clients: XmppClient[] = [];
  const online = async (account: string, password: string, resource = 'desk') => {
    const { c2sPort, host } = ejabberd.server;
    const client = await XmppClient.connect({ port: c2sPort, host, account, password, resource });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    // 200 accounts: the seeding must stay quick at the size a browser walk pages through.
    const started = Date.now();
    seeded = await seedEjabberd(ejabberd.server, { users: 200, rooms: 2 });
    process.stdout.write(
      `ejabberd started in ${ejabberd.server.startedInMs} ms; 200 accounts seeded in ${Date.now() - started} ms\n`,
    );
  }, 180_000);

  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
    // A closed session lingers a moment (status "unavailable"): the next test starts with none.
    await expect.poll(async () => (await call('connected_users_info')).json, { timeout: 30_000 }).toEqual([]);
  });

  const call = (command: string, body: Record<string, unknown> = {}) => ejabberd.server.api(command, body);
  const user = (index: number) => seeded.users[index]!;
  const host = () => ejabberd.server.host;

  it('refuses a wrong password (401), a non-admin or no credentials (403) and an unknown command (404 or 400)', async () => {
    const { server } = ejabberd;
    expect(await server.api('status', {}, { account: server.admin.account, password: 'wrong' })).toEqual({
      status: 401,
      json: { status: 'error', code: 10, message: 'You are not authorized to call this command.' },
    });
    expect(await server.api('registered_users', { host: host() }, server.user)).toEqual({
      status: 403,
      json: {
        status: 'error',
        code: 32,
        message: 'AccessRules: Account does not have the right to perform the operation.',
      },
    });
    expect((await server.api('status', {}, null)).json).toMatchObject({ code: 32 });
    expect(await call('no_such_command')).toEqual({
      status: 404,
      json: { status: 'error', code: 40, message: 'Endpoint not found.' },
    });
    // A name the VM knows as an atom (a function somewhere) but no command: 400, not 404.
    expect(await call('set_motd', { host: host(), content: 'x' })).toEqual({ status: 400, json: 'unknown_command' });
    expect(await call('registered_users')).toEqual({ status: 400, json: 'Request have missing argument: host' });
    expect(await call('registered_users', { host: 'no.such.host' })).toEqual({
      status: 400,
      json: 'Unknown virtual host',
    });
  });

  it('lists every registered account in one answer: bare names, sorted, no paging', async () => {
    const { json, status } = await call('registered_users', { host: host() });
    expect(status).toBe(200);
    const expected = ['admin', 'user', ...seeded.users.map((u) => u.account)].sort();
    expect(json).toEqual(expected);
    expect(expected).toHaveLength(202);
    expect(await call('stats', { name: 'registeredusers' })).toEqual({ status: 200, json: { stat: 202 } });
    expect(await call('stats_host', { name: 'registeredusers', host: host() })).toEqual({
      status: 200,
      json: { stat: 202 },
    });
  });

  it('answers check_password and check_account with a bare 0 (yes) or 1 (no), never an HTTP error', async () => {
    const { account, password } = user(0);
    expect(await call('check_password', { user: account, host: host(), password })).toEqual({ status: 200, json: 0 });
    expect(await call('check_password', { user: account, host: host(), password: 'nope' })).toEqual({
      status: 200,
      json: 1,
    });
    expect(await call('check_password', { user: 'nobody', host: host(), password })).toEqual({ status: 200, json: 1 });
    expect(await call('check_account', { user: account, host: host() })).toEqual({ status: 200, json: 0 });
    expect(await call('check_account', { user: 'nobody', host: host() })).toEqual({ status: 200, json: 1 });
    expect(await call('register', { user: account, host: host(), password: 'x' })).toEqual({
      status: 409,
      json: { status: 'error', code: 10090, message: `User ${account}@${host()} already registered` },
    });
  });

  it('reads vCard fields, and answers a missing vCard or field with a 400 string', async () => {
    const u = user(4);
    expect(await call('get_vcard', { user: u.account, host: host(), name: 'NICKNAME' })).toEqual({
      status: 200,
      json: { content: u.nickname },
    });
    expect(await call('get_vcard', { user: u.account, host: host(), name: 'FN' })).toEqual({
      status: 200,
      json: { content: u.fullName },
    });
    expect(await call('get_vcard', { user: u.account, host: host(), name: 'EMAIL' })).toEqual({
      status: 400,
      json: 'error_no_value_found_in_vcard',
    });
    expect(await call('get_vcard', { user: 'admin', host: host(), name: 'NICKNAME' })).toEqual({
      status: 400,
      json: 'error_no_vcard_found',
    });
    expect(await call('set_nickname', { user: u.account, host: host(), nickname: 'Renamed 5' })).toEqual({
      status: 200,
      json: 0,
    });
    expect((await call('get_vcard', { user: u.account, host: host(), name: 'NICKNAME' })).json).toEqual({
      content: 'Renamed 5',
    });
  });

  it('reads last activity: a set time, "never logged in", "NOT FOUND" for no account, and ONLINE', async () => {
    const seen = seeded.users.find((u) => u.lastSeen !== null && u.lastStatus)!;
    expect(await call('get_last', { user: seen.account, host: host() })).toEqual({
      status: 200,
      json: { timestamp: new Date(seen.lastSeen! * 1000).toISOString().replace('.000Z', 'Z'), status: seen.lastStatus },
    });
    const never = seeded.users.find((u) => u.lastSeen === null)!;
    const neverAnswer = (await call('get_last', { user: never.account, host: host() })).json as Record<string, string>;
    expect(neverAnswer.status).toBe("Registered but didn't login");
    expect(neverAnswer.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const missing = (await call('get_last', { user: 'nobody', host: host() })).json as Record<string, string>;
    expect(missing.status).toBe('NOT FOUND');
    const u = user(6);
    await online(u.account, u.password);
    expect(((await call('get_last', { user: u.account, host: host() })).json as Record<string, string>).status).toBe(
      'ONLINE',
    );
  });

  it('lists sessions whole (empty when nobody is connected), counts them, and kicks one or all', async () => {
    expect(await call('connected_users_info')).toEqual({ status: 200, json: [] });
    expect(await call('stats', { name: 'onlineusers' })).toEqual({ status: 200, json: { stat: 0 } });
    const u = user(1);
    const desk = await online(u.account, u.password, 'desk');
    const phone = await online(u.account, u.password, 'phone');
    const sessions = (await call('connected_users_info')).json as Array<Record<string, unknown>>;
    expect(sessions.map((s) => s.jid).sort()).toEqual([desk.jid, phone.jid]);
    expect(sessions[0]).toMatchObject({
      connection: 'c2s',
      ip: '127.0.0.1',
      priority: 0,
      status: 'available',
      statustext: '',
    });
    expect(Object.keys(sessions[0]!).sort()).toEqual(
      ['connection', 'ip', 'jid', 'node', 'port', 'priority', 'resource', 'status', 'statustext', 'uptime'].sort(),
    );
    expect(await call('connected_users_number')).toEqual({ status: 200, json: { num_sessions: 2 } });
    expect(await call('stats_host', { name: 'onlineusers', host: host() })).toEqual({ status: 200, json: { stat: 2 } });
    const mine = (await call('user_sessions_info', { user: u.account, host: host() })).json as Array<
      Record<string, unknown>
    >;
    expect(mine.map((s) => s.resource).sort()).toEqual(['desk', 'phone']);
    expect(mine[0]).not.toHaveProperty('jid');

    expect(
      await call('kick_session', { user: u.account, host: host(), resource: 'desk', reason: 'Kicked by the console' }),
    ).toEqual({ status: 200, json: 0 });
    await desk.waitClosed();
    await expect
      .poll(async () => (await call('user_resources', { user: u.account, host: host() })).json)
      .toEqual(['phone']);
    expect(await call('kick_user', { user: u.account, host: host() })).toEqual({
      status: 200,
      json: { num_resources: 1 },
    });
    await phone.waitClosed();
    await expect.poll(async () => (await call('connected_users_info')).json).toEqual([]);
    expect(await call('kick_user', { user: u.account, host: host() })).toEqual({
      status: 200,
      json: { num_resources: 0 },
    });
    expect(await call('kick_session', { user: u.account, host: host(), resource: 'gone', reason: '' })).toEqual({
      status: 200,
      json: 0,
    });
  });

  it('bans by kicking every session and replacing the password; change_password lifts it', async () => {
    const u = user(2);
    const client = await online(u.account, u.password);
    expect(await call('ban_account', { user: u.account, host: host(), reason: 'Spam' })).toEqual({
      status: 200,
      json: 0,
    });
    await client.waitClosed();
    expect(await call('check_password', { user: u.account, host: host(), password: u.password })).toEqual({
      status: 200,
      json: 1,
    });
    // Still registered: a ban is no delete.
    expect(await call('check_account', { user: u.account, host: host() })).toEqual({ status: 200, json: 0 });
    // 23.01 has no unban and no ban details.
    expect((await call('unban_account', { user: u.account, host: host() })).status).toBe(404);
    expect((await call('get_ban_details', { user: u.account, host: host() })).status).toBe(404);
    expect(await call('change_password', { user: u.account, host: host(), newpass: u.password })).toEqual({
      status: 200,
      json: 0,
    });
    expect(await call('check_password', { user: u.account, host: host(), password: u.password })).toEqual({
      status: 200,
      json: 0,
    });
    // A ban of a missing account creates it (check_account first), and the registeredusers counter misses it.
    const counted = await call('stats', { name: 'registeredusers' });
    expect(await call('ban_account', { user: 'ghost', host: host(), reason: 'x' })).toEqual({ status: 200, json: 0 });
    expect(await call('check_account', { user: 'ghost', host: host() })).toEqual({ status: 200, json: 0 });
    expect((await call('registered_users', { host: host() })).json).toContain('ghost');
    expect(await call('stats', { name: 'registeredusers' })).toEqual(counted);
    expect(await call('unregister', { user: 'ghost', host: host() })).toEqual({ status: 200, json: '' });
  });

  it('deletes an account (200 "", also when it is already gone); stats registeredusers is a counter that drifts', async () => {
    const before = ((await call('stats', { name: 'registeredusers' })).json as { stat: number }).stat;
    const u = user(199);
    expect(await call('unregister', { user: u.account, host: host() })).toEqual({ status: 200, json: '' });
    expect(await call('check_account', { user: u.account, host: host() })).toEqual({ status: 200, json: 1 });
    expect((await call('registered_users', { host: host() })).json).not.toContain(u.account);
    expect(await call('unregister', { user: u.account, host: host() })).toEqual({ status: 200, json: '' });
    // Counted down twice for one account: count registered_users, never this counter.
    expect(await call('stats', { name: 'registeredusers' })).toEqual({ status: 200, json: { stat: before - 2 } });
  });

  it('stores chat messages offline (not headlines) and counts them per account, named by the admin', async () => {
    // user0001 gets seeded messages and no test logs it in (a login delivers and empties them).
    const first = user(0).account;
    expect(seeded.offline[first]).toBeGreaterThan(0);
    expect(await call('get_offline_count', { user: first, host: host() })).toEqual({
      status: 200,
      json: { value: seeded.offline[first] },
    });
    const u = user(10);
    const count = async () =>
      ((await call('get_offline_count', { user: u.account, host: host() })).json as { value: number }).value;
    expect(await count()).toBe(0);
    const send = (type: string) =>
      call('send_message', {
        type,
        from: `admin@${host()}`,
        to: `${u.account}@${host()}`,
        subject: '',
        body: `a ${type}`,
      });
    expect(await send('chat')).toEqual({ status: 200, json: 0 });
    expect(await send('normal')).toEqual({ status: 200, json: 0 });
    expect(await send('headline')).toEqual({ status: 200, json: 0 });
    expect(await count()).toBe(2);
    expect(await call('get_offline_count')).toEqual({ status: 400, json: 'Request have missing argument: user' });
    // To an account that does not exist: accepted, nothing stored.
    expect(
      await call('send_message', {
        type: 'chat',
        from: `admin@${host()}`,
        to: `nobody@${host()}`,
        subject: '',
        body: 'x',
      }),
    ).toEqual({
      status: 200,
      json: 0,
    });
  });

  it('answers a roster as a bare list of {jid, nick, subscription, ask, group}, a contact once per group', async () => {
    const owner = user(20);
    const contact = user(21);
    expect(
      await call('add_rosteritem', {
        localuser: owner.account,
        localhost: host(),
        user: contact.account,
        host: host(),
        nick: 'Cousin <Ann>',
        group: 'Family',
        subs: 'both',
      }),
    ).toEqual({ status: 200, json: 0 });
    const roster = await call('get_roster', { user: owner.account, host: host() });
    expect(roster.status).toBe(200);
    const entries = roster.json as Record<string, unknown>[];
    // One entry per roster group: the contact is also in the seeded shared group (@all@), under the same nick.
    const jid = `${contact.account}@${host()}`;
    expect(entries.filter((e) => e.jid === jid)).toEqual([
      { jid, nick: 'Cousin <Ann>', subscription: 'both', ask: 'undefined', group: 'Family' },
      { jid, nick: 'Cousin <Ann>', subscription: 'both', ask: 'undefined', group: 'Everyone' },
    ]);
    expect(new Set(entries.map((e) => e.jid)).size).toBeGreaterThan(100);
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual(['ask', 'group', 'jid', 'nick', 'subscription']);
    }
  });

  it('sends to every registered account through mod_announce: offline ones get it stored, online ones live', async () => {
    const offlineUser = user(11);
    const onlineUser = user(12);
    const countOf = async (account: string) =>
      ((await call('get_offline_count', { user: account, host: host() })).json as { value: number }).value;
    const before = await countOf(offlineUser.account);
    const client = await online(onlineUser.account, onlineUser.password);
    const body = 'Maintenance tonight at 22:00';
    expect(
      await call('send_stanza', {
        from: `admin@${host()}`,
        to: `${host()}/announce/all`,
        stanza: `<message><subject>Notice</subject><body>${body}</body></message>`,
      }),
    ).toEqual({ status: 200, json: 0 });
    await expect.poll(() => countOf(offlineUser.account)).toBe(before + 1);
    await expect.poll(() => client.received.includes(body)).toBe(true);
    expect(await countOf(onlineUser.account)).toBe(0);
    expect(await call('send_stanza', { from: `admin@${host()}`, to: host(), stanza: 'not xml' })).toEqual({
      status: 400,
      json: 'syntax error',
    });
  });

  it('sets the message of the day with send_stanza (23.01 has no motd command) and a login receives it', async () => {
    expect(await call('get_motd')).toEqual({ status: 400, json: 'unknown_command' });
    const motd = 'Welcome to the seeded server';
    expect(
      await call('send_stanza', {
        from: `admin@${host()}`,
        to: `${host()}/announce/motd/update`,
        stanza: `<message><body>${motd}</body></message>`,
      }),
    ).toEqual({ status: 200, json: 0 });
    const u = user(13);
    const client = await online(u.account, u.password);
    await expect.poll(() => client.received.includes(motd)).toBe(true);
    expect(
      await call('send_stanza', {
        from: `admin@${host()}`,
        to: `${host()}/announce/motd/delete`,
        stanza: '<message/>',
      }),
    ).toEqual({ status: 200, json: 0 });
  });

  it('answers the statistics it has, and 500 for a name it does not know', async () => {
    for (const name of ['onlineusersnode', 'uptimeseconds', 'processes']) {
      const { status, json } = await call('stats', { name });
      expect(status).toBe(200);
      expect(json).toEqual({ stat: expect.any(Number) });
    }
    expect(await call('stats', { name: 'messages_today' })).toEqual({ status: 500, json: 'internal_error' });
    expect(await call('stats_host', { name: 'registeredusers', host: 'no.such.host' })).toEqual({
      status: 200,
      json: { stat: 0 },
    });
  });
});
