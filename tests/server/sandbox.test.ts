import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { aesDecrypt } from '../../server/codec/aes.js';
import { decodeBody, detectCompression } from '../../server/codec/index.js';
import type { PermissionEntry, WithdrawalListAnswer, WithdrawalRecord } from '../../server/contract/index.js';
import { ALL_PERMISSIONS, CALLS, PERMISSIONS } from '../../server/contract/index.js';
import { BackendClient, type BackendSession } from '../../sandbox/client.js';
import { DEFAULT_MAX_PENDING_WITHDRAWALS, DEFAULT_WITHDRAWAL_TICK_MS } from '../../sandbox/app.js';
import { ENCODED_ROUTES } from '../../sandbox/encoded-routes.js';
import { sandboxCodecKey } from '../../sandbox/key.js';
import { requiredPermission } from '../../sandbox/routes/auth.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';

const ELSEWHERE = 'Your account has logged in elsewhere, please log in again';
const EXPIRED = 'Login expired, please log in again';
const REVIEW = PERMISSIONS.cashWithdrawalCheck;

let sandbox: StartedSandbox;
let client: BackendClient;
let admin: BackendSession;
let operator: BackendSession;

beforeAll(async () => {
  // No timer here: counts in this suite move only when the tests move them.
  sandbox = await startSandbox({ port: 0, seed: 7, withdrawalTickMs: 0 });
  client = new BackendClient(sandbox.url);
  admin = await client.login('admin', 'admin123');
  operator = await client.login('operator', 'operator123');
});

afterAll(async () => {
  await sandbox?.close();
});

async function pendingCount(session: BackendSession = admin): Promise<number> {
  const answer = await client.call<number>(CALLS.withdrawalCount, { session });
  expect(answer.envelope.code).toBe(200);
  return answer.envelope.data as number;
}

async function firstPending(): Promise<WithdrawalRecord> {
  const answer = await client.call<WithdrawalListAnswer>(`${REVIEW}/list`, {
    session: admin,
    query: { state: 'pending', pageSize: 1 },
  });
  const record = answer.envelope.data?.list[0];
  if (!record) throw new Error('no pending withdrawal');
  return record;
}

describe('login and permissions', () => {
  it('logs both accounts in with string user ids and gives them different permission lists', async () => {
    expect(admin.userId).toBeTypeOf('string');
    expect(operator.userId).toBeTypeOf('string');
    expect(admin.userId).not.toBe(operator.userId);

    const adminList = await client.call<PermissionEntry[]>(CALLS.permission, { session: admin });
    const operatorList = await client.call<PermissionEntry[]>(CALLS.permission, { session: operator });
    expect(adminList.envelope.code).toBe(200);
    expect(operatorList.envelope.code).toBe(200);
    const adminPermissions = adminList.envelope.data!.map((e) => e.permission);
    const operatorPermissions = operatorList.envelope.data!.map((e) => e.permission);
    expect([...adminPermissions].sort()).toEqual([...ALL_PERMISSIONS].sort());
    expect([...operatorPermissions].sort()).toEqual(
      [
        PERMISSIONS.userProfile,
        PERMISSIONS.groupProfile,
        PERMISSIONS.sensitiveWord,
        PERMISSIONS.onlineStatistics,
        PERMISSIONS.billRecord,
      ].sort(),
    );
  });

  it('refuses a wrong password, and matches the account exactly', async () => {
    for (const [account, password] of [
      ['admin', 'wrong'],
      ['Admin', 'admin123'],
      [' admin', 'admin123'],
      ['nobody', 'admin123'],
    ] as const) {
      const answer = await client.call(CALLS.login, { body: { account, password, code: '' } });
      expect(answer.status).toBe(200);
      expect(answer.envelope).toEqual({ code: 1001, msg: 'Wrong account or password' });
    }
  });

  it('answers 401 "logged in elsewhere" to a token replaced by a newer login of the same account', async () => {
    const first = await client.login('operator', 'operator123');
    const second = await client.login('operator', 'operator123');
    expect(second.token).not.toBe(first.token);

    const stale = await client.call(CALLS.permission, { session: first });
    expect(stale.envelope).toEqual({ code: 401, msg: ELSEWHERE });
    // The UI keys its "logged in elsewhere" dialog on the word being absent.
    expect(stale.envelope.msg.toLowerCase()).not.toContain('permission');
    expect((await client.call(CALLS.permission, { session: second })).envelope.code).toBe(200);
    operator = second;
  });

  it('answers 401 "login expired" to an unknown token, a wrong user id or no headers', async () => {
    const unknown = await client.call(CALLS.count, { session: { token: 'not-a-token', userId: admin.userId } });
    expect(unknown.envelope).toEqual({ code: 401, msg: EXPIRED });
    const wrongUser = await client.call(CALLS.count, { session: { token: admin.token, userId: operator.userId } });
    expect(wrongUser.envelope).toEqual({ code: 401, msg: EXPIRED });
    const none = await client.call(CALLS.count);
    expect(none.envelope).toEqual({ code: 401, msg: EXPIRED });
    // A refusal is plain JSON even on an encoded route.
    expect(none.mode).toBeNull();
  });

  it('refuses the operator a finance call with a "No permission" 401 but serves its own pages', async () => {
    for (const path of [CALLS.withdrawalCount, `${REVIEW}/list`, CALLS.syncCashWithdrawal, CALLS.runner]) {
      const answer = await client.call(path, { session: operator });
      expect(answer.envelope.code).toBe(401);
      expect(answer.envelope.msg).toBe('No permission for this operation');
    }
    const bills = await client.call<{ list: unknown[]; total: number }>(`${PERMISSIONS.billRecord}/list`, {
      session: operator,
    });
    expect(bills.envelope.code).toBe(200);
    expect(bills.envelope.data!.total).toBeGreaterThan(100);
    // Calls outside every permission need only a login.
    expect((await client.call(CALLS.count, { session: operator })).envelope.code).toBe(200);
  });

  it("answers the dashboard's money figures only to the permissions that cover them", async () => {
    const count = async (session: BackendSession) =>
      (await client.call<Record<string, unknown>>(CALLS.count, { session })).envelope.data!;
    const finance = async (session: BackendSession) =>
      (await client.call<Record<string, unknown>>(CALLS.financeData, { session })).envelope.data!;
    const daily = async (session: BackendSession) =>
      (await client.call<{ list: Record<string, unknown>[] }>(CALLS.dailyStatistics, { session })).envelope.data!.list;
    // The operator (users, groups, words, online users, bill records): people and messages, no money.
    expect(Object.keys(await count(operator)).sort()).toEqual(
      ['activeUsersToday', 'groupCount', 'messagesToday', 'newUsersToday', 'onlineUsers', 'userCount'].sort(),
    );
    expect(await finance(operator)).toEqual({});
    const row = (await daily(operator)).at(-1)!;
    expect(Object.keys(row).sort()).toEqual(['activeUsers', 'date', 'messages', 'newGroups', 'registrations'].sort());
    // The administrator holds every permission: every figure.
    expect(Object.keys(await count(admin))).toContain('pendingWithdrawals');
    expect(Object.keys(await count(admin))).toContain('rechargeToday');
    expect(Object.keys(await finance(admin))).toHaveLength(10);
    expect((await daily(admin)).at(-1)).toHaveProperty('rechargeAmount');
  });

  it('maps a path to its permission by the longest prefix', () => {
    expect(requiredPermission('/manage/finance/cashWithdrawalCheck/count')).toBe(PERMISSIONS.cashWithdrawalCheck);
    expect(requiredPermission('/manage/deployment/runner/setMoment')).toBe(PERMISSIONS.deployment);
    expect(requiredPermission('/manage/station/privilegedUser/terms/list')).toBe(PERMISSIONS.privilegedUser);
    expect(requiredPermission('/manage/dailyStatistics')).toBeNull();
    expect(requiredPermission('/manage/operation/dailyStatistics/list')).toBe(PERMISSIONS.dailyStatistics);
    // A sibling that merely shares the first letters is not under the permission.
    expect(requiredPermission('/manage/pageant')).toBeNull();
  });
});

describe('encoded answers', () => {
  it('encodes the table routes in mode 1 and 3 with the sandbox key, and they decode to envelopes', async () => {
    const key = sandboxCodecKey();
    for (const [path, encoding] of Object.entries(ENCODED_ROUTES)) {
      const answer = await client.call(path, { session: admin });
      expect(answer.mode, path).toBe(encoding.mode);
      expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
      const decoded = await decodeBody(answer.raw, encoding.mode, key, { maxBytes: 1 << 24 });
      const envelope = JSON.parse(decoded.toString('utf8')) as { code: number; data: unknown };
      expect(envelope.code, path).toBe(200);
      expect(envelope.data).toBeDefined();
    }
  });

  it('exercises gzip, zlib and raw deflate among the mode 3 answers', async () => {
    const key = sandboxCodecKey();
    const seen = new Set<string>();
    for (let round = 0; round < 3; round++) {
      for (const path of [CALLS.count, CALLS.dailyStatistics]) {
        const answer = await client.call(path, { session: admin });
        expect(answer.mode).toBe(3);
        const compressed = aesDecrypt(Buffer.from(answer.raw.toString('latin1'), 'base64'), key);
        seen.add(detectCompression(compressed));
      }
    }
    expect([...seen].sort()).toEqual(['deflate-raw', 'gzip', 'zlib']);
  });

  it('answers the other routes as plain JSON', async () => {
    const answer = await client.call(CALLS.runner, { session: admin });
    expect(answer.mode).toBeNull();
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.envelope.code).toBe(200);
  });
});

describe('withdrawal review', () => {
  it('lists pending withdrawals consistently with the count', async () => {
    const count = await pendingCount();
    expect(count).toBeGreaterThan(0);
    const page = await client.call<WithdrawalListAnswer>(`${REVIEW}/list`, {
      session: admin,
      query: { state: 'pending', pageSize: 5, pageNum: 1 },
    });
    expect(page.envelope.data!.total).toBe(count);
    expect(page.envelope.data!.list.length).toBe(Math.min(5, count));
    for (const row of page.envelope.data!.list) expect(row.state).toBe('pending');
  });

  it('lowers the count on approve and on reject, and refuses a second review', async () => {
    const before = await pendingCount();
    const target = await firstPending();
    const approved = await client.call(`${REVIEW}/approve`, { session: admin, body: { id: target.id } });
    expect(approved.envelope).toMatchObject({ code: 200, data: { updated: 1 } });
    expect(await pendingCount()).toBe(before - 1);

    const again = await client.call(`${REVIEW}/approve`, { session: admin, body: { id: target.id } });
    expect(again.envelope.code).toBe(400);

    const next = await firstPending();
    const noReason = await client.call(`${REVIEW}/reject`, { session: admin, body: { id: next.id } });
    expect(noReason.envelope.code).toBe(400);
    const rejected = await client.call(`${REVIEW}/reject`, {
      session: admin,
      body: { id: next.id, reason: 'Payee name mismatch' },
    });
    expect(rejected.envelope.code).toBe(200);
    expect(await pendingCount()).toBe(before - 2);

    expect(sandbox.app.sandbox.withdrawals.get(Number(next.id))).toMatchObject({
      state: 'rejected',
      reason: 'Payee name mismatch',
      reviewer: 'admin',
    });
  });

  it('raises the count when a test adds an application or sync pulls waiting ones in', async () => {
    const before = await pendingCount();
    sandbox.app.sandbox.addPendingWithdrawal();
    expect(await pendingCount()).toBe(before + 1);

    const sync = await client.call<{ synced: number }>(CALLS.syncCashWithdrawal, { session: admin, method: 'POST' });
    expect(sync.envelope.code).toBe(200);
    const synced = sync.envelope.data!.synced;
    expect(synced).toBeGreaterThan(0);
    expect(await pendingCount()).toBe(before + 1 + synced);
    // Nothing is left waiting, so a second sync finds nothing.
    const second = await client.call<{ synced: number }>(CALLS.syncCashWithdrawal, { session: admin });
    expect(second.envelope.data).toEqual({ synced: 0 });
  });

  it('counts how often the pending count is polled', async () => {
    const before = sandbox.app.sandbox.counters.withdrawalCountPolls;
    await pendingCount();
    await pendingCount();
    expect(sandbox.app.sandbox.counters.withdrawalCountPolls).toBe(before + 2);
  });
});

describe('withdrawal timer', () => {
  it('brings new pending withdrawals over time, and stops when closed', async () => {
    // The sandbox's timer runs on the test's clock: its periods pass when the test says, so the
    // test never waits for them (sockets and the rest keep real time).
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const ticking = await startSandbox({ port: 0, seed: 7, withdrawalTickMs: 20 });
      try {
        const tickClient = new BackendClient(ticking.url);
        const session = await tickClient.login('admin', 'admin123');
        const read = async () =>
          (await tickClient.call<number>(CALLS.withdrawalCount, { session })).envelope.data as number;
        const start = await read();
        await expect
          .poll(async () => {
            vi.advanceTimersByTime(20);
            return read();
          })
          .toBeGreaterThan(start);
      } finally {
        await ticking.close();
      }
      const ticks = ticking.app.sandbox.counters.withdrawalTicks;
      expect(ticks).toBeGreaterThan(0);
      // Fifty periods after the close: not one more tick.
      vi.advanceTimersByTime(50 * 20);
      expect(ticking.app.sandbox.counters.withdrawalTicks).toBe(ticks);
    } finally {
      vi.useRealTimers();
    }
  });

  it('brings a few an hour by default, so the demo badge stays believable', () => {
    // One every 20 s read 99+ within the hour; a few an hour is what a real queue sees.
    expect(DEFAULT_WITHDRAWAL_TICK_MS).toBeGreaterThanOrEqual(10 * 60_000);
    expect(3_600_000 / DEFAULT_WITHDRAWAL_TICK_MS).toBeLessThanOrEqual(6);
  });

  it('stops adding applications while the queue holds its cap', async () => {
    const ticking = await startSandbox({ port: 0, seed: 7, withdrawalTickMs: 5 });
    try {
      const store = ticking.app.sandbox;
      const cap = DEFAULT_MAX_PENDING_WITHDRAWALS;
      expect(store.pendingWithdrawalCount()).toBeLessThan(cap);
      // Ticks past the cap, counted: the queue has had every chance to grow beyond it.
      await expect
        .poll(() => store.counters.withdrawalTicks, { timeout: 30_000, interval: 20 })
        .toBeGreaterThan(cap * 2);
      expect(store.pendingWithdrawalCount()).toBe(cap);
    } finally {
      await ticking.close();
    }
  });
});

describe('site configuration and file server', () => {
  it('serves the site config without a login, with icon paths relative to the file server', async () => {
    const answer = await client.call<{ webIconPath: string; chatRoomName: string; logoIconPath: string }>(
      CALLS.siteConfig,
    );
    expect(answer.envelope.code).toBe(200);
    const config = answer.envelope.data!;
    expect(config.chatRoomName.length).toBeGreaterThan(0);
    for (const path of [config.webIconPath, config.logoIconPath]) {
      expect(path.startsWith('/')).toBe(false);
      const icon = await fetch(new URL(`/plate/${path}`, sandbox.url));
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(await icon.text()).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    }
  });

  it('serves generated avatars and 404 for unknown files', async () => {
    const store = sandbox.app.sandbox;
    for (const path of [store.users.all()[0]!.avatar, store.groups.all()[0]!.avatar]) {
      const avatar = await fetch(new URL(`/plate/${path}`, sandbox.url));
      expect(avatar.status, path).toBe(200);
      expect(avatar.headers.get('content-type')).toBe('image/png');
      const png = Buffer.from(await avatar.arrayBuffer());
      // The PNG signature, then an IHDR of 48×48.
      expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([48, 48]);
    }
    // The SVG form of the same avatar, with the name's initial.
    const svg = await fetch(new URL(`/plate/${store.users.all()[0]!.avatar.replace(/\.png$/, '.svg')}`, sandbox.url));
    expect(await svg.text()).toContain('<text');
    for (const path of [
      '/plate/icons/nope.svg',
      '/plate/avatars/999999.svg',
      '/plate/icons/',
      '/plate/avatars/999999.png',
      '/plate/avatars/1.gif',
    ]) {
      const missing = await fetch(new URL(path, sandbox.url));
      expect(missing.status, path).toBe(404);
    }
  });
});
