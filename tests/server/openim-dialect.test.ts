import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type StartedSandbox } from '../../server/sandbox/start.js';

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

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; answer: Answer; raw: string }> {
  const res = await fetch(`${sandbox.url}${path}`, {
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
async function call(path: string, body: unknown, token = adminToken): Promise<Answer> {
  const { status, answer } = await post(path, body, { token });
  expect(status).toBe(200);
  return answer;
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
    expect(Object.keys(answer.data!)).toEqual(['adminAccount', 'adminToken', 'nickname', 'faceURL', 'level', 'adminUserID', 'imUserID', 'imToken']);
    expect(answer.data).toMatchObject({ adminAccount: 'admin', level: 100, adminUserID: 'imAdmin', imUserID: 'imAdmin' });
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
    expect((await post('/account/login', { account: 'admin', password: 'admin123', version: '1' })).answer.errCode).toBe(20001);
    expect((await post('/account/login', { account: 'ghost', password: md5('x'), version: '1' })).answer.errCode).toBe(20002);
    const noVersion = await post('/account/login', { account: 'admin', password: md5('admin123') });
    expect(noVersion.status).toBe(200);
    expect(noVersion.answer).toMatchObject({ errCode: 500, errMsg: 'openim-admin-front version too old, please use new version' });
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
    expect((await call('/block/search', { pagination: { pageNumber: 1, showNumber: 10 } }, `${head}.${claims}.forged`)).errCode).toBe(1505);
    expect((await call('/block/search', { pagination: { pageNumber: 1, showNumber: 10 } }, 'not-a-jwt')).errCode).toBe(1503);
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
    const first = await call('/user/search/full', { keyword: '', normal: 0, genders: 0, pagination: { pageNumber: 1, showNumber: 20 } });
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
    const second = await call('/user/search/full', { pagination: { pageNumber: 2, showNumber: 20 } });
    expect((second.data!.users as Row[])[0]!.userID).not.toBe(users[0]!.userID);
    const past = await call('/user/search/full', { pagination: { pageNumber: 10_000, showNumber: 20 } });
    expect(past.data).toEqual({ total: sandbox.app.sandbox.users.size, users: null });
  });

  it('refuses a search without pagination or with page 0', async () => {
    expect(await call('/user/search/full', {})).toEqual({ errCode: 1001, errMsg: 'ArgsError', errDlt: 'pagination is empty' });
    expect((await call('/user/search/full', { pagination: { pageNumber: 0, showNumber: 10 } })).errDlt).toBe('pageNumber is invalid');
  });

  it('searches the keyword as a case-insensitive, unescaped regex', async () => {
    const user = sandbox.app.sandbox.users.all().find((u) => /^[a-z][a-z0-9_]*$/.test(u.account))!;
    const answer = await call('/user/search/full', { keyword: `^${user.account.toUpperCase()}$`, pagination: { pageNumber: 1, showNumber: 10 } });
    expect((answer.data!.users as Row[]).map((u) => u.userID)).toContain(String(user.id));
    // A phone-number account's "+" is a regex operator: OpenIM does not escape it, and Mongo refuses the pattern.
    expect((await call('/user/search/full', { keyword: '+34', pagination: { pageNumber: 1, showNumber: 10 } })).errCode).toBe(500);
  });

  it('answers the phone as OpenIM writes it: area code and number apart', async () => {
    const user = sandbox.app.sandbox.users.all().find((u) => u.phone.startsWith('+86'))!;
    const found = await call('/user/find/full', { userIDs: [String(user.id)] });
    expect((found.data!.users as Row[])[0]).toMatchObject({ areaCode: '+86', phoneNumber: user.phone.slice(3) });
  });

  it('finds and updates a user, and the store changes', async () => {
    const user = sandbox.app.sandbox.users.all()[3]!;
    const found = await call('/user/find/full', { userIDs: [String(user.id), '999999999'] });
    expect((found.data!.users as Row[]).map((u) => u.userID)).toEqual([String(user.id)]);
    const update = await call('/user/update', { userID: String(user.id), nickname: 'Renamed by OpenIM', gender: 0 });
    expect(update).toEqual({ errCode: 0, errMsg: '', errDlt: '' });
    expect(sandbox.app.sandbox.users.get(user.id)).toMatchObject({ nickname: 'Renamed by OpenIM', gender: 'female' });
    expect((await call('/user/update', { userID: '999999999', nickname: 'x' })).errDlt).toBe('user not found');
  });

  it('blocks a user (action), lists the block, refuses a second block, and unblocks', async () => {
    const user = sandbox.app.sandbox.users.all().find((u) => u.status === 'normal')!;
    const id = String(user.id);
    const blocked = await call('/block/add', { userID: id, reason: 'spam' });
    expect(blocked).toEqual({ errCode: 0, errMsg: '', errDlt: '' });
    expect(sandbox.app.sandbox.users.get(user.id)).toMatchObject({ status: 'banned', banReason: 'spam', online: false });
    expect((await call('/block/add', { userID: id, reason: 'again' })).errDlt).toBe('user already blocked');
    const list = await call('/block/search', { keyword: id, pagination: { pageNumber: 1, showNumber: 50 } });
    const row = (list.data!.users as Row[]).find((u) => u.userID === id);
    expect(row).toMatchObject({ account: user.account, reason: 'spam', opUserID: 'imAdmin' });
    const normalOnly = await call('/user/search/full', { keyword: `^${id}$`, normal: 1, pagination: { pageNumber: 1, showNumber: 10 } });
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

    expect((await call('/account/add_admin', { account: 'ops_new', password: md5('pw-123456'), nickname: 'New' }, operatorToken)).errCode).toBe(1002);
    expect(await call('/account/add_admin', { account: 'ops_new', password: md5('pw-123456'), nickname: 'New', faceURL: '' })).toEqual({
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
    expect(await call('/account/del_admin', { userIDs: [created.userID] })).toEqual({ errCode: 0, errMsg: '', errDlt: '' });
    expect(sandbox.app.sandbox.accounts.find((a) => a.account === 'ops_new')).toBeUndefined();
  });
});

describe('site settings and lists', () => {
  it('reads and writes the client config and the registration switch (settings)', async () => {
    const config = await post('/client_config/get', {});
    expect((config.answer.data!.config as Row).registerEnabled).toBe('true');
    expect(await call('/client_config/set', { config: { customerServiceUrl: 'https://help.example.org' } })).toEqual({ errCode: 0, errMsg: '', errDlt: '' });
    expect(sandbox.app.sandbox.settings.siteFunctions!.customerServiceUrl).toBe('https://help.example.org');
    expect(await call('/user/allow_register/set', { allowRegister: false })).toEqual({ errCode: 0, errMsg: '', errDlt: '' });
    expect(sandbox.app.sandbox.settings.siteFunctions!.registerEnabled).toBe(false);
    expect((await call('/user/allow_register/get', {})).data).toEqual({ allowRegister: false });
  });

  it('adds, finds and deletes invitation codes (list)', async () => {
    expect((await call('/invitation_code/gen', { len: 6, num: 2 })).errDlt).toBe('chars is in invalid');
    const before = sandbox.app.sandbox.inviteCodes.size;
    expect(await call('/invitation_code/gen', { len: 8, num: 3, chars: 'ABCDEFGH23456789' })).toEqual({ errCode: 0, errMsg: '', errDlt: '' });
    expect(sandbox.app.sandbox.inviteCodes.size).toBe(before + 3);
    expect((await call('/invitation_code/add', { codes: ['OPENIM-1'] })).errCode).toBe(0);
    const found = await call('/invitation_code/search', { status: 2, keyword: 'openim-1', pagination: { pageNumber: 1, showNumber: 10 } });
    expect(found.data).toMatchObject({ total: 1, list: [{ invitationCode: 'OPENIM-1', usedUserID: '', usedUser: null }] });
    expect((await call('/invitation_code/add', { codes: ['OPENIM-1'] })).errCode).toBe(1001);
    expect((await call('/invitation_code/del', { codes: ['OPENIM-1'] })).errCode).toBe(0);
    expect(sandbox.app.sandbox.inviteCodes.find((c) => c.code === 'OPENIM-1')).toBeUndefined();
  });

  it('lists, adds and deletes forbidden IPs', async () => {
    expect((await call('/forbidden/ip/add', { forbiddens: [{ ip: '198.51.100.7', limitRegister: true, limitLogin: false }] })).errCode).toBe(0);
    const list = await call('/forbidden/ip/search', { keyword: '198\\.51\\.100\\.7', status: 0, pagination: { pageNumber: 1, showNumber: 10 } });
    expect(list.data).toMatchObject({ total: 1, forbiddens: [{ ip: '198.51.100.7', limitRegister: true, limitLogin: false }] });
    expect(sandbox.app.sandbox.ipBlacklist.find((r) => r.ip === '198.51.100.7')).toBeDefined();
    expect((await call('/forbidden/ip/del', { ips: ['198.51.100.7'] })).errCode).toBe(0);
    expect(sandbox.app.sandbox.ipBlacklist.find((r) => r.ip === '198.51.100.7')).toBeUndefined();
  });

  it('lists default friends with the user nested, and adds one', async () => {
    const user = sandbox.app.sandbox.users.all().find((u) => !sandbox.app.sandbox.defaultFriends.find((d) => d.userId === u.id))!;
    expect((await call('/default/user/add', { userIDs: [String(user.id)] })).errCode).toBe(0);
    const list = await call('/default/user/search', { keyword: `^${user.id}$`, pagination: { pageNumber: 1, showNumber: 10 } });
    expect(list.data).toMatchObject({ total: 1, users: [{ userID: String(user.id), user: { userID: String(user.id), account: user.account } }] });
    expect(sandbox.app.sandbox.defaultFriends.find((d) => d.userId === user.id)).toBeDefined();
  });
});
