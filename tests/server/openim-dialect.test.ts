import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';

/**
 * SANDBOX_DIALECT=openim over HTTP, as OpenIM's own admin front end talks to OpenIM Chat: POST with
 * JSON bodies, `operationID` and `token` headers, md5 passwords, `{errCode, errMsg, errDlt, data}`
 * answers at HTTP 200, nested 1-based paging. Each write is checked in the sandbox's store.
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
let adminToken: string;
let operatorToken: string;
let operationSeq = 0;

async function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  base = sandbox.url,
): Promise<{ status: number; answer: Answer; raw: string }> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', operationID: `op-${++operationSeq}`, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const raw = await res.text();
  let answer = {} as Answer;
  try {
    answer = JSON.parse(raw) as Answer;
  } catch {
    // Not JSON: gin's plain-text 404, checked by the callers that expect it.
  }
  return { status: res.status, answer, raw };
}

/** A call of the admin front end: the admin token in `token`. */
async function call(path: string, body: unknown, token = adminToken, base = sandbox.url): Promise<Answer> {
  const { status, answer } = await post(path, body, { token }, base);
  expect(status).toBe(200);
  return answer;
}

/** A call of the admin front end to the chat API (the users' search, find and update), with the admin token. */
async function chat(path: string, body: unknown): Promise<Answer> {
  return call(path, body, adminToken, sandbox.services.chat);
}

async function login(account: string, password: string): Promise<Answer> {
  return (await post('/account/login', { account, password: md5(password), version: 'openim-admin-front 3.8' })).answer;
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 11, withdrawalTickMs: 0, dialect: 'openim' });
  const admin = await login('admin', 'admin123');
  const operator = await login('operator', 'operator123');
  adminToken = String(admin.data?.adminToken);
  operatorToken = String(operator.data?.adminToken);
});

afterAll(async () => {
  await sandbox?.close();
});

describe('login and tokens', () => {
  it('logs the seeded admin in with the md5 of its password and answers OpenIM login fields', async () => {
    const answer = await login('admin', 'admin123');
    expect(answer).toMatchObject({ errCode: 0, errMsg: '', errDlt: '' });
    expect(Object.keys(answer.data!)).toEqual([
      'adminAccount',
      'adminToken',
      'nickname',
      'faceURL',
      'level',
      'adminUserID',
      'imUserID',
      'imToken',
    ]);
    expect(answer.data).toMatchObject({
      adminAccount: 'admin',
      level: 100,
      adminUserID: 'imAdmin',
      imUserID: 'imAdmin',
    });
    expect(String(answer.data!.adminToken).split('.')).toHaveLength(3);
    const operator = await login('operator', 'operator123');
    expect(operator.data).toMatchObject({ adminAccount: 'operator', level: 80 });
    expect(operator.data!.adminUserID).toMatch(/^[1-9]\d{9}$/);
  });

  it('refuses a wrong password, an unknown account, a missing version and an empty account', async () => {
    expect((await post('/account/login', { account: 'admin', password: md5('nope'), version: '1' })).answer).toEqual({
      errCode: 20001,
      errMsg: 'PasswordError',
      errDlt: 'PasswordError',
    });
    // The plain text is not what OpenIM stores: it compares the md5 hex verbatim.
    expect(
      (await post('/account/login', { account: 'admin', password: 'admin123', version: '1' })).answer.errCode,
    ).toBe(20001);
    expect((await post('/account/login', { account: 'ghost', password: md5('x'), version: '1' })).answer.errCode).toBe(
      20002,
    );
    const noVersion = await post('/account/login', { account: 'admin', password: md5('admin123') });
    expect(noVersion.status).toBe(200);
    expect(noVersion.answer).toMatchObject({
      errCode: 500,
      errMsg: 'openim-admin-front version too old, please use new version',
    });
    expect(noVersion.answer.data).toBeUndefined();
    expect((await post('/account/login', { account: '', password: md5('x'), version: '1' })).answer).toMatchObject({
      errCode: 1001,
      errMsg: 'ArgsError',
      errDlt: 'account is empty',
    });
  });

  it('refuses a POST without operationID, on known and unknown paths alike', async () => {
    const res = await fetch(`${sandbox.url}/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'admin', password: md5('admin123'), version: '1' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ errCode: 1001, errMsg: 'ArgsError', errDlt: 'header must have operationID' });
    const unknown = await fetch(`${sandbox.url}/no/such/path`, { method: 'POST', body: '{}' });
    expect(((await unknown.json()) as Answer).errCode).toBe(1001);
  });

  it('refuses a missing, a forged and a malformed token', async () => {
    expect((await post('/block/search', { pagination: { pageNumber: 1, showNumber: 10 } })).answer).toEqual({
      errCode: 1001,
      errMsg: 'ArgsError',
      errDlt: 'token is empty',
    });
    const [head, claims] = adminToken.split('.');
    expect(
      (await call('/block/search', { pagination: { pageNumber: 1, showNumber: 10 } }, `${head}.${claims}.forged`))
        .errCode,
    ).toBe(1505);
    expect((await call('/block/search', { pagination: { pageNumber: 1, showNumber: 10 } }, 'not-a-jwt')).errCode).toBe(
      1503,
    );
  });

  it('keeps older tokens alive across a new login', async () => {
    await login('admin', 'admin123');
    expect((await call('/account/info', {})).errCode).toBe(0);
  });

  it('answers the admin info with the level and the stored md5 password', async () => {
    const answer = await call('/account/info', {});
    expect(answer.data).toMatchObject({ account: 'admin', password: md5('admin123'), userID: 'imAdmin', level: 100 });
    expect(typeof answer.data!.createTime).toBe('number');
  });
});

describe('transport', () => {
  it('answers the contract paths, GET reads and unknown paths as gin does an unknown route', async () => {
    for (const path of ['/manage/logIn', '/manage/permission', '/groups/search']) {
      const res = await post(path, {}, { token: adminToken });
      expect(res.status).toBe(404);
      expect(res.raw).toBe('404 page not found');
    }
    const get = await fetch(`${sandbox.url}/account/info`, { headers: { token: adminToken } });
    expect(get.status).toBe(404);
  });

  it('serves the admin API and the chat API on two listeners, each with its own routes only', async () => {
    const chatUrl = sandbox.services.chat!;
    expect(chatUrl).not.toBe(sandbox.url);
    const page = { pagination: { pageNumber: 1, showNumber: 1 } };
    // The users' calls are the chat API's (SetChatRoute); the admin API has no such route.
    const onAdmin = await post('/user/search/full', page, { token: adminToken });
    expect(onAdmin.status).toBe(404);
    expect(onAdmin.raw).toBe('404 page not found');
    expect((await chat('/user/search/full', page)).errCode).toBe(0);
    // The administrators' calls are the admin API's only.
    const onChat = await post('/account/search', page, { token: adminToken }, chatUrl);
    expect(onChat.status).toBe(404);
    // Both serve /client_config/get: the chat API to anyone, the admin API behind CheckAdmin.
    expect((await post('/client_config/get', {}, {}, chatUrl)).answer.errCode).toBe(0);
    expect((await post('/client_config/get', {})).answer).toEqual({
      errCode: 1001,
      errMsg: 'ArgsError',
      errDlt: 'token is empty',
    });
    expect((await call('/client_config/get', {})).errCode).toBe(0);
    // Both serve the application versions without a token.
    expect((await post('/application/page_versions', page, {}, chatUrl)).answer.errCode).toBe(0);
    expect((await post('/application/page_versions', page)).answer.errCode).toBe(0);
  });

  it('answers OPTIONS with the CORS preflight text', async () => {
    const res = await fetch(`${sandbox.url}/account/login`, { method: 'OPTIONS' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toBe('Options Request!');
  });

  it('reads the JSON body whatever the Content-Type, and refuses a body that is not JSON with 1001', async () => {
    const res = await fetch(`${sandbox.url}/account/info`, {
      method: 'POST',
      headers: { operationID: 'x', token: adminToken, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(((await res.json()) as Answer).errCode).toBe(0);
    expect((await post('/account/info', 'not json', { token: adminToken })).answer.errCode).toBe(1001);
  });
});

describe('users (chat API search with the admin token)', () => {
  it('pages users with nested 1-based paging and OpenIM field names', async () => {
    const first = await chat('/user/search/full', {
      keyword: '',
      normal: 0,
      genders: 0,
      pagination: { pageNumber: 1, showNumber: 20 },
    });
    expect(first.errCode).toBe(0);
    const users = first.data!.users as Row[];
    expect(first.data!.total).toBe(sandbox.app.sandbox.users.size);
    expect(users).toHaveLength(20);
    expect(Object.keys(users[0]!)).toEqual([
      'userID',
      'password',
      'account',
      'phoneNumber',
      'areaCode',
      'email',
      'nickname',
      'faceURL',
      'gender',
      'level',
      'birth',
      'allowAddFriend',
      'allowBeep',
      'allowVibration',
      'globalRecvMsgOpt',
      'registerType',
    ]);
    expect(typeof users[0]!.userID).toBe('string');
    expect(users[0]!.password).toBe('');
    const second = await chat('/user/search/full', { pagination: { pageNumber: 2, showNumber: 20 } });
    expect((second.data!.users as Row[])[0]!.userID).not.toBe(users[0]!.userID);
    const past = await chat('/user/search/full', { pagination: { pageNumber: 10_000, showNumber: 20 } });
    expect(past.data).toEqual({ total: sandbox.app.sandbox.users.size, users: null });
  });

  it('refuses a search without pagination or with page 0', async () => {
    expect(await chat('/user/search/full', {})).toEqual({
      errCode: 1001,
      errMsg: 'ArgsError',
      errDlt: 'pagination is empty',
    });
    expect((await chat('/user/search/full', { pagination: { pageNumber: 0, showNumber: 10 } })).errDlt).toBe(
      'pageNumber is invalid',
    );
  });

  it('searches the keyword as a case-insensitive, unescaped regex', async () => {
    const user = sandbox.app.sandbox.users.all().find((u) => /^[a-z][a-z0-9_]*$/.test(u.account))!;
    const answer = await chat('/user/search/full', {
      keyword: `^${user.account.toUpperCase()}$`,
      pagination: { pageNumber: 1, showNumber: 10 },
    });
    expect((answer.data!.users as Row[]).map((u) => u.userID)).toContain(String(user.id));
    // A phone-number account's "+" is a regex operator: OpenIM does not escape it, and Mongo refuses the pattern.
    expect(
      (await chat('/user/search/full', { keyword: '+34', pagination: { pageNumber: 1, showNumber: 10 } })).errCode,
    ).toBe(500);
  });

  it('answers the phone as OpenIM writes it: area code and number apart', async () => {
    const user = sandbox.app.sandbox.users.all().find((u) => u.phone.startsWith('+86'))!;
    const found = await chat('/user/find/full', { userIDs: [String(user.id)] });
    expect((found.data!.users as Row[])[0]).toMatchObject({ areaCode: '+86', phoneNumber: user.phone.slice(3) });
  });

  it('finds and updates a user, and the store changes', async () => {
    const user = sandbox.app.sandbox.users.all()[3]!;
    const found = await chat('/user/find/full', { userIDs: [String(user.id), '999999999'] });
    expect((found.data!.users as Row[]).map((u) => u.userID)).toEqual([String(user.id)]);
    const update = await chat('/user/update', { userID: String(user.id), nickname: 'Renamed by OpenIM', gender: 0 });
    expect(update).toEqual({ errCode: 0, errMsg: '', errDlt: '' });
    expect(sandbox.app.sandbox.users.get(user.id)).toMatchObject({ nickname: 'Renamed by OpenIM', gender: 'female' });
    expect((await chat('/user/update', { userID: '999999999', nickname: 'x' })).errDlt).toBe('user not found');
  });

  it('blocks a user (action), lists the block, refuses a second block, and unblocks', async () => {
    const user = sandbox.app.sandbox.users.all().find((u) => u.status === 'normal')!;
    const id = String(user.id);
    const blocked = await call('/block/add', { userID: id, reason: 'spam' });
    expect(blocked).toEqual({ errCode: 0, errMsg: '', errDlt: '' });
    expect(sandbox.app.sandbox.users.get(user.id)).toMatchObject({
      status: 'banned',
      banReason: 'spam',
      online: false,
    });
    expect((await call('/block/add', { userID: id, reason: 'again' })).errDlt).toBe('user already blocked');
    const list = await call('/block/search', { keyword: id, pagination: { pageNumber: 1, showNumber: 50 } });
    const row = (list.data!.users as Row[]).find((u) => u.userID === id);
    expect(row).toMatchObject({ account: user.account, reason: 'spam', opUserID: 'imAdmin' });
    const normalOnly = await chat('/user/search/full', {
      keyword: `^${id}$`,
      normal: 1,
      pagination: { pageNumber: 1, showNumber: 10 },
    });
    expect(normalOnly.data).toEqual({ total: 0, users: null });
    expect(await call('/block/del', { userIDs: [id] })).toEqual({ errCode: 0, errMsg: '', errDlt: '' });
    expect(sandbox.app.sandbox.users.get(user.id)!.status).toBe('normal');
    expect((await call('/block/del', { userIDs: [id] })).errDlt).toBe(`user not blocked ${id}`);
  });

  it('resets a user password to the one the admin chose, forcing the user offline', async () => {
    const user = sandbox.app.sandbox.users.all().find((u) => u.online)!;
    const answer = await call('/user/password/reset', { userID: String(user.id), newPassword: md5('fresh-pass') });
    expect(answer).toEqual({ errCode: 0, errMsg: '', errDlt: '' });
    expect(sandbox.app.sandbox.users.get(user.id)!.online).toBe(false);
    expect((await call('/user/password/reset', { userID: '999999999', newPassword: md5('x') })).errCode).toBe(1004);
  });
});

describe('administrators and levels', () => {
  it('lets only the level-100 admin list, add and delete admins', async () => {
    const page = { pagination: { pageNumber: 1, showNumber: 50 } };
    expect((await call('/account/search', page, operatorToken)).errCode).toBe(1002);
    const before = await call('/account/search', page);
    expect(before.errCode).toBe(0);
    const rows = before.data!.adminAccounts as Row[];
    expect(rows.every((r) => r.level === 80)).toBe(true);
    // Seconds here, not milliseconds.
    expect(Number(rows[0]!.createTime)).toBeLessThan(10_000_000_000);

    expect(
      (
        await call(
          '/account/add_admin',
          { account: 'ops_new', password: md5('pw-123456'), nickname: 'New' },
          operatorToken,
        )
      ).errCode,
    ).toBe(1002);
    expect(
      await call('/account/add_admin', {
        account: 'ops_new',
        password: md5('pw-123456'),
        nickname: 'New',
        faceURL: '',
      }),
    ).toEqual({
      errCode: 0,
      errMsg: '',
      errDlt: '',
    });
    expect(sandbox.app.sandbox.accounts.find((a) => a.account === 'ops_new')).toBeDefined();
    expect((await call('/account/add_admin', { account: 'ops_new', password: md5('x') })).errCode).toBe(1003);
    const fresh = await login('ops_new', 'pw-123456');
    expect(fresh.data).toMatchObject({ level: 80 });
    const after = await call('/account/search', page);
    const created = (after.data!.adminAccounts as Row[])[0]!;
    expect(created.account).toBe('ops_new');
    expect((await call('/account/del_admin', { userIDs: ['imAdmin'] })).errCode).toBe(1002);
    expect(await call('/account/del_admin', { userIDs: [created.userID] })).toEqual({
      errCode: 0,
      errMsg: '',
      errDlt: '',
    });
    expect(sandbox.app.sandbox.accounts.find((a) => a.account === 'ops_new')).toBeUndefined();
  });
});

describe('site settings and lists', () => {
  it('reads and writes the client config and the registration switch (settings)', async () => {
    const config = await post('/client_config/get', {}, {}, sandbox.services.chat);
    const values = config.answer.data!.config as Row;
    expect(values.chatRoomName).toBe(String(sandbox.app.sandbox.settings.siteFunctions!.chatRoomName));
    // Every value is text (map<string,string>), keys sorted as Go writes a map.
    expect(Object.values(values).every((v) => typeof v === 'string')).toBe(true);
    expect(Object.keys(values)).toEqual(Object.keys(values).sort());
    // The registration switch is the chat RPC's AllowRegister, not a client-config key.
    expect(values).not.toHaveProperty('registerEnabled');
    expect((await call('/client_config/get', {})).data).toEqual(config.answer.data);
    expect(
      await call('/client_config/set', {
        config: { customerServiceUrl: 'https://help.example.org', maxGroupMembers: '800' },
      }),
    ).toEqual({
      errCode: 0,
      errMsg: '',
      errDlt: '',
    });
    expect(sandbox.app.sandbox.settings.siteFunctions).toMatchObject({
      customerServiceUrl: 'https://help.example.org',
      maxGroupMembers: 800,
    });
    expect(await call('/user/allow_register/set', { allowRegister: false })).toEqual({
      errCode: 0,
      errMsg: '',
      errDlt: '',
    });
    expect(sandbox.app.sandbox.settings.siteFunctions!.registerEnabled).toBe(false);
    expect((await call('/user/allow_register/get', {})).data).toEqual({ allowRegister: false });
    // A client-config key of that name is a key like another: it does not touch the switch.
    expect((await call('/client_config/set', { config: { registerEnabled: 'true' } })).errCode).toBe(0);
    expect(sandbox.app.sandbox.settings.siteFunctions!.registerEnabled).toBe(false);
    expect(((await call('/client_config/get', {})).data!.config as Row).registerEnabled).toBe('true');
    expect((await call('/client_config/del', { keys: ['registerEnabled'] })).errCode).toBe(0);
    expect(await call('/user/allow_register/set', { allowRegister: true })).toEqual({
      errCode: 0,
      errMsg: '',
      errDlt: '',
    });
  });

  it('adds, finds and deletes invitation codes (list)', async () => {
    expect((await call('/invitation_code/gen', { len: 6, num: 2 })).errDlt).toBe('chars is in invalid');
    const before = sandbox.app.sandbox.inviteCodes.size;
    expect(await call('/invitation_code/gen', { len: 8, num: 3, chars: 'ABCDEFGH23456789' })).toEqual({
      errCode: 0,
      errMsg: '',
      errDlt: '',
    });
    expect(sandbox.app.sandbox.inviteCodes.size).toBe(before + 3);
    expect((await call('/invitation_code/add', { codes: ['OPENIM-1'] })).errCode).toBe(0);
    const found = await call('/invitation_code/search', {
      status: 2,
      keyword: 'openim-1',
      pagination: { pageNumber: 1, showNumber: 10 },
    });
    expect(found.data).toMatchObject({
      total: 1,
      list: [{ invitationCode: 'OPENIM-1', usedUserID: '', usedUser: null }],
    });
    expect((await call('/invitation_code/add', { codes: ['OPENIM-1'] })).errCode).toBe(1001);
    expect((await call('/invitation_code/del', { codes: ['OPENIM-1'] })).errCode).toBe(0);
    expect(sandbox.app.sandbox.inviteCodes.find((c) => c.code === 'OPENIM-1')).toBeUndefined();
  });

  it('lists, adds and deletes forbidden IPs', async () => {
    expect(
      (
        await call('/forbidden/ip/add', {
          forbiddens: [{ ip: '198.51.100.7', limitRegister: true, limitLogin: false }],
        })
      ).errCode,
    ).toBe(0);
    const list = await call('/forbidden/ip/search', {
      keyword: '198\\.51\\.100\\.7',
      status: 0,
      pagination: { pageNumber: 1, showNumber: 10 },
    });
    expect(list.data).toMatchObject({
      total: 1,
      forbiddens: [{ ip: '198.51.100.7', limitRegister: true, limitLogin: false }],
    });
    expect(sandbox.app.sandbox.ipBlacklist.find((r) => r.ip === '198.51.100.7')).toBeDefined();
    expect((await call('/forbidden/ip/del', { ips: ['198.51.100.7'] })).errCode).toBe(0);
    expect(sandbox.app.sandbox.ipBlacklist.find((r) => r.ip === '198.51.100.7')).toBeUndefined();
  });

  it('lists default friends with the user nested, and adds one', async () => {
    const user = sandbox.app.sandbox.users
      .all()
      .find((u) => !sandbox.app.sandbox.defaultFriends.find((d) => d.userId === u.id))!;
    expect((await call('/default/user/add', { userIDs: [String(user.id)] })).errCode).toBe(0);
    const list = await call('/default/user/search', {
      keyword: `^${user.id}$`,
      pagination: { pageNumber: 1, showNumber: 10 },
    });
    expect(list.data).toMatchObject({
      total: 1,
      users: [{ userID: String(user.id), user: { userID: String(user.id), account: user.account } }],
    });
    expect(sandbox.app.sandbox.defaultFriends.find((d) => d.userId === user.id)).toBeDefined();
  });
});

describe('statistics', () => {
  it('counts registrations per UTC day over [start, end), with the snake_case date_count key', async () => {
    const store = sandbox.app.sandbox;
    const times = store.users.all().map((u) => Date.parse(u.registerTime));
    const start = Math.min(...times);
    const end = Math.max(...times) + 1;
    const answer = await call('/statistic/new_user_count', { start, end });
    expect(answer.errCode).toBe(0);
    expect(Object.keys(answer.data!)).toEqual(['total', 'date_count']);
    expect(answer.data!.total).toBe(store.users.size);
    const days = answer.data!.date_count as Record<string, number>;
    expect(Object.values(days).reduce((a, b) => a + b, 0)).toBe(store.users.size);
    expect(Object.keys(days)).toEqual([...Object.keys(days)].sort());
    expect(Object.keys(days).every((day) => /^\d{4}-\d{2}-\d{2}$/.test(day))).toBe(true);
    // The end is left out: the last registration's own millisecond is not counted.
    const before = await call('/statistic/new_user_count', { start, end: end - 1 });
    expect(Object.values(before.data!.date_count as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(
      store.users.size - 1,
    );
  });

  it('answers an empty range with a null map, and refuses start after end', async () => {
    expect((await call('/statistic/new_user_count', { start: 1000, end: 2000 })).data).toMatchObject({
      date_count: null,
    });
    expect(await call('/statistic/new_user_count', { start: 2, end: 1 })).toEqual({
      errCode: 1001,
      errMsg: 'ArgsError',
      errDlt: 'start > end',
    });
    expect((await call('/statistic/login_user_count', { start: 2, end: 1 })).errDlt).toBe('start > end');
  });

  it('counts distinct users logged in per day, summing the days, from successful logins only', async () => {
    const store = sandbox.app.sandbox;
    const ok = store.loginRecords.all().filter((r) => r.result === 'success');
    const start = Math.min(...store.loginRecords.all().map((r) => Date.parse(r.time)));
    const end = Math.max(...store.loginRecords.all().map((r) => Date.parse(r.time))) + 1;
    const perDay = new Map<string, Set<number>>();
    for (const r of ok) perDay.set(r.time.slice(0, 10), (perDay.get(r.time.slice(0, 10)) ?? new Set()).add(r.userId));
    const expected = [...perDay.values()].reduce((sum, s) => sum + s.size, 0);
    const answer = await call('/statistic/login_user_count', { start, end });
    expect(Object.keys(answer.data!)).toEqual(['loginCount', 'unloginCount', 'count']);
    expect(answer.data!.loginCount).toBe(expected);
    expect(answer.data!.unloginCount).toBe(store.users.size - expected);
    expect(Object.keys(answer.data!.count as Row)).toHaveLength(perDay.size);
  });
});

describe('app versions', () => {
  const page = { pageNumber: 1, showNumber: 100 };

  it('adds a version into the store, pages it with an ObjectID id, updates and deletes it', async () => {
    const store = sandbox.app.sandbox;
    const before = store.appVersions.size;
    const add = {
      platform: 'android',
      version: '9.9.9-openim',
      url: 'https://dl.example.org/app-9.9.9.apk',
      text: 'notes',
      force: true,
      latest: true,
      hot: false,
    };
    expect(await call('/application/add_version', add)).toEqual({ errCode: 0, errMsg: '', errDlt: '' });
    const record = store.appVersions.find((r) => r.version === '9.9.9-openim')!;
    expect(record).toMatchObject({
      platform: 'android',
      downloadUrl: add.url,
      releaseNotes: 'notes',
      forceUpdate: true,
    });
    expect(store.appVersions.size).toBe(before + 1);
    // A second (platform, version) breaks the unique index.
    expect((await call('/application/add_version', add)).errCode).toBe(500);

    // No token: the apps themselves read these two.
    const listed = (await post('/application/page_versions', { platform: ['android'], pagination: page })).answer;
    const versions = listed.data!.versions as Row[];
    expect(listed.data!.total).toBe(store.appVersions.count((r) => r.platform === 'android'));
    // `latest` sorts first.
    expect(versions[0]).toMatchObject({
      platform: 'android',
      version: '9.9.9-openim',
      latest: true,
      hot: false,
      force: true,
      url: add.url,
      text: 'notes',
    });
    expect(Object.keys(versions[0]!)).toEqual([
      'id',
      'platform',
      'version',
      'url',
      'text',
      'force',
      'latest',
      'hot',
      'createTime',
    ]);
    const id = String(versions[0]!.id);
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    const latest = (await post('/application/latest_version', { platform: 'android' })).answer;
    expect((latest.data!.version as Row).id).toBe(id);
    expect((await post('/application/latest_version', { platform: 'symbian' })).answer.data).toEqual({ version: null });

    expect((await call('/application/update_version', { id, text: 'better notes', hot: true })).errCode).toBe(0);
    expect(record.releaseNotes).toBe('better notes');
    expect((await call('/application/update_version', { id: 'nope', text: 'x' })).errCode).toBe(1001);
    expect((await call('/application/update_version', { id: '0123456789abcdef01234567', text: 'x' })).errCode).toBe(
      500,
    );
    expect((await call('/application/delete_version', { id: [id] })).errCode).toBe(0);
    expect(store.appVersions.find((r) => r.version === '9.9.9-openim')).toBeUndefined();
  });

  it('pages without a Check(): a missing pagination answers the total and null', async () => {
    const answer = (await post('/application/page_versions', {})).answer;
    expect(answer.data).toEqual({ total: sandbox.app.sandbox.appVersions.size, versions: null });
    expect((await call('/application/add_version', {}, '')).errCode).toBe(1001);
  });
});

describe('default groups', () => {
  it('adds store groups, lists them as OpenIM Server GroupInfo, refuses unknown and listed ids, deletes', async () => {
    const store = sandbox.app.sandbox;
    const group = store.groups.all().find((g) => !store.defaultGroups.find((d) => d.groupId === g.id))!;
    const id = String(group.id);
    expect((await call('/default/group/add', { groupIDs: ['999999999'] })).errDlt).toBe('group id not found');
    expect((await call('/default/group/add', { groupIDs: [id, id] })).errDlt).toBe('group id not found');
    expect((await call('/default/group/add', {})).errDlt).toBe('GroupIDs is empty');
    expect(await call('/default/group/add', { groupIDs: [id] })).toEqual({ errCode: 0, errMsg: '', errDlt: '' });
    expect(store.defaultGroups.find((d) => d.groupId === group.id)).toMatchObject({ groupName: group.name });
    expect(await call('/default/group/add', { groupIDs: [id] })).toEqual({
      errCode: 1003,
      errMsg: 'DuplicateKeyError',
      errDlt: `group id existed, groupID=[${id}]`,
    });

    const found = await call('/default/group/find', {});
    expect(found.data!.groupIDs).toContain(id);
    const list = await call('/default/group/search', {
      keyword: `^${id}$`,
      pagination: { pageNumber: 1, showNumber: 10 },
    });
    expect(list.data).toMatchObject({
      total: 1,
      groups: [
        { groupID: id, groupName: group.name, ownerUserID: String(group.ownerId), memberCount: group.memberCount },
      ],
    });
    expect(Object.keys((list.data!.groups as Row[])[0]!)).toHaveLength(17);
    // The API builds this answer itself from a made slice: an empty page is [], not null.
    expect(
      (await call('/default/group/search', { keyword: '^none$', pagination: { pageNumber: 1, showNumber: 10 } })).data,
    ).toEqual({ total: 0, groups: [] });

    expect((await call('/default/group/del', { groupIDs: ['999999999'] })).errCode).toBe(1004);
    expect((await call('/default/group/del', { groupIDs: [id] })).errCode).toBe(0);
    expect(store.defaultGroups.find((d) => d.groupId === group.id)).toBeUndefined();
  });
});

describe('applets', () => {
  const page = { pageNumber: 1, showNumber: 100 };
  const applet = {
    name: 'Openim Applet Wallet',
    appID: 'wallet01',
    icon: 'https://cdn.example.org/w.png',
    url: 'https://apps.example.org/wallet',
    md5: md5('wallet'),
    size: 1024,
    version: '1.0.0',
    priority: 5,
    status: 1,
  };

  it('lists the store discover entries as applets and adds one into the store', async () => {
    const store = sandbox.app.sandbox;
    const listed = await call('/applet/search', { pagination: page });
    expect(listed.data!.total).toBe(store.discover.size);
    const first = (listed.data!.applets as Row[])[0]!;
    expect(Object.keys(first)).toEqual([
      'id',
      'name',
      'appID',
      'icon',
      'url',
      'md5',
      'size',
      'version',
      'priority',
      'status',
      'createTime',
    ]);
    expect(first).toMatchObject({
      name: store.discover.all()[0]!.title,
      status: store.discover.all()[0]!.enabled ? 1 : 2,
    });

    expect((await call('/applet/add', { ...applet, size: 0 })).errDlt).toBe('size is invalid');
    expect((await call('/applet/add', { ...applet, status: 3 })).errDlt).toBe('status is invalid');
    expect(await call('/applet/add', { ...applet, id: 'applet-wallet' })).toEqual({
      errCode: 0,
      errMsg: '',
      errDlt: '',
    });
    expect(store.discover.find((d) => d.title === 'Openim Applet Wallet')).toMatchObject({
      url: applet.url,
      enabled: true,
      sort: 5,
    });
    expect((await call('/applet/add', { ...applet, id: 'applet-wallet' })).errCode).toBe(500);

    const found = await call('/applet/search', { keyword: 'WALLET0', pagination: page });
    expect(found.data).toMatchObject({
      total: 1,
      applets: [{ id: 'applet-wallet', appID: 'wallet01', md5: applet.md5, size: 1024, version: '1.0.0', status: 1 }],
    });
  });

  it('updates with wrapper fields and deletes by appletIds', async () => {
    const store = sandbox.app.sandbox;
    expect((await call('/applet/update', { id: 'applet-wallet' })).errDlt).toBe('no update info');
    expect((await call('/applet/update', { id: 'applet-wallet', md5: 'zz' })).errDlt).toBe('md5 is invalid');
    expect((await call('/applet/update', { id: 'no-such-applet', name: 'x' })).errCode).toBe(1004);
    expect(
      (await call('/applet/update', { id: 'applet-wallet', name: 'Openim Applet Wallet 2', status: 2 })).errCode,
    ).toBe(0);
    expect(store.discover.find((d) => d.title === 'Openim Applet Wallet 2')).toMatchObject({ enabled: false });
    expect((await call('/applet/del', { appletIds: ['applet-wallet', 'ghost'] })).errDlt).toBe('ids not found: ghost');
    expect((await call('/applet/del', { appletIds: [] })).errDlt).toBe('appletIds is empty');
    expect((await call('/applet/del', { appletIds: ['applet-wallet'] })).errCode).toBe(0);
    expect(store.discover.find((d) => d.title === 'Openim Applet Wallet 2')).toBeUndefined();
    expect((await call('/applet/search', { keyword: '^nothing$', pagination: page })).data).toEqual({
      total: 0,
      applets: null,
    });
  });
});

describe('user–IP login limits', () => {
  it('adds pairs, lists them with the user nested, refuses a duplicate, deletes', async () => {
    const user = sandbox.app.sandbox.users.all()[0]!;
    const id = String(user.id);
    const page = { pageNumber: 1, showNumber: 10 };
    expect((await call('/forbidden/user/add', { limits: [] })).errDlt).toBe('limits is empty');
    expect(
      (
        await call('/forbidden/user/add', {
          limits: [
            { userID: id, ip: '203.0.113.9' },
            { userID: 'ghost', ip: '203.0.113.10' },
          ],
        })
      ).errCode,
    ).toBe(0);
    const list = await call('/forbidden/user/search', { keyword: '203\\.0\\.113', pagination: page });
    expect(list.data).toMatchObject({
      total: 2,
      limits: [
        { userID: id, ip: '203.0.113.9', user: { userID: id, account: user.account } },
        { userID: 'ghost', ip: '203.0.113.10', user: null },
      ],
    });
    // Ordered insert: the new pair before the duplicate is kept.
    expect(
      (
        await call('/forbidden/user/add', {
          limits: [
            { userID: id, ip: '203.0.113.11' },
            { userID: id, ip: '203.0.113.9' },
          ],
        })
      ).errCode,
    ).toBe(500);
    expect((await call('/forbidden/user/search', { keyword: '203\\.0\\.113', pagination: page })).data!.total).toBe(3);
    expect((await call('/forbidden/user/del', { limits: [{ userID: id, ip: '' }] })).errDlt).toBe(
      'user_id or ip is empty',
    );
    const all = [
      { userID: id, ip: '203.0.113.9' },
      { userID: id, ip: '203.0.113.11' },
      { userID: 'ghost', ip: '203.0.113.10' },
    ];
    expect((await call('/forbidden/user/del', { limits: all })).errCode).toBe(0);
    expect((await call('/forbidden/user/search', { keyword: '203\\.0\\.113', pagination: page })).data).toEqual({
      total: 0,
      limits: null,
    });
  });
});

describe('users an admin registers', () => {
  it('adds a user into the store, and answers a failed add_user with an empty body', async () => {
    const store = sandbox.app.sandbox;
    const user = {
      nickname: 'Openim Newcomer',
      areaCode: '86',
      phoneNumber: '13900001111',
      account: 'openimnew1',
      password: md5('pw'),
      gender: 1,
    };
    expect(await call('/account/add_user', { user })).toEqual({ errCode: 0, errMsg: '', errDlt: '' });
    const record = store.userByAccount('openimnew1')!;
    expect(record).toMatchObject({
      nickname: 'Openim Newcomer',
      phone: '+8613900001111',
      gender: 'male',
      status: 'normal',
    });
    const full = await chat('/user/find/full', { userIDs: [String(record.id)] });
    expect(full.data!.users).toMatchObject([
      { account: 'openimnew1', areaCode: '+86', phoneNumber: '13900001111', registerType: 0 },
    ]);

    // The phone is taken now: OpenIM's handler returns without writing.
    const failed = await post('/account/add_user', { user }, { token: adminToken });
    expect(failed.status).toBe(200);
    expect(failed.raw).toBe('');
    expect((await post('/account/add_user', {}, { token: adminToken })).raw).toBe('');
    expect(store.users.count((u) => u.nickname === 'Openim Newcomer')).toBe(1);
  });

  it('imports users from JSON one by one, answering the first failure', async () => {
    const store = sandbox.app.sandbox;
    expect(await call('/user/import/json', { users: [] })).toEqual({
      errCode: 1001,
      errMsg: 'ArgsError',
      errDlt: 'users is empty',
    });
    const users = [
      { nickname: 'Imported One', email: 'one@example.org', password: md5('a') },
      { nickname: 'Imported Two', areaCode: '+1', phoneNumber: '5550001' },
      { nickname: '', areaCode: '+1', phoneNumber: '5550002' },
      { nickname: 'Imported Four', areaCode: '+1', phoneNumber: '5550003' },
    ];
    expect(await call('/user/import/json', { users })).toEqual({
      errCode: 1001,
      errMsg: 'ArgsError',
      errDlt: 'Nickname is nil',
    });
    expect(store.users.find((u) => u.nickname === 'Imported One')).toBeDefined();
    expect(store.users.find((u) => u.nickname === 'Imported Two')).toMatchObject({ phone: '+15550001' });
    expect(store.users.find((u) => u.nickname === 'Imported Four')).toBeUndefined();
    const one = store.users.find((u) => u.nickname === 'Imported One')!;
    const full = await chat('/user/find/full', { userIDs: [String(one.id)] });
    expect(full.data!.users).toMatchObject([{ account: '', email: 'one@example.org', registerType: 1 }]);
    expect(
      (await call('/user/import/json', { users: [{ nickname: 'Again', areaCode: '+1', phoneNumber: '5550001' }] }))
        .errCode,
    ).toBe(20003);
  });
});
