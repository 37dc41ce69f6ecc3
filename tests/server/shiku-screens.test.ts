import { createHash } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALLS,
  DISCOVER_ENTRIES,
  ONLINE_USERS,
  OPERATION_LOG,
  SUGGESTIONS,
  USERS,
  resourceCalls,
} from '../../server/contract/index.js';
import { USER_REPORT_REASONS, reportOf } from '../../sandbox/shiku/reports.js';
import { objectId, parseObjectId } from '../../sandbox/shiku/wire.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { REPO_ROOT } from '../support/paths.js';
import { SAME_ORIGIN, buildTestGateway } from './support/gateway.js';

/**
 * The Shiku console pages bound beyond the first screens (issue 39 section 2): reports
 * (AC beReport / deleteReport), the custom websites of the moments page (AC friendsterWebsite*)
 * and online users (AC userList with onlinestate). First the dialect as Shiku's own console speaks
 * to it (signed form calls), then the shipped map through the gateway.
 */

type Row = Record<string, unknown>;
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const START = Date.parse('2026-03-02T04:05:06.000Z');
const SHIKU_MAP = path.join(REPO_ROOT, 'server/backend-map/bindings/shiku-im.json');

let sandbox: StartedSandbox;
let now = START;
let session: { access_Token: string; account: string; apiKey: string };
let app: FastifyInstance;
let cookies: Record<string, string>;

const store = () => sandbox.app.sandbox;

function signed(extra: Record<string, string> = {}): URLSearchParams {
  const time = Math.floor(now / 1000);
  const secret = md5(`${session.apiKey}${time}${session.account}${session.access_Token}`);
  return new URLSearchParams({ ...extra, access_token: session.access_Token, time: String(time), secret });
}

async function call(path: string, fields: Record<string, string> = {}): Promise<Row> {
  const res = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    body: signed(fields).toString(),
  });
  return (await res.json()) as Row;
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 39, now: START, withdrawalTickMs: 0, dialect: 'shiku', clock: () => now });
  const res = await fetch(`${sandbox.url}/console/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
    body: new URLSearchParams({ account: 'admin', password: md5('admin123'), googlecode: '0' }).toString(),
  });
  session = ((await res.json()) as { data: typeof session }).data;
  app = await buildTestGateway({ CHAT_BACKEND_URL: sandbox.url, UPSTREAM_TIMEOUT_MS: '5000', BACKEND_MAP: SHIKU_MAP });
  const login = await app.inject({
    method: 'POST',
    url: CALLS.login,
    headers: SAME_ORIGIN,
    payload: { account: 'admin', password: 'admin123' },
  });
  expect(login.json(), login.body).toMatchObject({ code: 200 });
  cookies = Object.fromEntries(login.cookies.map((c) => [c.name, c.value]));
});

afterAll(async () => {
  await app?.close();
  await sandbox?.close();
});

const list = async (resource: { path: string }, query: string) => {
  const res = await app.inject({ method: 'GET', url: `${resourceCalls(resource).list}?${query}`, cookies });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: { list: Row[]; total: number } }).data;
};
const gatewayPost = (url: string, payload: object) =>
  app.inject({ method: 'POST', url, headers: SAME_ORIGIN, cookies, payload });

describe('the shiku dialect: reports (举报管理)', () => {
  it('pages user reports 0-based in a PageVO, newest first, with the reason text and both nicknames', async () => {
    const all = [...store().suggestions.all()].sort((a, b) =>
      a.createTime < b.createTime ? 1 : a.createTime > b.createTime ? -1 : b.id - a.id,
    );
    const answer = await call('/console/beReport', { type: '0', pageIndex: '1', pageSize: '5' });
    expect(answer).toMatchObject({ resultCode: 1, currentTime: now });
    expect(answer).not.toHaveProperty('resultMsg');
    const page = answer.data as { pageData: Row[]; total: number; pageIndex: number; allPageCount: number };
    expect(page).toMatchObject({ total: all.length, pageIndex: 1, pageSize: 5, allPageCount: all.length });
    const expected = all.slice(5, 10);
    expect(page.pageData.map((r) => parseObjectId('report', String(r.id)))).toEqual(expected.map((s) => s.id));
    const first = page.pageData[0]!;
    const { reason, toUserId } = reportOf(store(), expected[0]!);
    expect(first).toMatchObject({
      userId: expected[0]!.userId,
      toUserId,
      roomId: '',
      reason,
      info: USER_REPORT_REASONS[reason],
      status: 1,
      time: Math.floor(Date.parse(expected[0]!.createTime) / 1000),
      userName: store().users.get(expected[0]!.userId)!.nickname,
      toUserName: store().users.get(toUserId)!.nickname,
    });
    expect(toUserId).not.toBe(expected[0]!.userId);
  });

  it('narrows by sender, answers no room or web reports, and refuses a type getReport does not know', async () => {
    const sender = store().suggestions.all()[0]!.userId;
    const mine = (await call('/console/beReport', { sender: String(sender), pageSize: '100' })).data as {
      pageData: Row[];
      total: number;
    };
    expect(mine.total).toBe(
      store()
        .suggestions.all()
        .filter((s) => s.userId === sender).length,
    );
    expect(mine.pageData.every((r) => r.userId === sender)).toBe(true);
    expect(((await call('/console/beReport', { type: '1' })).data as Row).total).toBe(0);
    // getReport leaves data null for type 3, its ConcurrentMap throws, and the catch answers a bare failure.
    expect(await call('/console/beReport', { type: '3' })).toEqual({ resultCode: 0, currentTime: now });
    // So does a negative page: the query fails inside getReport's try and leaves data null.
    expect(await call('/console/beReport', { pageIndex: '-1' })).toEqual({ resultCode: 0, currentTime: now });
  });

  it('deletes a report by its ObjectId (admin roles only), and refuses a missing id as a parameter error', async () => {
    const victim = store().suggestions.all().at(-1)!;
    expect(await call('/console/deleteReport', { id: objectId('report', victim.id, victim.createTime) })).toEqual({
      resultCode: 1,
      currentTime: now,
    });
    expect(store().suggestions.get(victim.id)).toBeUndefined();
    expect(await call('/console/deleteReport', {})).toMatchObject({ resultCode: 1010101 });
  });
});

describe('the shiku dialect: custom websites (自定网站)', () => {
  it('pages the websites 1-based, newest first, adds one with a time in ms, and deletes it', async () => {
    const before = await call('/console/friendsterWebsiteList', { page: '1', limit: '100' });
    expect(before).toMatchObject({ resultCode: 1, count: store().discover.size });
    const rows = before.data as Row[];
    const times = rows.map((r) => Number(r.time));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(Object.keys(rows[0]!).sort()).toEqual(['icon', 'id', 'time', 'title', 'url']);

    now += 60_000;
    const added = { icon: 'https://cdn.example.com/w.png', title: '官网', url: 'https://example.com/' };
    expect(await call('/console/addFriendsterWebsite', added)).toEqual({ resultCode: 1, currentTime: now });
    const after = await call('/console/friendsterWebsiteList', { page: '1', limit: '1' });
    expect(after.count).toBe(rows.length + 1);
    const newest = (after.data as Row[])[0]!;
    expect(newest).toMatchObject({ ...added, time: now });

    expect(await call('/console/deleteFriendsterWebsite', { id: String(newest.id) })).toMatchObject({ resultCode: 1 });
    expect((await call('/console/friendsterWebsiteList', { page: '1', limit: '1' })).count).toBe(rows.length);
  });

  it('refuses a website without an icon, a bad id, and a list without a page (a negative skip)', async () => {
    expect(await call('/console/addFriendsterWebsite', { title: 't', url: 'https://e.com' })).toMatchObject({
      resultCode: 0,
      resultMsg: '请补全信息再提交',
    });
    expect(await call('/console/deleteFriendsterWebsite', { id: 'nope' })).toMatchObject({
      resultCode: 0,
      resultMsg: 'invalid hexadecimal representation of an ObjectId: [nope]',
    });
    expect(await call('/console/friendsterWebsiteList', {})).toMatchObject({ resultCode: 1020101 });
  });
});

describe('the Shiku map binds reports, custom websites and online users through the gateway', () => {
  it('lists reports as suggestions: the reporter’s user id, the reason text, the time; deletes one per call', async () => {
    const data = await list(SUGGESTIONS, 'pageNum=1&pageSize=20');
    expect(data.total).toBe(store().suggestions.size);
    const row = data.list[0]!;
    const record = store().suggestions.get(parseObjectId('report', String(row.id))!)!;
    const { reason } = reportOf(store(), record);
    expect(row).toMatchObject({
      userAccount: record.userId,
      content: USER_REPORT_REASONS[reason],
      createTime: new Date(Math.floor(Date.parse(record.createTime) / 1000) * 1000).toISOString(),
    });
    for (const absent of ['type', 'state', 'reply']) expect(row).not.toHaveProperty(absent);

    const ids = data.list.slice(0, 2).map((r) => String(r.id));
    const res = await gatewayPost(resourceCalls(SUGGESTIONS).remove, { ids });
    expect(res.json(), res.body).toMatchObject({ code: 200 });
    for (const id of ids) expect(store().suggestions.get(parseObjectId('report', id)!)).toBeUndefined();
    const refused = await gatewayPost(resourceCalls(SUGGESTIONS).action('markHandled'), { id: ids[0] });
    expect(refused.statusCode).toBe(404);
  });

  it('lists the custom websites as discover entries and adds one through addFriendsterWebsite', async () => {
    const data = await list(DISCOVER_ENTRIES, 'pageNum=1&pageSize=50');
    expect(data.total).toBe(store().discover.size);
    expect(data.list[0]).toMatchObject({
      icon: expect.any(String),
      title: expect.any(String),
      url: expect.any(String),
    });
    // Shiku keeps no switch or order for them: both are absent, not shown as off or 0.
    for (const absent of ['enabled', 'sort']) expect(data.list[0]).not.toHaveProperty(absent);
    const res = await gatewayPost(resourceCalls(DISCOVER_ENTRIES).save, {
      icon: 'https://cdn.example.com/i.png',
      title: 'Shiku site',
      url: 'https://shiku.example.com/',
    });
    expect(res.json(), res.body).toMatchObject({ code: 200 });
    expect(store().discover.find((d) => d.title === 'Shiku site')?.url).toBe('https://shiku.example.com/');
    // Shiku's own check: an entry without an icon is refused with its text.
    const refused = await gatewayPost(resourceCalls(DISCOVER_ENTRIES).save, { title: 'x', url: 'https://x.example/' });
    expect(refused.json(), refused.body).toMatchObject({ msg: '请补全信息再提交' });
    expect(store().discover.find((d) => d.title === 'x')).toBeUndefined();
  });

  it('lists online users from userList with onlinestate=1: only online ones, their id and nickname', async () => {
    const online = store()
      .users.all()
      .filter((u) => u.online);
    expect(online.length).toBeGreaterThan(0);
    const data = await list(ONLINE_USERS, 'pageNum=1&pageSize=500');
    expect(data.total).toBe(online.length);
    expect(new Set(data.list.map((r) => r.id))).toEqual(new Set(online.slice(0, 500).map((u) => u.id)));
    const user = store().users.get(Number(data.list[0]!.id))!;
    expect(data.list[0]).toMatchObject({ account: user.account, nickname: user.nickname });
    for (const absent of ['device', 'ip', 'region', 'loginTime']) expect(data.list[0]).not.toHaveProperty(absent);
  });

  it('lists Shiku’s request log as the operation log: the caller’s user id, the full URI, the client IP, the time', async () => {
    now += 1000;
    await list(USERS, 'pageNum=1&pageSize=3&keyword=zz-request-log');
    const data = await list(OPERATION_LOG, 'pageNum=1&pageSize=50&keyword=userList');
    const row = data.list.find((r) => String(r.detail).includes('keyWorld=zz-request-log'))!;
    expect(row, JSON.stringify(data.list.slice(0, 3))).toBeDefined();
    expect(String(row.detail)).toMatch(/^\/console\/userList\?/);
    expect(row).toMatchObject({
      adminAccount: Number(session.account),
      createTime: new Date(Math.floor(now / 1000) * 1000).toISOString(),
    });
    expect(typeof row.ip).toBe('string');
    for (const absent of ['action', 'module']) expect(row).not.toHaveProperty(absent);
    // keyWorld searches apiId (class_method): another method's name finds none of these.
    const other = await list(OPERATION_LOG, 'pageNum=1&pageSize=50&keyword=beReport');
    expect(other.list.every((r) => String(r.detail).startsWith('/console/beReport'))).toBe(true);
  });
});

describe('the shiku dialect: the request log follows Config isSaveRequestLogs', () => {
  it('saves nothing once request logs are off', async () => {
    const off = await call('/console/config/set', { isSaveRequestLogs: '0' });
    expect(off).toMatchObject({ resultCode: 1 });
    const before = (await call('/console/ApiLogList', { page: '1', limit: '1' })).count;
    await call('/console/userList', { page: '1', limit: '1' });
    expect((await call('/console/ApiLogList', { page: '1', limit: '1' })).count).toBe(before);
  });
});
