import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListAnswer, PermissionEntry, UserDetail } from '../../server/contract/index.js';
import { CALLS, CLEAN_CONFIRM_TEXT, PERMISSIONS, RESOURCES, resourceCalls } from '../../server/contract/index.js';
import { BackendClient, type BackendSession } from '../../sandbox/client.js';
import { totp } from '../../sandbox/lib/totp.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';

type Row = Record<string, unknown>;

let sandbox: StartedSandbox;
let client: BackendClient;
let admin: BackendSession;

const calls = (id: string) => {
  const resource = RESOURCES.find((r) => r.id === id);
  if (!resource) throw new Error(`no resource ${id}`);
  return resourceCalls(resource);
};

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 21, withdrawalTickMs: 0 });
  client = new BackendClient(sandbox.url);
  admin = await client.login('admin', 'admin123');
});

afterAll(async () => {
  await sandbox?.close();
});

async function send(
  path: string,
  options: { query?: Record<string, string | number>; body?: unknown; session?: BackendSession } = {},
) {
  return (await client.call<unknown>(path, { session: admin, ...options })).envelope;
}

async function data<T>(
  path: string,
  options: { query?: Record<string, string | number>; body?: unknown; session?: BackendSession } = {},
): Promise<T> {
  const envelope = await send(path, options);
  expect(envelope.code, `${path}: ${envelope.msg}`).toBe(200);
  return envelope.data as T;
}

describe('users', () => {
  it('bans with a reason so the next list shows it, and unbans', async () => {
    const users = calls('users');
    const target = (await data<ListAnswer<Row>>(users.list, { query: { status: 'normal', pageSize: 1 } })).list[0]!;
    const bannedBefore = (await data<ListAnswer<Row>>(users.list, { query: { status: 'banned' } })).total;

    await data(users.action('ban'), { body: { id: target.id, reason: 'Spam links in groups' } });
    const banned = await data<ListAnswer<Row>>(users.list, {
      query: { status: 'banned', keyword: String(target.id), pageSize: 50 },
    });
    expect(banned.list.map((u) => u.id)).toContain(target.id);
    expect((await data<ListAnswer<Row>>(users.list, { query: { status: 'banned' } })).total).toBe(bannedBefore + 1);
    // Banning a banned user is not offered, and the reason is required.
    expect((await send(users.action('ban'), { body: { id: target.id, reason: 'again' } })).code).toBe(400);
    expect(await send(users.action('ban'), { body: { id: target.id } })).toMatchObject({
      code: 400,
      msg: '此项不能为空',
    });

    await data(users.action('unban'), { body: { id: target.id } });
    expect((await data<ListAnswer<Row>>(users.list, { query: { status: 'banned' } })).total).toBe(bannedBefore);

    const log = await data<ListAnswer<Row>>(calls('operationLog').list, {
      query: { action: 'ban', keyword: String(target.id) },
    });
    expect(log.list[0]).toMatchObject({ adminAccount: 'admin', action: 'ban', module: 'users' });
    expect(String(log.list[0]!.detail)).toContain('Spam links in groups');
  });

  it('bans in bulk, resets a password once, and toggles privilege', async () => {
    const users = calls('users');
    const page = await data<ListAnswer<Row>>(users.list, { query: { status: 'normal', pageSize: 3, sort: 'id' } });
    const ids = page.list.map((u) => u.id);
    expect(await data(users.action('ban'), { body: { ids, reason: 'bot wave' } })).toEqual({ updated: 3 });
    for (const id of ids)
      expect((await data<UserDetail>(users.detail, { query: { id: Number(id) } })).user.status).toBe('banned');

    const reset = await data<{ password: string }>(users.action('resetPassword'), { body: { id: ids[0] } });
    expect(reset.password).toMatch(/^[A-Za-z0-9]{10}$/);

    const plain = (await data<ListAnswer<Row>>(users.list, { query: { pageSize: 200 } })).list.find(
      (u) => u.privileged === false,
    )!;
    await data(users.action('setPrivileged'), { body: { id: plain.id } });
    const privileged = await data<ListAnswer<Row>>(calls('privilegedUsers').list, {
      query: { keyword: String(plain.account) },
    });
    expect(privileged.list.map((p) => p.userAccount)).toContain(plain.account);
    await data(users.action('unsetPrivileged'), { body: { id: plain.id } });
    expect((await data<UserDetail>(users.detail, { query: { id: Number(plain.id) } })).user.privileged).toBe(false);
  });

  it('answers a detail with the wallet from the ledger, groups and recent logins', async () => {
    const users = calls('users');
    const rich = (await data<ListAnswer<Row>>(users.list, { query: { sort: '-balance', pageSize: 1 } })).list[0]!;
    const detail = await data<UserDetail>(users.detail, { query: { id: Number(rich.id) } });
    expect(detail.user.id).toBe(rich.id);
    expect(detail.wallet.balance).toBe(rich.balance);
    const bills = await data<ListAnswer<Row>>(calls('billingRecords').list, {
      query: { userId: Number(rich.id), type: 'recharge', pageSize: 1 },
    });
    expect(detail.wallet.totalRecharge).toBe(bills.totals?.amount);
    expect(detail.recentLogins.length).toBeGreaterThan(0);
    expect(Array.isArray(detail.moments) && Array.isArray(detail.groups)).toBe(true);

    const groups = calls('groups');
    const big = (await data<ListAnswer<Row>>(groups.list, { query: { sort: '-memberCount', pageSize: 1 } })).list[0]!;
    const members = await data<{ members: { userId: number; role: string }[] }>(groups.detail, {
      query: { id: Number(big.id) },
    });
    expect(members.members).toHaveLength(Number(big.memberCount));
    expect(members.members.filter((m) => m.role === 'owner')).toHaveLength(1);
    const member = members.members.find((m) => m.role !== 'owner')!;
    const memberDetail = await data<UserDetail>(users.detail, { query: { id: member.userId } });
    expect(memberDetail.groups.map((g) => g.id)).toContain(big.id);
  });

  it('mutes, unmutes and dissolves a group', async () => {
    const groups = calls('groups');
    const target = (
      await data<ListAnswer<Row>>(groups.list, { query: { status: 'normal', muted: 'false', pageSize: 1 } })
    ).list[0]!;
    await data(groups.action('muteAll'), { body: { id: target.id } });
    expect(
      (await data<ListAnswer<Row>>(groups.list, { query: { muted: 'true', keyword: String(target.id) } })).list.map(
        (g) => g.id,
      ),
    ).toContain(target.id);
    await data(groups.action('dissolve'), { body: { id: target.id } });
    const after = await data<{ group: Row; members: unknown[] }>(groups.detail, { query: { id: Number(target.id) } });
    expect(after.group.status).toBe('dissolved');
    expect(after.members).toEqual([]);
  });
});

describe('administrators', () => {
  const admins = calls('admins');

  it('creates an admin who logs in with exactly the given permissions, and disables one who then cannot', async () => {
    const permissions = [PERMISSIONS.userProfile, PERMISSIONS.massMessage];
    const created = await data<Row>(admins.save, {
      body: {
        account: 'night_shift',
        nickname: 'Night shift',
        password: 'moonlight-42',
        permissions,
        status: 'enabled',
      },
    });
    expect(created).not.toHaveProperty('password');
    expect(created).not.toHaveProperty('passwordHash');
    const session = await client.login('night_shift', 'moonlight-42');
    const held = await data<PermissionEntry[]>(CALLS.permission, { session });
    expect(held.map((p) => p.permission).sort()).toEqual([...permissions].sort());
    await data(calls('users').list, { session });
    expect((await send(admins.list, { session })).code).toBe(401);

    await data(admins.action('disable'), { body: { id: created.id } });
    // The open session ends and a new login is refused.
    expect((await send(calls('users').list, { session })).code).toBe(401);
    await expect(client.login('night_shift', 'moonlight-42')).rejects.toThrow(/disabled/);
    await data(admins.action('enable'), { body: { id: created.id } });
    await data(admins.action('resetPassword'), { body: { id: created.id, password: 'sunrise-77' } });
    await expect(client.login('night_shift', 'moonlight-42')).rejects.toThrow();
    await client.login('night_shift', 'sunrise-77');

    const logins = await data<ListAnswer<Row>>(calls('operationLog').list, {
      query: { adminAccount: 'night_shift', action: 'login' },
    });
    expect(logins.total).toBeGreaterThanOrEqual(2);
  });

  it('never deletes or disables the built-in accounts', async () => {
    const rows = (await data<ListAnswer<Row>>(admins.list, { query: { pageSize: 50 } })).list;
    for (const account of ['admin', 'operator']) {
      const row = rows.find((r) => r.account === account)!;
      const refused = await send(admins.remove, { body: { ids: [row.id] } });
      expect(refused.code).toBe(400);
      expect((await send(admins.action('disable'), { body: { id: row.id } })).code).toBe(400);
    }
    await client.login('operator', 'operator123');
  });

  it('binds an authenticator only once a code proves the secret, then resets and unbinds', async () => {
    const google = calls('googleVerify');
    const row = (await data<ListAnswer<Row>>(google.list, { query: { googleBound: 'false', pageSize: 1 } })).list[0]!;
    const bound = await data<{ id: number; secret: string; otpauthUrl: string }>(google.action('bind'), {
      body: { id: row.id },
    });
    expect(bound.id).toBe(row.id);
    expect(bound.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(bound.otpauthUrl).toMatch(new RegExp(`^otpauth://totp/.+\\?secret=${bound.secret}&`));
    const listed = async () =>
      (await data<ListAnswer<Row>>(google.list, { query: { keyword: String(row.account) } })).list[0];
    expect(await listed()).toMatchObject({ googleBound: false, googlePending: true });
    const wrong = totp(bound.secret, Date.now() + 10 * 60_000);
    expect((await send(google.action('confirmBind'), { body: { id: row.id, otpCode: wrong } })).code).toBe(400);
    expect(await listed()).toMatchObject({ googleBound: false, googlePending: true });
    await data(google.action('confirmBind'), { body: { id: row.id, otpCode: totp(bound.secret, Date.now()) } });
    expect(await listed()).toMatchObject({ googleBound: true, googlePending: false });
    const reset = await data<{ secret: string }>(google.action('reset'), { body: { id: row.id } });
    expect(reset.secret).not.toBe(bound.secret);
    await data(google.action('unbind'), { body: { id: row.id } });
    const after = await data<ListAnswer<Row>>(google.list, { query: { keyword: String(row.account) } });
    expect(after.list[0]).toMatchObject({ googleBound: false, boundTime: null });
  });
});

describe('site configuration', () => {
  it('generates invite codes that show in the list, and disables them in bulk', async () => {
    const invites = calls('inviteCodes');
    const answer = await data<{ codes: string[] }>(invites.action('generate'), { body: { count: 5, maxUses: 3 } });
    expect(answer.codes).toHaveLength(5);
    const listed = await data<ListAnswer<Row>>(invites.list, { query: { sort: '-createTime', pageSize: 5 } });
    expect(listed.list.map((c) => c.code).sort()).toEqual([...answer.codes].sort());
    await data(invites.action('disable'), { body: { ids: listed.list.map((c) => c.id) } });
    const disabled = await data<ListAnswer<Row>>(invites.list, { query: { sort: '-createTime', pageSize: 5 } });
    expect(disabled.list.every((c) => c.status === 'disabled')).toBe(true);
  });

  it('adds sensitive words in bulk skipping duplicates, and finds them in a text', async () => {
    const words = calls('sensitiveWords');
    const first = await data<{ added: number; skipped: number }>(words.action('batchAdd'), {
      body: { words: ['pyramid scheme', 'ねずみ講', 'pyramid scheme', '  '], category: 'ads' },
    });
    // The blank line is dropped; the repeat is counted as skipped.
    expect(first).toEqual({ added: 2, skipped: 1 });
    expect(await data(words.action('batchAdd'), { body: { words: ['Pyramid Scheme'], category: 'ads' } })).toEqual({
      added: 0,
      skipped: 1,
    });
    const found = await data<{ hits: { word: string; category: string; index: number }[] }>(words.action('test'), {
      body: { text: 'Join my pyramid scheme, 加微信 for details' },
    });
    expect(found.hits).toContainEqual({ word: 'pyramid scheme', category: 'ads', index: 8 });
    expect(found.hits.map((h) => h.word)).toContain('加微信');
    expect((await data<{ hits: unknown[] }>(words.action('test'), { body: { text: 'good morning' } })).hits).toEqual(
      [],
    );
  });

  it('refuses a bad link with 链接格式错误 and an empty download link with 下载链接不能为空', async () => {
    const badLink = await send(calls('discover').save, {
      body: { title: 'Docs', url: 'docs.example.com', enabled: true },
    });
    expect(badLink).toMatchObject({ code: 400, msg: '链接格式错误' });
    const versions = calls('appVersions');
    const release = {
      platform: 'android',
      version: '4.0.0',
      buildNumber: 9999,
      mirrorUrl: '',
      forceUpdate: false,
      releaseNotes: '',
      publishTime: new Date().toISOString(),
    };
    expect(await send(versions.save, { body: { ...release, downloadUrl: '' } })).toMatchObject({
      code: 400,
      msg: '下载链接不能为空',
    });
    expect(
      await send(versions.save, { body: { ...release, downloadUrl: 'https://x.example/a.apk', mirrorUrl: 'mirror' } }),
    ).toMatchObject({
      code: 400,
      msg: '链接格式错误',
    });
    const saved = await data<Row>(versions.save, { body: { ...release, downloadUrl: 'https://x.example/a.apk' } });
    expect(
      (
        await data<ListAnswer<Row>>(versions.list, {
          query: { platform: 'android', sort: '-buildNumber', pageSize: 1 },
        })
      ).list[0]!.id,
    ).toBe(saved.id);
  });

  it('keeps a write-only secret when a settings form is saved with it empty', async () => {
    const push = calls('pushConfig');
    const config = await data<Row>(push.config);
    expect(config.masterSecret).toBe('');
    await data(push.config, { body: { ...config, appKey: 'new-app-key' } });
    expect(sandbox.app.sandbox.settings.pushConfig!.masterSecret).toBe('sandbox-jpush-master-secret');
    expect((await data<Row>(push.config)).appKey).toBe('new-app-key');
    const test = await data<{ delivered: boolean; messageId: string }>(push.action('testPush'), {
      body: { account: sandbox.app.sandbox.users.all()[0]!.account, title: 'Hi', content: 'Test' },
    });
    expect(test.messageId).toMatch(/^msg_/);
  });

  it('serves the default avatars and emoji from the file server', async () => {
    for (const id of ['defaultAvatars', 'defaultEmoji']) {
      const row = (await data<ListAnswer<Row>>(calls(id).list, { query: { pageSize: 1 } })).list[0]!;
      const image = await fetch(new URL(`/plate/${String(row.image)}`, sandbox.url));
      expect(image.status, String(row.image)).toBe(200);
      expect(image.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    }
  });
});

describe('operations', () => {
  it('forces online users out, so they leave the list', async () => {
    const online = calls('onlineUsers');
    const before = await data<ListAnswer<Row>>(online.list, { query: { pageSize: 2 } });
    expect(before.total).toBeGreaterThan(2);
    await data(online.action('forceLogout'), { body: { ids: before.list.map((r) => r.id) } });
    const after = await data<ListAnswer<Row>>(online.list, { query: { pageSize: 200 } });
    expect(after.total).toBe(before.total - 2);
    expect(after.list.some((r) => before.list.some((b) => b.id === r.id))).toBe(false);
  });

  it('previews a segment and sends a broadcast whose delivered count never passes its target', async () => {
    const mass = calls('massMessages');
    const preview = await data<{ targetCount: number }>(mass.preview, { query: { segment: 'ios' } });
    expect(preview.targetCount).toBeGreaterThan(0);
    const sent = await data<Row>(mass.action('send'), {
      body: { segment: 'ios', title: 'Update', content: 'Please update' },
    });
    expect(sent).toMatchObject({ targetCount: preview.targetCount, state: 'sending', deliveredCount: 0 });
    const listed = (await data<ListAnswer<Row>>(mass.list, { query: { sort: '-createTime', pageSize: 1 } })).list[0]!;
    expect(listed.id).toBe(sent.id);
    expect(Number(listed.deliveredCount)).toBeLessThanOrEqual(preview.targetCount);
  });

  it('sends to the users online now: as many as the online list holds, one fewer after a kick', async () => {
    const mass = calls('massMessages');
    const online = calls('onlineUsers');
    const connected = async () => (await data<ListAnswer<Row>>(online.list, { query: { pageSize: 1 } })).total;
    const preview = async () =>
      (await data<{ targetCount: number }>(mass.preview, { query: { segment: 'online' } })).targetCount;
    const before = await connected();
    expect(before).toBeGreaterThan(0);
    expect(await preview()).toBe(before);
    const first = (await data<ListAnswer<Row>>(online.list, { query: { pageSize: 1 } })).list[0]!;
    await data(online.action('forceLogout'), { body: { ids: [first.id] } });
    expect(await preview()).toBe(before - 1);
    const sent = await data<Row>(mass.action('send'), {
      body: { segment: 'online', title: 'Now', content: 'For whoever is here' },
    });
    expect(sent).toMatchObject({ segment: 'online', targetCount: before - 1 });
  });

  it('refuses a data clean-up without the typed confirmation, and a confirmed one leaves less to find', async () => {
    const clean = calls('dataClean');
    const inputs = { target: 'loginRecords', olderThanDays: 30 };
    const before = await data<{ count: number; bytes: number; oldest: string | null }>(clean.preview, {
      query: inputs,
    });
    expect(before.count).toBeGreaterThan(0);
    expect((await send(clean.action('clean'), { body: inputs })).code).toBe(400);
    expect((await send(clean.action('clean'), { body: { ...inputs, confirm: 'delete' } })).code).toBe(400);
    expect((await data<{ count: number }>(clean.preview, { query: inputs })).count).toBe(before.count);
    const done = await data<{ removed: number }>(clean.action('clean'), {
      body: { ...inputs, confirm: CLEAN_CONFIRM_TEXT },
    });
    expect(done.removed).toBe(before.count);
    expect((await data<{ count: number }>(clean.preview, { query: inputs })).count).toBe(0);
    const messages = { target: 'chatMessages', olderThanDays: 90 };
    const chat = await data<{ count: number }>(clean.preview, { query: messages });
    await data(clean.action('clean'), { body: { ...messages, confirm: CLEAN_CONFIRM_TEXT } });
    expect(
      (await data<{ count: number }>(clean.preview, { query: { target: 'chatMessages', olderThanDays: 60 } })).count,
    ).toBeLessThan(chat.count);
  });

  it('marks suggestions handled and replies', async () => {
    const suggestions = calls('suggestions');
    const row = (await data<ListAnswer<Row>>(suggestions.list, { query: { state: 'pending', pageSize: 1 } })).list[0]!;
    await data(suggestions.action('reply'), { body: { id: row.id, reply: '已处理，谢谢反馈' } });
    expect(await data<Row>(suggestions.detail, { query: { id: Number(row.id) } })).toMatchObject({
      state: 'handled',
      reply: '已处理，谢谢反馈',
    });
  });
});

describe('a 100,000-user sandbox', () => {
  it('pages and sorts users server-side', async () => {
    const big = await startSandbox({ port: 0, seed: 5, withdrawalTickMs: 0, userCount: 100_000 });
    try {
      const bigClient = new BackendClient(big.url);
      const session = await bigClient.login('admin', 'admin123');
      const users = calls('users');
      const page = async (query: Record<string, string | number>) => {
        const answer = await bigClient.call<ListAnswer<Row>>(users.list, { session, query });
        expect(answer.envelope.code).toBe(200);
        return answer.envelope.data!;
      };
      const first = await page({ sort: 'account', pageSize: 100, pageNum: 1 });
      const second = await page({ sort: 'account', pageSize: 100, pageNum: 2 });
      expect(first.total).toBe(100_000);
      const collator = new Intl.Collator();
      const accounts = [...first.list, ...second.list].map((u) => String(u.account));
      for (let i = 1; i < accounts.length; i++)
        expect(collator.compare(accounts[i - 1]!, accounts[i]!)).toBeLessThanOrEqual(0);
      const last = await page({ sort: '-registerTime', pageSize: 100, pageNum: 1000 });
      expect(last.list).toHaveLength(100);
      const richest = await page({ sort: '-balance', pageSize: 10, status: 'normal' });
      for (let i = 1; i < richest.list.length; i++)
        expect(Number(richest.list[i - 1]!.balance)).toBeGreaterThanOrEqual(Number(richest.list[i]!.balance));
      // A ban changes the order's filter at once, on the cached order.
      await bigClient.call(users.action('ban'), { session, body: { id: richest.list[0]!.id, reason: 'test' } });
      expect((await page({ sort: '-balance', pageSize: 1, status: 'normal' })).list[0]!.id).toBe(richest.list[1]!.id);
    } finally {
      await big.close();
    }
  }, 120_000);
});
