import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totp } from '../../sandbox/lib/totp.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';

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

async function login(account: string, password: string, googlecode = '0'): Promise<Row> {
  return (await form('/console/login', { account, password: md5(password), googlecode })).json() as Promise<Row>;
}

/**
 * An account other than "1000" logs in only with a bound authenticator (AC 664-685): bind one the
 * console's way (google/qrcreate, as the super admin), then log in with its current code.
 */
async function loginBound(account: string, password: string): Promise<Login> {
  await fetch(`${sandbox.url}/console/google/qrcreate?${signed(admin, { nickName: account }).toString()}`);
  const secret = sandbox.app.sandbox.accounts.find((a) => a.account === account)!.googleSecret!;
  const answer = await login(account, password, totp(secret, now));
  expect(answer.resultCode).toBe(1);
  return answer.data as Login;
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
    const answer = await login('admin', 'admin123', '0');
    expect(answer).toMatchObject({ resultCode: 1, currentTime: now });
    expect(answer.data).toMatchObject({
      account: admin.account,
      adminId: '86admin',
      apiKey: 'mihuanim',
      role: '6',
      nickname: 'Administrator',
    });
    expect((answer.data as Login).access_Token).toMatch(/^[0-9a-f]{32}$/);
    // A login within the 30 minutes gets the same token again.
    expect((answer.data as Login).access_Token).toBe(admin.access_Token);
    expect((await login('operator', 'operator123', '123456')).data).toMatchObject({ role: '5' });
    expect((await login('1000', '1000', '0')).data).toMatchObject({ account: '1000', adminId: '861000', role: '6' });
  });

  it('refuses a wrong password, an unknown account, a missing or non-numeric code, and a bad code for a bound account', async () => {
    expect(await login('admin', 'wrong')).toMatchObject({ resultCode: 0, resultMsg: '帐号或密码错误！' });
    expect(await login('nobody', 'x')).toMatchObject({ resultCode: 0, resultMsg: '账号不存在' });
    const missing = (await (
      await form('/console/login', { account: 'admin', password: md5('admin123') })
    ).json()) as Row;
    expect(missing).toMatchObject({ resultCode: 1010101, resultMsg: '请求参数验证失败，缺少必填参数或参数错误' });
    expect(await login('admin', 'admin123', 'abc')).toMatchObject({ resultCode: 1020101, resultMsg: '接口内部异常' });

    // A bound administrator needs the authenticator's current code.
    const bound = sandbox.app.sandbox.accounts.find((a) => a.account === 'admin')!;
    const secret = 'JBSWY3DPEHPK3PXP';
    Object.assign(bound, { googleBound: true, googleSecret: secret });
    try {
      expect(await login('admin', 'admin123', '0')).toMatchObject({ resultCode: 0, resultMsg: '谷歌验证失败' });
      const wrong = String((Number(totp(secret, now)) + 1) % 1_000_000).padStart(6, '0');
      expect(await login('admin', 'admin123', wrong)).toMatchObject({ resultCode: 0, resultMsg: '谷歌验证失败' });
      expect(await login('admin', 'admin123', totp(secret, now))).toMatchObject({ resultCode: 1 });
    } finally {
      Object.assign(bound, { googleBound: false, googleSecret: null });
    }
  });

  it('takes no empty code, and lets no unbound account in but "1000" (AC 641, 664-685)', async () => {
    // @RequestParam int googlecode: '' fails Spring's conversion, for every account.
    for (const account of ['admin', '1000'])
      expect(await login(account, account === '1000' ? '1000' : 'admin123', '')).toMatchObject({
        resultCode: 1020101,
        resultMsg: '接口内部异常',
      });
    // An account without a Google secret: refused before its password is even compared.
    const unbound = sandbox.app.sandbox.accounts.find((a) => a.account === 'support_tanaka')!;
    expect(unbound.googleSecret).toBeNull();
    expect(await login('support_tanaka', 'wrong-anyway')).toEqual({
      resultCode: 0,
      resultMsg: '请绑定谷歌验证后使用',
      currentTime: now,
    });
    // "1000" skips the check while unbound, with any number.
    expect(await login('1000', '1000', '424242')).toMatchObject({ resultCode: 1, data: { account: '1000' } });
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
    expect(await (await fetch(`${sandbox.url}/console/userList?${badSecret.toString()}`)).json()).toEqual({
      resultCode: 0,
      resultMsg: '授权认证失败',
    });
    const stale = signed(admin, { page: '1' }, Math.floor(now / 1000) - 180);
    expect(await (await fetch(`${sandbox.url}/console/userList?${stale.toString()}`)).json()).toEqual({
      resultCode: 0,
      resultMsg: '授权认证失败',
    });
    const fresh = signed(admin, { page: '1' }, Math.floor(now / 1000) - 179);
    expect(
      ((await (await fetch(`${sandbox.url}/console/userList?${fresh.toString()}`)).json()) as Row).resultCode,
    ).toBe(1);
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
    expect(await (await fetch(`${sandbox.url}/manage/user/userProfile/list`)).json()).toEqual({
      resultCode: 1030101,
      resultMsg: '缺少访问令牌',
    });
    expect(
      await (await fetch(`${sandbox.url}/manage/logIn?access_token=${admin.access_Token}`, { method: 'POST' })).json(),
    ).toEqual({
      resultCode: 1030102,
      resultMsg: '访问令牌过期或无效',
    });
    expect(await (await fetch(`${sandbox.url}/getCurrentTime`)).json()).toEqual({
      resultCode: 1,
      data: now,
      currentTime: now,
    });
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
    expect(rows[0]).toMatchObject({
      nickname: stored.nickname,
      balance: stored.balance / 100,
      createTime: Math.floor(Date.parse(stored.registerTime) / 1000),
    });
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

    const approve = (await (
      await post('/console/recharge/audit', admin, { rechargeId: String(waiting[0]!.id), auditStatus: '0' })
    ).json()) as Row;
    expect(approve).toMatchObject({ resultCode: 1, resultMsg: '操作成功' });
    const approved = sandbox.app.sandbox.withdrawals.find((w) => w.orderNo === waiting[0]!.tradeNo)!;
    expect(approved).toMatchObject({ state: 'approved', reviewer: 'admin' });

    const rejected = sandbox.app.sandbox.withdrawals.find((w) => w.orderNo === waiting[1]!.tradeNo)!;
    const user = sandbox.app.sandbox.users.get(rejected.userId)!;
    const before = user.balance;
    const reject = (await (
      await post('/console/recharge/audit', admin, {
        rechargeId: String(waiting[1]!.id),
        auditStatus: '2',
        desc: '收款人不符',
      })
    ).json()) as Row;
    expect(reject).toMatchObject({ resultCode: 1, resultMsg: '操作成功' });
    expect(rejected).toMatchObject({ state: 'rejected', reason: '收款人不符' });
    expect(user.balance).toBe(before + rejected.amount);
    const again = (await (
      await post('/console/recharge/audit', admin, { rechargeId: String(waiting[1]!.id), auditStatus: '0' })
    ).json()) as Row;
    expect(again).toMatchObject({ resultCode: 0, resultMsg: '审核已拒绝，无法再次审核' });

    const after = await get('/console/systemRecharge', admin, {
      type: '2',
      page: '1',
      limit: '50',
      tradeNo: String(waiting[1]!.tradeNo),
    });
    expect(after.data).toEqual([expect.objectContaining({ auditStatus: 2, desc: '审核拒绝:收款人不符' })]);
  });

  it('keeps the withdrawal list to super admins and finance, but lets any role audit', async () => {
    const operator = (await login('operator', 'operator123')).data as Login;
    expect(await get('/console/systemRecharge', operator, { type: '2', page: '1' })).toMatchObject({
      resultCode: 0,
      resultMsg: '权限不足',
    });
    const pending = sandbox.app.sandbox.withdrawals.find((w) => w.state === 'pending')!;
    const id = `${Math.floor(Date.parse(pending.createTime) / 1000).toString(16)}a1c00002${pending.id.toString(16).padStart(8, '0')}`;
    const audit = (await (
      await post('/console/recharge/audit', operator, { rechargeId: id, auditStatus: '0' })
    ).json()) as Row;
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
    const removed = (await (
      await post('/console/deletekeyword', admin, { id: String(page.pageData[0]!.id) })
    ).json()) as Row;
    expect(removed.resultCode).toBe(1);
    expect(sandbox.app.sandbox.sensitiveWords.find((w) => w.word === '刷单返利群')).toBeUndefined();
    // A role below admin (customer service) gets an empty answer and nothing changes.
    const support = sandbox.app.sandbox.accounts.find((a) => a.account === 'support_tanaka')!;
    const reset = (await (
      await post('/console/updateUserPassword', admin, { userId: support.userId, password: md5('support123') })
    ).json()) as Row;
    expect(reset.resultCode).toBe(1);
    const session = await loginBound('support_tanaka', 'support123');
    expect(session.role).toBe('4');
    const refused = await post('/console/addkeyword', session, { word: '客服加的词' });
    expect(refused.status).toBe(200);
    expect(await refused.text()).toBe('');
    expect(sandbox.app.sandbox.sensitiveWords.find((w) => w.word === '客服加的词')).toBeUndefined();
  });

  it('bans and restores a user (admin roles only) and refuses user deletion outright', async () => {
    const target = sandbox.app.sandbox.users.find((u) => u.status === 'normal')!;
    expect(await get('/console/changeStatus', admin, { userId: String(target.id), status: '-1' })).toMatchObject({
      resultCode: 1,
    });
    expect(target.status).toBe('banned');
    expect(
      (
        (await get('/console/userList', admin, { page: '1', limit: '1', keyWorld: String(target.id) })).data as Row[]
      )[0],
    ).toMatchObject({ status: -1 });
    expect(await get('/console/changeStatus', admin, { userId: String(target.id), status: '1' })).toMatchObject({
      resultCode: 1,
    });
    expect(target.status).toBe('normal');
    expect(await get('/console/deleteUser', admin, { userId: String(target.id) })).toMatchObject({
      resultCode: 0,
      resultMsg: '权限不足,请联系技术删除',
    });
  });

  it('reads and sets the system config, super admin only, and the site functions follow', async () => {
    const config = (await get('/console/config', admin)).data as Row;
    expect(config).toMatchObject({ isAuthApi: 1, maxUserSize: 2000 });
    const operator = (await login('operator', 'operator123')).data as Login;
    expect(await (await post('/console/config/set', operator, { maxUserSize: '500' })).json()).toMatchObject({
      resultCode: 0,
      resultMsg: '权限不足',
    });
    const saved = (await (
      await post('/console/config/set', admin, {
        ...Object.fromEntries(Object.entries(config).map(([k, v]) => [k, String(v)])),
        maxUserSize: '500',
      })
    ).json()) as Row;
    expect(saved.resultCode).toBe(1);
    expect(sandbox.app.sandbox.settings.siteFunctions!.maxGroupMembers).toBe(500);
    expect(((await get('/console/config', admin)).data as Row).maxUserSize).toBe(500);
  });
});

/** Shiku's map keys are China-time days: what a stored ISO time reads as there. */
const chinaDay = (isoText: string) => new Date(Date.parse(isoText) + 8 * 3_600_000).toISOString().slice(0, 10);

describe('the shiku dialect: dashboard statistics', () => {
  it('counts registrations per China-time day as one-key objects, end day excluded', async () => {
    const answer = await get('/console/getUserRegisterCount', admin, {
      startDate: '2026-01-01',
      endDate: '2026-03-01',
      timeUnit: '2',
    });
    expect(answer.resultCode).toBe(1);
    const rows = answer.data as Row[];
    const expected = new Map<string, number>();
    for (const user of sandbox.app.sandbox.users.all()) {
      const day = chinaDay(user.registerTime);
      // $gt start, $lt end: both midnights in China time.
      const s = Date.parse(user.registerTime) / 1000;
      if (s > Date.parse('2026-01-01T00:00:00+08:00') / 1000 && s < Date.parse('2026-03-01T00:00:00+08:00') / 1000)
        expected.set(day, (expected.get(day) ?? 0) + 1);
    }
    expect(rows.map((r) => Object.keys(r)[0])).toEqual([...expected.keys()].sort());
    expect(Object.fromEntries(rows.map((r) => Object.entries(r)[0]!))).toEqual(Object.fromEntries(expected));
    const months = (
      await get('/console/getUserRegisterCount', admin, {
        startDate: '2026-01-01',
        endDate: '2026-03-01',
        timeUnit: '1',
      })
    ).data as Row[];
    expect(months.map((r) => Object.keys(r)[0])).toEqual(['2026-01', '2026-02']);
    // A timeUnit outside 1–4 breaks the map function: the handler answers data 0.
    expect(
      (await get('/console/addRoomsCount', admin, { startDate: '2025-01-01', endDate: '2026-03-01', timeUnit: '5' }))
        .data,
    ).toBe(0);
    expect(await get('/console/chatMsgCount', admin, { startDate: 'soon', timeUnit: '2' })).toMatchObject({
      resultCode: 1020101,
    });
  });

  it('answers the message, friend, room and online series, and refuses a room without messages', async () => {
    const messages = (await get('/console/chatMsgCount', admin, { startDate: '2026-02-01', endDate: '2026-02-08' }))
      .data as Row[];
    expect(messages).toHaveLength(7);
    expect(Object.keys(messages[0]!)[0]).toBe('2026-02-01');
    expect(Number(Object.values(messages[0]!)[0])).toBeGreaterThan(0);
    const friends = (
      await get('/console/addFriendsCount', admin, { startDate: '2026-01-01', endDate: '2026-03-01', timeUnit: '1' })
    ).data as Row[];
    const users = (
      await get('/console/getUserRegisterCount', admin, {
        startDate: '2026-01-01',
        endDate: '2026-03-01',
        timeUnit: '1',
      })
    ).data as Row[];
    expect(friends.map((r) => Number(Object.values(r)[0]))).toEqual(users.map((r) => 12 * Number(Object.values(r)[0])));
    const online = await get('/console/getUserStatusCount', admin, { startDate: '2026-02-01', endDate: '2026-02-03' });
    expect((online.data as Row[]).map((r) => Object.keys(r)[0])).toEqual(['2026-02-01', '2026-02-02']);
    // Hours and minutes need samples the sandbox does not keep.
    expect((await get('/console/getUserStatusCount', admin, { timeUnit: '3' })).data).toEqual([]);
    expect(await get('/console/groupMsgCount', admin, { timeUnit: '2' })).toMatchObject({ resultCode: 1010101 });
    expect(await get('/console/groupMsgCount', admin, { roomId: 'x' })).toMatchObject({
      resultCode: 0,
      resultMsg: '暂无数据',
    });
  });

  it('pages the newest users in a PageVO', async () => {
    const answer = await get('/console/newRegisterUser', admin, { pageIndex: '0', pageSize: '4' });
    const page = answer.data as { pageData: Row[]; total: number; pageCount: number };
    expect(page).toMatchObject({
      total: sandbox.app.sandbox.users.size,
      pageIndex: 0,
      pageSize: 4,
      pageCount: Math.ceil(sandbox.app.sandbox.users.size / 4),
    });
    const newest = [...sandbox.app.sandbox.users.all()].sort((a, b) => (a.registerTime < b.registerTime ? 1 : -1))[0]!;
    expect(page.pageData[0]).toMatchObject({ userId: newest.id });
    expect(page).not.toHaveProperty('allPageCount');
  });
});

describe('the shiku dialect: administrators', () => {
  it('grants a role to a chat user by telephone, lists it, disables it and deletes it', async () => {
    const store = sandbox.app.sandbox;
    const user = store.users.find(
      (u) => u.phone.startsWith('+86') && !store.accounts.find((a) => a.userId === String(u.id)),
    )!;
    const telePhone = user.phone.replace(/\D/g, '').slice(2);
    const operator = (await login('operator', 'operator123')).data as Login;
    expect(await get('/console/addAdmin', { ...admin }, { telePhone: '19999999999', role: '4' })).toMatchObject({
      resultCode: 0,
      resultMsg: '用户不存在',
    });
    expect(await get('/console/addAdmin', admin, { telePhone, role: '7', type: '0' })).toMatchObject({ resultCode: 1 });
    const account = store.accounts.find((a) => a.userId === String(user.id))!;
    expect(account).toMatchObject({ account: telePhone, nickname: user.nickname, status: 'enabled' });
    expect(await get('/console/addAdmin', operator, { telePhone, role: '5' })).toMatchObject({
      resultCode: 0,
      resultMsg: '该账号已经是有其他身份',
    });

    const finance = await get('/console/adminList', admin, { adminId: '86admin', type: '7', page: '1', limit: '20' });
    expect((finance.data as Row[]).find((r) => r.userId === user.id)).toMatchObject({
      role: 7,
      status: 1,
      phone: telePhone,
    });
    // The caller may not list its own role, and only admins list at all.
    expect(await get('/console/adminList', admin, { adminId: '86admin', type: '6', page: '1' })).toMatchObject({
      resultCode: 0,
      resultMsg: '权限不足',
    });

    // modifyAdmin matches userId and role together: the wrong role changes nothing.
    expect(
      await get('/console/modifyAdmin', admin, {
        adminId: admin.account,
        userId: String(user.id),
        role: '5',
        status: '-1',
      }),
    ).toEqual({
      resultCode: 1,
      currentTime: now,
    });
    expect(account.status).toBe('enabled');
    const disabled = await get('/console/modifyAdmin', admin, {
      adminId: admin.account,
      userId: String(user.id),
      role: '7',
      status: '-1',
    });
    expect(disabled).toMatchObject({ resultCode: 1, data: { userId: user.id, role: 7, status: -1 } });
    expect(account.status).toBe('disabled');
    expect(
      await get('/console/modifyAdmin', admin, {
        adminId: admin.account,
        password: md5('wrong'),
        userId: String(user.id),
        role: '7',
        status: '1',
      }),
    ).toMatchObject({
      resultCode: 0,
      resultMsg: '密码有误',
    });

    const support = await loginBound('support_tanaka', 'support123');
    expect(await get('/console/delAdmin', support, { adminId: String(user.id), type: '7' })).toMatchObject({
      resultCode: 0,
      resultMsg: '权限不足',
    });
    expect(await get('/console/delAdmin', admin, { adminId: String(user.id) })).toMatchObject({ resultCode: 1010101 });
    expect(await get('/console/delAdmin', admin, { adminId: String(user.id), type: '1' })).toMatchObject({
      resultCode: 1,
    });
    expect(store.accounts.find((a) => a.userId === String(user.id))).toBeUndefined();
  });

  it('binds a Google secret at once and answers the QR code as a PNG, GET only', async () => {
    const store = sandbox.app.sandbox;
    const operatorAccount = store.accounts.find((a) => a.account === 'operator')!;
    const png = await fetch(
      `${sandbox.url}/console/google/qrcreate?${signed(admin, { nickName: 'operator' }).toString()}`,
    );
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(await png.arrayBuffer()).slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    const secret = operatorAccount.googleSecret!;
    expect(secret).toMatch(/^[A-Z2-7]{16}$/);
    // A second call reuses the secret; the login now needs the authenticator's code.
    await fetch(`${sandbox.url}/console/google/qrcreate?${signed(admin, { nickName: 'operator' }).toString()}`);
    expect(operatorAccount.googleSecret).toBe(secret);
    try {
      expect(await login('operator', 'operator123', '0')).toMatchObject({ resultCode: 0, resultMsg: '谷歌验证失败' });
      expect(await login('operator', 'operator123', totp(secret, now))).toMatchObject({ resultCode: 1 });
      expect(
        (await (await post('/console/google/qrcreate', admin, { nickName: 'operator' })).json()) as Row,
      ).toMatchObject({ resultCode: 1020101 });
      expect(await get('/console/google/qrcreate', admin, { nickName: 'nobody' })).toMatchObject({
        resultCode: 1020101,
      });
    } finally {
      Object.assign(operatorAccount, { googleBound: false, googleSecret: null });
    }
  });
});

describe('the shiku dialect: users, rooms and invitation codes', () => {
  it('edits a user through updateUser and creates one with userId 0', async () => {
    const store = sandbox.app.sandbox;
    const user = store.users.find((u) => u.status === 'normal')!;
    expect(
      await get('/console/updateUser', admin, { userId: String(user.id), nickname: '改过的名字', sex: '0' }),
    ).toMatchObject({
      resultCode: 1,
      data: user.id,
    });
    expect(user).toMatchObject({ nickname: '改过的名字', gender: 'female' });
    const taken = user.phone.replace(/\D/g, '');
    expect(
      await get('/console/updateUser', admin, {
        userId: '0',
        telephone: taken.slice(2),
        areaCode: taken.slice(0, 2),
        nickname: 'x',
      }),
    ).toMatchObject({
      resultCode: 0,
      resultMsg: '手机号已被注册',
    });
    const created = await get('/console/updateUser', admin, {
      userId: '0',
      telephone: '13900001111',
      nickname: '后台注册',
      password: '123456',
    });
    expect(created.resultCode).toBe(1);
    expect(store.users.get(created.data as number)).toMatchObject({ nickname: '后台注册', phone: '+8613900001111' });
    const operator = (await login('operator', 'operator123')).data as Login;
    const finance = store.accounts.find((a) => a.account === 'finance_li')!;
    expect(
      (await (
        await post('/console/updateUserPassword', admin, { userId: finance.userId, password: md5('finance123') })
      ).json()) as Row,
    ).toMatchObject({
      resultCode: 1,
    });
    const financeSession = (await login('finance_li', 'finance123', totp(finance.googleSecret!, now))).data as Login;
    expect(financeSession.role).toBe('7');
    expect(await get('/console/updateUser', financeSession, { userId: String(user.id), nickname: 'no' })).toMatchObject(
      {
        resultCode: 0,
        resultMsg: '权限不足',
      },
    );
    expect(operator.role).toBe('5');
  });

  it('renames, mutes until a time, locks and dissolves a room', async () => {
    const store = sandbox.app.sandbox;
    const group = store.groups.find((g) => g.status === 'normal' && !g.muted && g.memberCount > 2)!;
    const roomId = `${Math.floor(Date.parse(group.createTime) / 1000)
      .toString(16)
      .padStart(8, '0')}a1c00001${group.id.toString(16).padStart(8, '0')}`;
    const room = async () => (await get('/console/getRoomMember', admin, { roomId })).data as Row;
    expect(await get('/console/updateRoom', admin, { roomId, roomName: '新群名' })).toMatchObject({
      resultCode: 0,
      resultMsg: '操作失败',
    });
    expect(
      await get('/console/updateRoom', admin, { userId: admin.account, roomId, roomName: '新群名' }),
    ).toMatchObject({ resultCode: 1 });
    expect(group.name).toBe('新群名');
    const until = Math.floor(now / 1000) + 600;
    expect(
      await get('/console/updateRoom', admin, { userId: admin.account, roomId, talkTime: String(until) }),
    ).toMatchObject({ resultCode: 1 });
    expect(group.muted).toBe(true);
    expect(await room()).toMatchObject({ talkTime: until, s: 1 });
    now += 601_000;
    expect(await room()).toMatchObject({ talkTime: until });
    expect(group.muted).toBe(false);
    admin = (await login('admin', 'admin123')).data as Login;
    expect(await get('/console/updateRoom', admin, { userId: admin.account, roomId, maxUserSize: '1' })).toMatchObject({
      resultCode: 0,
      resultMsg: '群成员上限不能低于当前群成员人数',
    });
    // Config.maxUserSize (set to 500 above) caps it.
    expect(
      await get('/console/updateRoom', admin, { userId: admin.account, roomId, maxUserSize: '100000' }),
    ).toMatchObject({
      resultCode: 0,
      resultMsg: '当前群成员人数上限500',
    });
    const size = String(group.memberCount + 1);
    expect(
      await get('/console/updateRoom', admin, { userId: admin.account, roomId, maxUserSize: size, s: '-1' }),
    ).toMatchObject({ resultCode: 1 });
    expect(group.maxMembers).toBe(Number(size));
    expect(await room()).toMatchObject({ s: -1, maxUserSize: Number(size) });

    const owner = (store.members.get(group.id) ?? []).find((m) => m.role === 'owner')!;
    const member = (store.members.get(group.id) ?? []).find((m) => m.role === 'member')!;
    expect(await get('/console/deleteRoom', admin, { roomId, userId: String(member.userId) })).toMatchObject({
      resultCode: 0,
      resultMsg: '暂无权限解散群组',
    });
    expect(await get('/console/deleteRoom', admin, { roomId, userId: String(owner.userId) })).toMatchObject({
      resultCode: 1,
    });
    expect(group.status).toBe('dissolved');
    // deleteRoom removes the room (AC 319-333): no longer listed, no longer found; a locked room
    // (s: -1, Room.java "被禁用") is still listed.
    const listed = async () =>
      ((await get('/console/roomList', admin, { page: '1', limit: '0' })).data as Row[]).map((r) => r.id);
    expect(await listed()).not.toContain(roomId);
    expect((await get('/console/getRoomMember', admin, { roomId })).data).toBeUndefined();
    const other = store.groups.find((g) => g.status === 'normal' && g.id !== group.id)!;
    const otherId = `${Math.floor(Date.parse(other.createTime) / 1000)
      .toString(16)
      .padStart(8, '0')}a1c00001${other.id.toString(16).padStart(8, '0')}`;
    await get('/console/updateRoom', admin, { userId: admin.account, roomId: otherId, s: '-1' });
    const rows = (await get('/console/roomList', admin, { page: '1', limit: '0' })).data as Row[];
    expect(rows.find((r) => r.id === otherId)).toMatchObject({ s: -1 });
  });

  it('creates an invitation code only in the one-code-per-user mode, and a code once', async () => {
    const site = sandbox.app.sandbox.settings.siteFunctions!;
    site.inviteCodeRequired = false;
    const create = (inviteCode: string) =>
      get('/console/create/inviteCode', admin, { inviteCode, defaultfriend: '', desc: '' });
    expect(await create('SHIKU00')).toMatchObject({ resultCode: 0, resultMsg: '系统当前没有开启邀请码' });
    site.inviteCodeRequired = true;
    expect(await create('SHIKU00')).toMatchObject({ resultCode: 1 });
    expect(await create('SHIKU00')).toMatchObject({ resultCode: 0, resultMsg: '邀请码已存在' });
  });

  it('updates an invitation code in place', async () => {
    sandbox.app.sandbox.settings.siteFunctions!.inviteCodeRequired = true;
    await get('/console/create/inviteCode', admin, { inviteCode: 'SHIKU01', defaultfriend: '10001', desc: '渠道一' });
    const listed = (await get('/console/inviteCodeList', admin, { keyworld: 'SHIKU01', page: '1' })).data as Row[];
    expect(listed).toHaveLength(1);
    expect(
      await get('/console/update/updateInviteCode', admin, {
        id: String(listed[0]!.id),
        inviteCode: 'SHIKU02',
        defaultfriend: '10002',
      }),
    ).toMatchObject({
      resultCode: 1010101,
    });
    expect(
      await get('/console/update/updateInviteCode', admin, {
        id: String(listed[0]!.id),
        inviteCode: 'SHIKU02',
        defaultfriend: '10002',
        desc: '渠道二',
      }),
    ).toMatchObject({
      resultCode: 1,
    });
    expect(sandbox.app.sandbox.inviteCodes.find((c) => c.code === 'SHIKU02')).toBeDefined();
    expect(
      ((await get('/console/inviteCodeList', admin, { keyworld: 'SHIKU02', page: '1' })).data as Row[])[0],
    ).toMatchObject({
      id: listed[0]!.id,
      defaultfriend: '10002',
      desc: '渠道二',
    });
  });
});

describe('the shiku dialect: money and client config', () => {
  it('credits a wallet in yuan (super admin only) and lists it as a system recharge', async () => {
    const store = sandbox.app.sandbox;
    const user = store.users.find((u) => u.status === 'normal')!;
    const before = user.balance;
    const operator = (await login('operator', 'operator123')).data as Login;
    expect(await get('/console/Recharge', operator, { userId: String(user.id), money: '12.34' })).toMatchObject({
      resultCode: 0,
      resultMsg: '权限不足',
    });
    expect(await get('/console/Recharge', admin, { money: '1' })).toMatchObject({ resultCode: 1020101 });
    expect(await get('/console/Recharge', admin, { userId: '1', money: '1' })).toMatchObject({
      resultCode: 0,
      resultMsg: '充值失败, 用户不存在!',
    });
    const answer = await get('/console/Recharge', admin, { userId: String(user.id), money: '12.34' });
    expect(answer).toMatchObject({ resultCode: 1, data: (before + 1234) / 100 });
    expect(user.balance).toBe(before + 1234);
    const listed = await get('/console/systemRecharge', admin, { userId: String(user.id), page: '1', limit: '5' });
    expect((listed.data as Row[])[0]).toMatchObject({
      money: 12.34,
      type: 3,
      payType: 4,
      desc: '后台余额充值',
      time: Math.floor(now / 1000),
    });
  });

  it('answers a withdrawal card and red packet receipts', async () => {
    const store = sandbox.app.sandbox;
    const w = store.withdrawals.find((x) => x.method === 'bankCard')!;
    const rows = (await get('/console/systemRecharge', admin, { type: '2', page: '1', limit: '500' })).data as Row[];
    const row = rows.find((r) => r.tradeNo === w.orderNo)!;
    const card = await get('/console/recharge/audit/bankCardInfo', admin, { bankCardId: String(row.bankCardId) });
    expect(card.data).toMatchObject({
      id: row.bankCardId,
      uid: w.userId,
      cardNo: w.payeeAccount,
      userName: w.payeeName,
      isDeleted: 0,
    });
    expect(await get('/console/recharge/audit/bankCardInfo', admin, {})).toMatchObject({ resultCode: 1010101 });

    const received = store.personalRedEnvelopes.find((p) => p.state === 'received')!;
    const packets = (await get('/console/redPacketList', admin, { page: '1', limit: '100000' })).data as Row[];
    const packet = packets.find(
      (p) =>
        p.type === 1 &&
        p.status === 2 &&
        p.sendTime === Math.floor(Date.parse(received.createTime) / 1000) &&
        p.userId === received.senderId,
    )!;
    const water = await get('/console/receiveWater', admin, { redId: String(packet.id), page: '1' });
    expect(water).toMatchObject({ resultCode: 1, count: 1 });
    expect((water.data as Row[])[0]).toMatchObject({
      redId: packet.id,
      money: packet.money,
      sendId: received.senderId,
    });
    const group = packets.find((p) => p.type === 2 && Number(p.receiveCount) > 1)!;
    const groupWater = await get('/console/receiveWater', admin, { redId: String(group.id), page: '1', limit: '50' });
    expect(groupWater.count).toBeLessThanOrEqual(Number(group.receiveCount));
    expect(await get('/console/receiveWater', admin, { page: '1' })).toMatchObject({ resultCode: 1020101 });
  });

  it('reads and sets the client config, super admin only; unsent fields go back to their defaults', async () => {
    expect((await get('/console/clientConfig', admin)).data).toMatchObject({
      id: 10000,
      isOpenRegister: 1,
      displayRedPacket: 1,
    });
    const operator = (await login('operator', 'operator123')).data as Login;
    expect(await get('/console/clientConfig/set', operator, { isOpenRegister: '0' })).toMatchObject({
      resultCode: 0,
      resultMsg: '权限不足',
    });
    expect(
      await get('/console/clientConfig/set', admin, { isOpenRegister: '0', companyName: '示例公司' }),
    ).toMatchObject({ resultCode: 1 });
    expect((await get('/console/clientConfig', admin)).data).toMatchObject({
      isOpenRegister: 0,
      companyName: '示例公司',
    });
    await get('/console/clientConfig/set', admin, { displayRedPacket: '0' });
    const after = (await get('/console/clientConfig', admin)).data as Row;
    expect(after).toMatchObject({ isOpenRegister: 1, displayRedPacket: 0 });
    expect(after).not.toHaveProperty('companyName');
  });
});

describe('the shiku dialect: what issue 39 read in the source', () => {
  it('writes withdrawals as Shiku does: bank cards payType 4 with their card, transfers 3, status text in desc', async () => {
    const rows = (await get('/console/systemRecharge', admin, { type: '2', page: '1', limit: '0' })).data as Row[];
    const store = sandbox.app.sandbox;
    const methodOf = (r: Row) => store.withdrawals.find((w) => w.orderNo === r.tradeNo)!.method;
    const cards = rows.filter((r) => methodOf(r) === 'bankCard');
    const alipay = rows.filter((r) => methodOf(r) === 'alipay');
    expect(cards.length).toBeGreaterThan(0);
    expect(alipay.length).toBeGreaterThan(0);
    // ConsumeRecordManagerImpl.applyDrawings 409: SYSTEMPAY with the card; TransfersRecordManagerImpl: BALANCEAY.
    for (const r of cards) expect(r).toMatchObject({ payType: 4, bankCardId: expect.stringMatching(/^[0-9a-f]{24}$/) });
    for (const r of alipay) expect(r.payType).toBe(3);
    expect(rows.some((r) => r.payType === 1)).toBe(false);
    for (const r of rows.filter((row) => row.auditStatus === 1)) expect(r.desc).toBe('提现待审核');
    // The applicant's nickname is userName (recharge(), line 325); the account is userId.
    const first = rows[0]!;
    expect(first.userName).toBe(store.users.get(Number(first.userId))!.nickname);
  });

  it('answers xMPPTimeout and sMSType as fastjson names them and binds XMPPTimeout and SMSType', async () => {
    const config = (await get('/console/config', admin)).data as Row;
    expect(config).toMatchObject({ xMPPTimeout: 180, sMSType: 'aliyun' });
    expect(config).not.toHaveProperty('XMPPTimeout');
    const set = (fields: Record<string, string>) => post('/console/config/set', admin, fields);
    await set({ XMPPTimeout: '60', SMSType: 'tencent' });
    expect((await get('/console/config', admin)).data).toMatchObject({ xMPPTimeout: 60, sMSType: 'tencent' });
    // The read fields posted back as answered do not bind: both return to Config's defaults.
    const read = (await get('/console/config', admin)).data as Row;
    await set(Object.fromEntries(Object.entries(read).map(([k, v]) => [k, String(v)])));
    expect((await get('/console/config', admin)).data).toMatchObject({ xMPPTimeout: 180, sMSType: 'aliyun' });
  });

  it("never writes an administrator's lastLoginTime (modifyRole matches role 0)", async () => {
    await login('admin', 'admin123');
    const rows = (await get('/console/adminList', admin, { adminId: '86admin', type: '0', page: '1', limit: '50' }))
      .data as Row[];
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.lastLoginTime).toBe(0);
      // type 0: roles 5 and 6 only (RoleManagerImpl.adminList).
      expect([5, 6]).toContain(r.role);
    }
  });
});
