import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CALLS, GATEWAY_PATHS, RESOURCES, resourceCalls } from '../../server/contract/index.js';
import { SEEDED_WEBSITE } from '../../sandbox/shiku/config.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { SAME_ORIGIN, buildTestGateway } from './support/gateway.js';

/**
 * The shipped Shiku map's filters and the lists it reads from Shiku's own calls, against the
 * sandbox's Shiku dialect: roomList takes no dates, status or mute, so the groups screen offers no
 * such filter and the gateway refuses one rather than answer unfiltered; the bill is
 * /console/userBill, one user's at a time; the login records are each user's latest login, the
 * loginLog userList nests in every user; app versions and download addresses are rows of the one
 * ClientConfig record.
 */

const SHIKU_MAP = path.resolve('server/backend-map/bindings/shiku-im.json');
const calls = (id: string) => resourceCalls(RESOURCES.find((r) => r.id === id)!);
type Row = Record<string, unknown>;
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

let sandbox: StartedSandbox;
let app: FastifyInstance;
let cookies: Record<string, string>;

async function get(url: string) {
  return app.inject({ method: 'GET', url, cookies });
}

async function list(id: string, query: string): Promise<{ list: Row[]; total: number }> {
  const res = await get(`${calls(id).list}?${query}`);
  expect(res.json()).toMatchObject({ code: 200 });
  return (res.json() as { data: { list: Row[]; total: number } }).data;
}

const sent = (pathName: string) => sandbox.app.sandboxCalls.filter((c) => c.path === pathName);

beforeAll(async () => {
  sandbox = await startSandbox({ dialect: 'shiku', port: 0, seed: 18, withdrawalTickMs: 0 });
  app = await buildTestGateway({ CHAT_BACKEND_URL: sandbox.url, UPSTREAM_TIMEOUT_MS: '5000', BACKEND_MAP: SHIKU_MAP });
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

describe('filters roomList cannot apply', () => {
  it('are listed in the offer, so the groups screen does not show them', async () => {
    const offer = (await get(GATEWAY_PATHS.backendOffer)).json() as {
      unsupported: { filters: Record<string, string[]> };
    };
    expect(offer.unsupported.filters.groups?.sort()).toEqual(['createTime', 'muted', 'status']);
    expect(offer.unsupported.filters.billingRecords).toEqual(['createTime']);
  });

  it('are refused with 400 naming the field, before Shiku is asked; a keyword still searches', async () => {
    const before = sent('/console/roomList').length;
    for (const query of ['createTimeFrom=2024-01-01', 'createTimeTo=2024-01-31', 'status=normal', 'muted=true']) {
      const res = await get(`${calls('groups').list}?pageNum=1&pageSize=20&${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'BAD_REQUEST', data: { field: query.replace(/(From|To)?=.*/, '') } });
    }
    expect(sent('/console/roomList').length).toBe(before);
    const name = sandbox.app.sandbox.groups.all()[0]!.name;
    const { list: rows } = await list('groups', `pageNum=1&pageSize=100&keyword=${encodeURIComponent(name)}`);
    expect(rows.map((r) => r.name)).toContain(name);
  });
});

describe('the bill from /console/userBill', () => {
  const store = () => sandbox.app.sandbox;
  const busiest = () => {
    const counts = new Map<number, number>();
    for (const b of store().bills.all()) counts.set(b.userId, (counts.get(b.userId) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  };

  it('needs the user: a list without userAccount is refused, Shiku never asked', async () => {
    const before = sent('/console/userBill').length;
    const res = await get(`${calls('billingRecords').list}?pageNum=1&pageSize=20`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'BAD_REQUEST', data: { field: 'userAccount' } });
    expect(sent('/console/userBill').length).toBe(before);
    // The offer says so, and the screen asks for the user rather than send the call.
    const offer = (await get(GATEWAY_PATHS.backendOffer)).json() as { needs?: Record<string, string[]> };
    expect(offer.needs).toEqual({ billingRecords: ['userAccount'] });
  });

  it('lists every type of one user’s bills, newest first, unsigned yuan read as fen, types by ConsumeType', async () => {
    const userId = busiest();
    const bills = store()
      .bills.all()
      .filter((b) => b.userId === userId)
      .sort((a, b) => Date.parse(b.createTime) - Date.parse(a.createTime) || b.id - a.id);
    const { list: rows, total } = await list('billingRecords', `pageNum=1&pageSize=500&userAccount=${userId}`);
    expect(total).toBe(bills.length);
    // Shiku keeps times in seconds.
    const second = (iso: string) => new Date(Math.floor(Date.parse(iso) / 1000) * 1000).toISOString();
    expect(new Set(rows.map((r) => r.createTime))).toEqual(new Set(bills.map((b) => second(b.createTime))));
    for (const bill of bills) {
      const row = rows.find((r) => r.createTime === second(bill.createTime) && r.remark === bill.remark)!;
      expect(row).toMatchObject({ userAccount: userId, amount: Math.abs(bill.amount) });
      expect(row.balanceAfter).toBe(bill.balanceAfter);
      // A sign-in reward has no ConsumeType: Shiku would keep it as a system recharge.
      expect(row.type).toBe(bill.type === 'signIn' ? 'adjust' : bill.type);
    }
  });

  it('filters by type through Shiku’s type (withdrawals are 2), and takes no dates', async () => {
    const userId = busiest();
    const { list: rows, total } = await list(
      'billingRecords',
      `pageNum=1&pageSize=500&userAccount=${userId}&type=recharge`,
    );
    expect(rows.every((r) => r.type === 'recharge')).toBe(true);
    expect(total).toBe(
      store()
        .bills.all()
        .filter((b) => b.userId === userId && b.type === 'recharge').length,
    );
    const dated = await get(
      `${calls('billingRecords').list}?pageNum=1&pageSize=20&userAccount=${userId}&createTimeFrom=2024-01-01`,
    );
    expect(dated.statusCode).toBe(400);
  });

  it('is refused as Shiku refuses a user it does not have', async () => {
    const res = await get(`${calls('billingRecords').list}?pageNum=1&pageSize=20&userAccount=999999999`);
    expect(res.json()).toMatchObject({ code: 400, msg: expect.stringContaining('用户不存在') });
  });
});

describe('login records from userList’s loginLog', () => {
  it('lists each user’s latest login with its time, and offers no account or time filter', async () => {
    const users = sandbox.app.sandbox.users.all();
    const { list: rows, total } = await list('loginRecords', 'pageNum=1&pageSize=500');
    expect(total).toBe(users.length);
    expect(rows).toHaveLength(500);
    for (const row of rows) {
      const user = sandbox.app.sandbox.users.get(row.id as number)!;
      // The account is Shiku's user id, as on every Shiku screen.
      expect(row.account).toBe(user.id);
      const expected = user.lastLoginTime ? new Date(Math.floor(Date.parse(user.lastLoginTime) / 1000) * 1000) : null;
      expect(row.time ?? null).toEqual(expected && expected.toISOString());
    }
    const offer = (await get(GATEWAY_PATHS.backendOffer)).json() as {
      unsupported: { filters: Record<string, string[]>; fields: Record<string, string[]> };
    };
    expect(offer.unsupported.filters.loginRecords?.sort()).toEqual(['account', 'time']);
    expect(offer.unsupported.fields.loginRecords?.sort()).toEqual(['device', 'ip', 'region', 'result']);
  });
});

describe('app versions and download addresses from ClientConfig', () => {
  /** The dialect's ClientConfig as Shiku's console reads it: logged in as 1000, signed. */
  async function shikuClientConfig(): Promise<Row> {
    const form = (body: Record<string, string>) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    });
    const login = (await (
      await fetch(`${sandbox.url}/console/login`, form({ account: '1000', password: md5('1000'), googlecode: '0' }))
    ).json()) as { data: { access_Token: string; account: string } };
    const token = login.data.access_Token;
    const time = String(Math.floor(Date.now() / 1000));
    const secret = md5(`mihuanim${time}${login.data.account}${token}`);
    const res = await fetch(`${sandbox.url}/console/clientConfig`, form({ access_token: token, time, secret }));
    return ((await res.json()) as { data: Row }).data;
  }

  it('lists one version per platform from androidVersion, iosAppUrl, …, searched and filtered at the gateway', async () => {
    const versions = sandbox.app.sandbox.appVersions.all();
    const latest = (platform: string) =>
      versions.filter((v) => v.platform === platform).sort((a, b) => b.buildNumber - a.buildNumber)[0]!;
    const config = await shikuClientConfig();
    expect(config).toMatchObject({
      androidVersion: latest('android').buildNumber,
      pcAppUrl: latest('windows').downloadUrl,
    });
    const { list: rows, total } = await list('appVersions', 'pageNum=1&pageSize=20');
    expect(total).toBe(4);
    expect(rows.map((r) => r.platform)).toEqual(['android', 'ios', 'windows', 'mac']);
    for (const row of rows) {
      const v = latest(row.platform as string);
      expect(row).toMatchObject({ buildNumber: v.buildNumber, downloadUrl: v.downloadUrl });
    }
    const ios = await list('appVersions', 'pageNum=1&pageSize=20&platform=ios');
    expect(ios.list.map((r) => r.platform)).toEqual(['ios']);
    const before = sent('/console/clientConfig/set').length;
    const edit = await app.inject({
      method: 'POST',
      url: calls('appVersions').save,
      cookies,
      headers: SAME_ORIGIN,
      payload: { id: 1, version: '2', buildNumber: 2 },
    });
    expect(edit.json()).toMatchObject({ error: 'UNSUPPORTED_BY_BACKEND' });
    expect(sent('/console/clientConfig/set').length).toBe(before);
  });

  it('lists the Android and iOS download addresses and the download page (website)', async () => {
    const { list: rows } = await list('distributionAddresses', 'pageNum=1&pageSize=20');
    const config = await shikuClientConfig();
    expect(rows.map((r) => [r.platform, r.url])).toEqual([
      ['android', config.androidAppUrl],
      ['ios', config.iosAppUrl],
      ['web', config.website],
    ]);
    expect(config.website).toBe(SEEDED_WEBSITE);
  });
});
