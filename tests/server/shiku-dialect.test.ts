import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totp } from '../../server/sandbox/lib/totp.js';
import { startSandbox, type StartedSandbox } from '../../server/sandbox/start.js';

/**
 * The shiku dialect spoken to over HTTP the way Shiku IM's own console does: form posts, query
 * parameters, md5 passwords, a Google code, and access_token/time/secret on every call. Time is
 * the sandbox's clock, moved by the test.
 */

type Row = Record<string, unknown>;
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const START = Date.parse('2026-03-02T04:05:06.000Z');

let sandbox: StartedSandbox;
let now = START;

interface Login {
  access_Token: string;
  account: string;
  adminId: string;
  apiKey: string;
  role: string;
}

async function form(path: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

async function login(account: string, password: string, googlecode = ''): Promise<Row> {
  return (await form('/console/login', { account, password: md5(password), googlecode })).json() as Promise<Row>;
}

/** What Shiku's console's request() adds to every call. */
function signed(session: Login, extra: Record<string, string> = {}, time = Math.floor(now / 1000)): URLSearchParams {
  const secret = md5(`${session.apiKey}${time}${session.account}${session.access_Token}`);
  return new URLSearchParams({ ...extra, access_token: session.access_Token, time: String(time), secret });
}

async function get(path: string, session: Login, extra: Record<string, string> = {}): Promise<Row> {
  return (await fetch(`${sandbox.url}${path}?${signed(session, extra).toString()}`)).json() as Promise<Row>;
}

async function post(path: string, session: Login, fields: Record<string, string>): Promise<Response> {
  return form(path, Object.fromEntries(signed(session, fields)));
}

let admin: Login;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 77, now: START, withdrawalTickMs: 0, dialect: 'shiku', clock: () => now });
  const answer = await login('admin', 'admin123');
  expect(answer.resultCode).toBe(1);
  admin = answer.data as Login;
});

afterAll(async () => {
  await sandbox?.close();
});

describe('the shiku dialect: login', () => {
  it('answers the login with Shiku fields: a 32-hex token, the user id as account, the apiKey and the role', async () => {
    const answer = await login('admin', 'admin123', '');
    expect(answer).toMatchObject({ resultCode: 1, currentTime: now });
    expect(answer.data).toMatchObject({ account: admin.account, adminId: '86admin', apiKey: 'mihuanim', role: '6', nickname: 'Administrator' });
    expect((answer.data as Login).access_Token).toMatch(/^[0-9a-f]{32}$/);
    // A login within the 30 minutes gets the same token again.
    expect((answer.data as Login).access_Token).toBe(admin.access_Token);
    expect((await login('operator', 'operator123', '123456')).data).toMatchObject({ role: '5' });
    expect((await login('1000', '1000', '0')).data).toMatchObject({ account: '1000', adminId: '861000', role: '6' });
  });

  it('refuses a wrong password, an unknown account, a missing or non-numeric code, and a bad code for a bound account', async () => {
    expect(await login('admin', 'wrong', '')).toMatchObject({ resultCode: 0, resultMsg: '帐号或密码错误！' });
    expect(await login('nobody', 'x', '')).toMatchObject({ resultCode: 0, resultMsg: '账号不存在' });
    const missing = (await (await form('/console/login', { account: 'admin', password: md5('admin123') })).json()) as Row;
    expect(missing).toMatchObject({ resultCode: 1010101, resultMsg: '请求参数验证失败，缺少必填参数或参数错误' });
    expect(await login('admin', 'admin123', 'abc')).toMatchObject({ resultCode: 1020101, resultMsg: '接口内部异常' });

    // A bound administrator needs the authenticator's current code.
    const bound = sandbox.app.sandbox.accounts.find((a) => a.account === 'admin')!;
    const secret = 'JBSWY3DPEHPK3PXP';
    Object.assign(bound, { googleBound: true, googleSecret: secret });
    try {
      expect(await login('admin', 'admin123', '')).toMatchObject({ resultCode: 0, resultMsg: '谷歌验证失败' });
      const wrong = String((Number(totp(secret, now)) + 1) % 1_000_000).padStart(6, '0');
      expect(await login('admin', 'admin123', wrong)).toMatchObject({ resultCode: 0, resultMsg: '谷歌验证失败' });
      expect(await login('admin', 'admin123', totp(secret, now))).toMatchObject({ resultCode: 1 });
    } finally {
      Object.assign(bound, { googleBound: false, googleSecret: null });
    }
  });

  it('redirects GET /console/login to the page and refuses JSON bodies as missing parameters', async () => {
    const page = await fetch(`${sandbox.url}/console/login`, { redirect: 'manual' });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/pages/console/login.html');
    const json = await fetch(`${sandbox.url}/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: 'admin', password: md5('admin123'), googlecode: 0 }),
    });
    expect(((await json.json()) as Row).resultCode).toBe(1010101);
  });
});

describe('the shiku dialect: the AuthorizationFilter', () => {
  it('refuses no token, an unknown token, a bad secret and a stale time', async () => {
    const bare = (await (await fetch(`${sandbox.url}/console/userList?page=1&limit=2`)).json()) as Row;
    expect(bare).toEqual({ resultCode: 1030101, resultMsg: '缺少访问令牌' });
    const unknown = await get('/console/userList', { ...admin, access_Token: 'f'.repeat(32) }, { page: '1' });
    expect(unknown).toEqual({ resultCode: 1030102, resultMsg: '访问令牌过期或无效' });
    const badSecret = signed(admin, { page: '1' });
    badSecret.set('secret', md5('wrong'));
    expect(await (await fetch(`${sandbox.url}/console/userList?${badSecret.toString()}`)).json()).toEqual({ resultCode: 0, resultMsg: '授权认证失败' });
    const stale = signed(admin, { page: '1' }, Math.floor(now / 1000) - 180);
    expect(await (await fetch(`${sandbox.url}/console/userList?${stale.toString()}`)).json()).toEqual({ resultCode: 0, resultMsg: '授权认证失败' });
    const fresh = signed(admin, { page: '1' }, Math.floor(now / 1000) - 179);
    expect(((await (await fetch(`${sandbox.url}/console/userList?${fresh.toString()}`)).json()) as Row).resultCode).toBe(1);
  });

  it('takes the signature from a form body as well as the query', async () => {
    const answer = (await (await post('/console/userList', admin, { page: '1', limit: '1' })).json()) as Row;
    expect(answer).toMatchObject({ resultCode: 1, count: 3000 });
  });

  it('expires a token 30 minutes after its login, however much it is used', async () => {
    const session = (await login('1000', '1000', '0')).data as Login;
    now += 29 * 60_000;
    expect((await get('/console/countNum', session)).resultCode).toBe(1);
    now += 61_000;
    expect(await get('/console/countNum', session)).toEqual({ resultCode: 1030102, resultMsg: '访问令牌过期或无效' });
    // A new login brings a new token.
    const again = (await login('1000', '1000', '0')).data as Login;
    expect(again.access_Token).not.toBe(session.access_Token);
    admin = (await login('admin', 'admin123')).data as Login;
  });

  it('logs out with a 302 and forgets the token', async () => {
    const session = (await login('1000', '1000', '0')).data as Login;
    const out = await fetch(`${sandbox.url}/console/logout?${signed(session).toString()}`, { redirect: 'manual' });
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe('/console/login');
    expect((await get('/console/countNum', session)).resultCode).toBe(1030102);
  });

  it('answers unknown paths as Shiku does and hides the contract paths', async () => {
    const unknown = await fetch(`${sandbox.url}/console/noSuchCall?${signed(admin).toString()}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ status: 404, error: 'Not Found', path: '/console/noSuchCall' });
    // Outside /console the app API's filter stands first: no app session is ever valid here.
    expect(await (await fetch(`${sandbox.url}/manage/user/userProfile/list`)).json()).toEqual({ resultCode: 1030101, resultMsg: '缺少访问令牌' });
    expect(await (await fetch(`${sandbox.url}/manage/logIn?access_token=${admin.access_Token}`, { method: 'POST' })).json()).toEqual({
      resultCode: 1030102,
      resultMsg: '访问令牌过期或无效',
    });
    expect(await (await fetch(`${sandbox.url}/getCurrentTime`)).json()).toEqual({ resultCode: 1, data: now, currentTime: now });
  });
});

describe('the shiku dialect: data', () => {
  it('lists users 1-based, newest first, in yuan and seconds, without passwords', async () => {
    const first = await get('/console/userList', admin, { page: '1', limit: '3' });
    const second = await get('/console/userList', admin, { page: '2', limit: '3' });
    expect(first).toMatchObject({ resultCode: 1, count: 3000 });
    const rows = first.data as Row[];
    expect(rows).toHaveLength(3);
    expect(Number(rows[0]!.createTime)).toBeGreaterThanOrEqual(Number(rows[2]!.createTime));
    expect((second.data as Row[])[0]!.userId).not.toBe(rows[0]!.userId);
    const stored = sandbox.app.sandbox.users.get(rows[0]!.userId as number)!;
    expect(rows[0]).toMatchObject({ nickname: stored.nickname, balance: stored.balance / 100, createTime: Math.floor(Date.parse(stored.registerTime) / 1000) });
    expect(rows[0]).not.toHaveProperty('password');
    const byId = await get('/console/userList', admin, { page: '1', limit: '5', keyWorld: String(stored.id) });
    expect((byId.data as Row[]).map((r) => r.userId)).toContain(stored.id);
    // Without page, Shiku's default of 0 makes a negative skip, which MongoDB refuses.
    expect((await get('/console/userList', admin, { limit: '5' })).resultCode).toBe(1020101);
  });

  it('lists withdrawals with type=2, approves one and rejects another with a refund', async () => {
    const list = await get('/console/systemRecharge', admin, { type: '2', page: '1', limit: '50' });
    expect(list).toMatchObject({ resultCode: 1 });
    const rows = list.data as Row[];
    expect(list.count).toBe(sandbox.app.sandbox.withdrawals.size);
    expect(list.total).toBeCloseTo(
      rows.reduce((sum, r) => sum + Number(r.money), 0),
      2,
    );
    const waiting = rows.filter((r) => r.auditStatus === 1);
    expect(waiting.length).toBeGreaterThanOrEqual(2);
    expect(waiting[0]!.id).toMatch(/^[0-9a-f]{24}$/);

    const approve = (await (await post('/console/recharge/audit', admin, { rechargeId: String(waiting[0]!.id), auditStatus: '0' })).json()) as Row;
    expect(approve).toMatchObject({ resultCode: 1, resultMsg: '操作成功' });
    const approved = sandbox.app.sandbox.withdrawals.find((w) => w.orderNo === waiting[0]!.tradeNo)!;
    expect(approved).toMatchObject({ state: 'approved', reviewer: 'admin' });

    const rejected = sandbox.app.sandbox.withdrawals.find((w) => w.orderNo === waiting[1]!.tradeNo)!;
    const user = sandbox.app.sandbox.users.get(rejected.userId)!;
    const before = user.balance;
    const reject = (await (
      await post('/console/recharge/audit', admin, { rechargeId: String(waiting[1]!.id), auditStatus: '2', desc: '收款人不符' })
    ).json()) as Row;
    expect(reject).toMatchObject({ resultCode: 1, resultMsg: '操作成功' });
    expect(rejected).toMatchObject({ state: 'rejected', reason: '收款人不符' });
    expect(user.balance).toBe(before + rejected.amount);
    const again = (await (await post('/console/recharge/audit', admin, { rechargeId: String(waiting[1]!.id), auditStatus: '0' })).json()) as Row;
    expect(again).toMatchObject({ resultCode: 0, resultMsg: '审核已拒绝，无法再次审核' });

    const after = await get('/console/systemRecharge', admin, { type: '2', page: '1', limit: '50', tradeNo: String(waiting[1]!.tradeNo) });
    expect(after.data).toEqual([expect.objectContaining({ auditStatus: 2, desc: '审核拒绝:收款人不符' })]);
  });

  it('keeps the withdrawal list to super admins and finance, but lets any role audit', async () => {
    const operator = (await login('operator', 'operator123')).data as Login;
    expect(await get('/console/systemRecharge', operator, { type: '2', page: '1' })).toMatchObject({ resultCode: 0, resultMsg: '权限不足' });
    const pending = sandbox.app.sandbox.withdrawals.find((w) => w.state === 'pending')!;
    const id = `${Math.floor(Date.parse(pending.createTime) / 1000).toString(16)}a1c00002${pending.id.toString(16).padStart(8, '0')}`;
    const audit = (await (await post('/console/recharge/audit', operator, { rechargeId: id, auditStatus: '0' })).json()) as Row;
    expect(audit).toMatchObject({ resultCode: 1 });
    expect(pending.state).toBe('approved');
  });

  it('adds a sensitive word with a 302 and pages the words 0-based in a PageVO', async () => {
    const added = await post('/console/addkeyword', admin, { word: '刷单返利群' });
    expect(added.status).toBe(302);
    expect(added.headers.get('location')).toBe('/console/keywordfilter');
    const found = await get('/console/keywordfilter', admin, { word: '刷单返利群', pageIndex: '0', pageSize: '10' });
    const page = found.data as { pageData: Row[]; total: number; pageIndex: number };
    expect(page).toMatchObject({ total: 1, pageIndex: 0 });
    expect(page.pageData[0]).toMatchObject({ word: '刷单返利群', createTime: Math.floor(now / 1000) });
    const removed = (await (await post('/console/deletekeyword', admin, { id: String(page.pageData[0]!.id) })).json()) as Row;
    expect(removed.resultCode).toBe(1);
    expect(sandbox.app.sandbox.sensitiveWords.find((w) => w.word === '刷单返利群')).toBeUndefined();
    // A role below admin (customer service) gets an empty answer and nothing changes.
    const support = sandbox.app.sandbox.accounts.find((a) => a.account === 'support_tanaka')!;
    const reset = (await (await post('/console/updateUserPassword', admin, { userId: support.userId, password: md5('support123') })).json()) as Row;
    expect(reset.resultCode).toBe(1);
    const session = (await login('support_tanaka', 'support123')).data as Login;
    expect(session.role).toBe('4');
    const refused = await post('/console/addkeyword', session, { word: '客服加的词' });
    expect(refused.status).toBe(200);
    expect(await refused.text()).toBe('');
    expect(sandbox.app.sandbox.sensitiveWords.find((w) => w.word === '客服加的词')).toBeUndefined();
  });

  it('bans and restores a user (admin roles only) and refuses user deletion outright', async () => {
    const target = sandbox.app.sandbox.users.find((u) => u.status === 'normal')!;
    expect(await get('/console/changeStatus', admin, { userId: String(target.id), status: '-1' })).toMatchObject({ resultCode: 1 });
    expect(target.status).toBe('banned');
    expect(((await get('/console/userList', admin, { page: '1', limit: '1', keyWorld: String(target.id) })).data as Row[])[0]).toMatchObject({ status: -1 });
    expect(await get('/console/changeStatus', admin, { userId: String(target.id), status: '1' })).toMatchObject({ resultCode: 1 });
    expect(target.status).toBe('normal');
    expect(await get('/console/deleteUser', admin, { userId: String(target.id) })).toMatchObject({ resultCode: 0, resultMsg: '权限不足,请联系技术删除' });
  });

  it('reads and sets the system config, super admin only, and the site functions follow', async () => {
    const config = (await get('/console/config', admin)).data as Row;
    expect(config).toMatchObject({ isAuthApi: 1, maxUserSize: 2000 });
    const operator = (await login('operator', 'operator123')).data as Login;
    expect(await (await post('/console/config/set', operator, { maxUserSize: '500' })).json()).toMatchObject({ resultCode: 0, resultMsg: '权限不足' });
    const saved = (await (
      await post('/console/config/set', admin, { ...Object.fromEntries(Object.entries(config).map(([k, v]) => [k, String(v)])), maxUserSize: '500' })
    ).json()) as Row;
    expect(saved.resultCode).toBe(1);
    expect(sandbox.app.sandbox.settings.siteFunctions!.maxGroupMembers).toBe(500);
    expect(((await get('/console/config', admin)).data as Row).maxUserSize).toBe(500);
  });
});
