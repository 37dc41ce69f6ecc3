import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CALLS, GATEWAY_PATHS, RESOURCES, resourceCalls } from '../../server/contract/index.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { objectId } from '../../sandbox/shiku/wire.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { SAME_ORIGIN, buildTestGateway } from './support/gateway.js';

/**
 * The shipped Shiku map against the sandbox's Shiku dialect as issue 39 §1 read Shiku's source
 * (docs/dialects/shiku-im.md): the console's own login (an empty code goes as googlecode=0; an
 * unbound account's refusal is the console's AUTHENTICATOR_NEEDED), withdrawals' method and
 * reason, accounts that are user ids, red packets told apart by roomJid with the room's name,
 * locked and deleted rooms, a password reset's answer and a settings save that keeps the fields
 * the screen does not show.
 */

const SHIKU_MAP = path.resolve('server/backend-map/bindings/shiku-im.json');
const calls = (id: string) => resourceCalls(RESOURCES.find((r) => r.id === id)!);
type Row = Record<string, unknown>;
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

let sandbox: StartedSandbox;
let app: FastifyInstance;
let cookies: Record<string, string>;

async function logIn(gateway: FastifyInstance, account: string, password: string) {
  return gateway.inject({ method: 'POST', url: CALLS.login, headers: SAME_ORIGIN, payload: { account, password } });
}

async function list(id: string, query = 'pageNum=1&pageSize=500'): Promise<{ list: Row[]; total: number }> {
  const res = await app.inject({ method: 'GET', url: `${calls(id).list}?${query}`, cookies });
  expect(res.json()).toMatchObject({ code: 200 });
  return (res.json() as { data: { list: Row[]; total: number } }).data;
}

/** A call to the dialect itself as Shiku's console signs it, as account 1000. */
async function shikuCall(pathName: string, fields: Record<string, string>): Promise<Row> {
  const login = (await (
    await fetch(`${sandbox.url}/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ account: '1000', password: md5('1000'), googlecode: '0' }).toString(),
    })
  ).json()) as { data: { access_Token: string; account: string } };
  const time = String(Math.floor(Date.now() / 1000));
  const token = login.data.access_Token;
  const secret = md5(`mihuanim${time}${login.data.account}${token}`);
  const query = new URLSearchParams({ ...fields, access_token: token, time, secret });
  // POST as a form, as the console posts: some mappings (config/set) take no GET.
  return (
    await fetch(`${sandbox.url}${pathName}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: query.toString(),
    })
  ).json() as Promise<Row>;
}

beforeAll(async () => {
  sandbox = await startSandbox({ dialect: 'shiku', port: 0, seed: 39, withdrawalTickMs: 0 });
  app = await buildTestGateway({ CHAT_BACKEND_URL: sandbox.url, UPSTREAM_TIMEOUT_MS: '5000', BACKEND_MAP: SHIKU_MAP });
  const res = await logIn(app, 'admin', 'admin123');
  expect(res.json()).toMatchObject({ code: 200 });
  cookies = Object.fromEntries(res.cookies.map((c) => [c.name, c.value]));
});

afterAll(async () => {
  await app?.close();
  await sandbox?.close();
});

describe('the console login on Shiku', () => {
  it('sends the form’s empty code as googlecode=0; without whenEmpty Shiku’s int refuses it', async () => {
    const sent = sandbox.app.sandboxCalls.filter((c) => c.path === '/console/login');
    expect(sent.length).toBeGreaterThan(0);
    const without = JSON.parse(readFileSync(SHIKU_MAP, 'utf8')) as BackendMapFile;
    delete without.auth!.login.whenEmpty;
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'gw-shiku-')), 'map.json');
    writeFileSync(file, JSON.stringify(without));
    const plain = await buildTestGateway({ CHAT_BACKEND_URL: sandbox.url, BACKEND_MAP: file });
    try {
      const refused = await logIn(plain, 'admin', 'admin123');
      // ExceptionHandlerAdvice's 1020101, which the map's refusals call a 500.
      expect(refused.json()).toMatchObject({ code: 500, msg: '接口内部异常' });
    } finally {
      await plain.close();
    }
  });

  it('answers an unbound account’s "请绑定谷歌验证后使用" as AUTHENTICATOR_NEEDED', async () => {
    const res = await logIn(app, 'support_tanaka', 'whatever1');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 403,
      error: 'AUTHENTICATOR_NEEDED',
      data: { authenticatorNeeded: true, backendMsg: '请绑定谷歌验证后使用' },
    });
    expect(res.cookies.find((c) => c.name === 'token' && c.value !== '')).toBeUndefined();
  });
});

describe('finance on Shiku', () => {
  it('reads the withdrawal method from payType (bank card 4, transfers 3) and the reason after "审核拒绝:"', async () => {
    const store = sandbox.app.sandbox;
    const { list: rows } = await list('withdrawalReview');
    const stored = (row: Row) =>
      store.withdrawals.all().find((w) => objectId('consume', w.id, w.createTime) === row.id)!;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const w = stored(row);
      if (w.method !== 'usdt') expect(row.method).toBe(w.method);
      // The account is the user id; the nickname is never shown as one.
      expect(String(row.userAccount)).toBe(String(w.userId));
      if (w.state === 'pending') expect(row.reason).toBeNull();
    }
    const pending = rows.find((r) => r.state === 'pending')!;
    const rejected = await app.inject({
      method: 'POST',
      url: calls('withdrawalReview').action('reject'),
      cookies,
      headers: SAME_ORIGIN,
      payload: { id: pending.id, reason: '收款人不符' },
    });
    expect(rejected.json()).toMatchObject({ code: 200 });
    const after = (await list('withdrawalReview', `pageNum=1&pageSize=500`)).list.find((r) => r.id === pending.id)!;
    expect(after).toMatchObject({ state: 'rejected', reason: '收款人不符' });
  });

  it('lists personal packets without roomJid and group packets with it, counted at the gateway, with the room’s name', async () => {
    const store = sandbox.app.sandbox;
    const personal = await list('personalRedEnvelopes', 'pageNum=2&pageSize=5');
    expect(personal.total).toBe(store.personalRedEnvelopes.size);
    expect(personal.list.length).toBe(Math.min(5, Math.max(0, store.personalRedEnvelopes.size - 5)));
    const group = await list('groupRedEnvelopes', 'pageNum=1&pageSize=20');
    expect(group.total).toBe(store.groupRedEnvelopes.size);
    expect(group.list.length).toBe(Math.min(20, store.groupRedEnvelopes.size));
    for (const row of group.list) {
      const packet = store.groupRedEnvelopes
        .all()
        .find((p) => objectId('groupRedPacket', p.id, p.createTime) === row.id)!;
      const room = store.groups.get(packet.groupId);
      // A room deleted since reads as no name, never as its jid.
      expect(row.groupName).toBe(room && room.status !== 'dissolved' ? room.name : null);
      expect(String(row.senderAccount)).toBe(String(packet.senderId));
    }
  });

  it('says in the reset’s answer that the password became 123456', async () => {
    const user = sandbox.app.sandbox.users.all()[0]!;
    const res = await app.inject({
      method: 'POST',
      url: calls('users').action('resetPassword'),
      cookies,
      headers: SAME_ORIGIN,
      payload: { id: user.id },
    });
    expect(res.json()).toMatchObject({ code: 200, data: { password: '123456' } });
  });
});

describe('groups and settings on Shiku', () => {
  it('shows a locked room as a normal group owned by a user id, and a dissolved one no more', async () => {
    const store = sandbox.app.sandbox;
    const [locked, dissolved] = store.groups.all().filter((g) => g.status === 'normal');
    const roomId = (g: typeof locked) => objectId('room', g!.id, g!.createTime);
    expect(await shikuCall('/console/updateRoom', { roomId: roomId(locked), userId: '1000', s: '-1' })).toMatchObject({
      resultCode: 1,
    });
    const dissolve = await app.inject({
      method: 'POST',
      url: calls('groups').action('dissolve'),
      cookies,
      headers: SAME_ORIGIN,
      payload: { id: roomId(dissolved) },
    });
    expect(dissolve.json()).toMatchObject({ code: 200 });
    const { list: rows, total } = await list('groups', 'pageNum=1&pageSize=500');
    expect(total).toBe(store.groups.all().filter((g) => g.status !== 'dissolved').length);
    expect(rows.find((r) => r.id === roomId(dissolved))).toBeUndefined();
    expect(rows.find((r) => r.id === roomId(locked))).toMatchObject({
      status: 'normal',
      ownerAccount: locked!.ownerId,
    });
  });

  it('saves the site functions without resetting the Config fields the screen does not show', async () => {
    expect(
      await shikuCall('/console/config/set', { XMPPTimeout: '60', SMSType: 'tencent', maxUserSize: '800' }),
    ).toMatchObject({ resultCode: 1 });
    const read = await app.inject({ method: 'GET', url: calls('siteFunctions').config, cookies });
    const form = (read.json() as { data: Row }).data;
    expect(form).not.toHaveProperty('inviteCodeRequired');
    const saved = await app.inject({
      method: 'POST',
      url: calls('siteFunctions').config,
      cookies,
      headers: SAME_ORIGIN,
      payload: { ...form, maxGroupMembers: 900 },
    });
    expect(saved.json()).toMatchObject({ code: 200 });
    const config = (await shikuCall('/console/config', {})).data as Row;
    expect(config).toMatchObject({ maxUserSize: 900, xMPPTimeout: 60, sMSType: 'tencent' });
  });

  it('offers no administrator’s last login (Role.lastLoginTime stays 0) and no invitation-code switch', async () => {
    const offer = await app.inject({ method: 'GET', url: GATEWAY_PATHS.backendOffer, cookies });
    const fields = (offer.json() as { unsupported: { fields: Record<string, string[]> } }).unsupported.fields;
    expect(fields.admins).toContain('lastLoginTime');
    // registerInviteCode is a mode of three (0 off, 1 one code per user, 2 shared and optional).
    expect(fields.siteFunctions).toContain('inviteCodeRequired');
  });
});
