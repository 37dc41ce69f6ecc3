import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CountAnswer,
  DailyStatisticsAnswer,
  FinanceData,
  ImportDatabaseResult,
  MonitoringAnswer,
  RunnerState,
  WithdrawalListAnswer,
} from '../../server/contract/index.js';
import { CALLS, PERMISSIONS } from '../../server/contract/index.js';
import { BackendClient, type BackendSession } from '../../sandbox/client.js';
import { DAY, dayKey, startOfDay } from '../../sandbox/lib/time.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { SandboxStore } from '../../sandbox/store/sandbox-store.js';

const NOW = Date.UTC(2025, 5, 15, 12, 0, 0);

let sandbox: StartedSandbox;
let client: BackendClient;
let admin: BackendSession;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 11, withdrawalTickMs: 0 });
  client = new BackendClient(sandbox.url);
  admin = await client.login('admin', 'admin123');
});

afterAll(async () => {
  await sandbox?.close();
});

async function data<T>(path: string, options: Parameters<BackendClient['call']>[1] = {}): Promise<T> {
  const answer = await client.call<T>(path, { session: admin, ...options });
  expect(answer.envelope.code, `${path}: ${answer.envelope.msg}`).toBe(200);
  return answer.envelope.data as T;
}

describe('seeded data', () => {
  it('is the same for the same seed and different for another', () => {
    const a = new SandboxStore({ seed: 5, now: NOW });
    const b = new SandboxStore({ seed: 5, now: NOW });
    const c = new SandboxStore({ seed: 6, now: NOW });
    expect(JSON.stringify(b.users.all())).toBe(JSON.stringify(a.users.all()));
    expect(JSON.stringify(b.withdrawals.all())).toBe(JSON.stringify(a.withdrawals.all()));
    expect(JSON.stringify(b.bills.all())).toBe(JSON.stringify(a.bills.all()));
    expect(c.users.all().map((u) => u.nickname)).not.toEqual(a.users.all().map((u) => u.nickname));
  });

  it('holds hundreds of users named in several scripts, with groups, bills and some pending withdrawals', () => {
    const store = new SandboxStore({ seed: 5, now: NOW });
    expect(store.users.size).toBeGreaterThanOrEqual(300);
    expect(store.groups.size).toBeGreaterThanOrEqual(30);
    expect(store.bills.size).toBeGreaterThan(1000);
    const names = store.users.all().map((u) => u.realName);
    expect(names.some((n) => /\p{Script=Han}/u.test(n))).toBe(true);
    expect(
      names.some((n) => /\p{Script=Hiragana}|\p{Script=Katakana}/u.test(n) || /^(佐藤|鈴木|高橋|田中)/.test(n)),
    ).toBe(true);
    expect(names.some((n) => /[áéíóúñ]/.test(n))).toBe(true);
    expect(store.pendingWithdrawalCount()).toBeGreaterThan(0);
    expect(store.withdrawals.count((w) => w.state === 'approved')).toBeGreaterThan(0);
    expect(store.withdrawals.count((w) => w.state === 'rejected')).toBeGreaterThan(0);
  });

  it('keeps every wallet in balance with its bills', () => {
    const store = new SandboxStore({ seed: 9, now: NOW });
    const sums = new Map<number, number>();
    const wrong: string[] = [];
    // Bills are replayed in id order, which must also be time order for balanceAfter to hold.
    for (const bill of [...store.bills.all()].sort((x, y) => x.id - y.id)) {
      const balance = (sums.get(bill.userId) ?? 0) + bill.amount;
      if (bill.balanceAfter !== balance || balance < 0 || Date.parse(bill.createTime) > NOW) wrong.push(bill.orderNo);
      sums.set(bill.userId, balance);
    }
    for (const user of store.users.all()) if (user.balance !== (sums.get(user.id) ?? 0)) wrong.push(String(user.id));
    expect(wrong).toEqual([]);
    expect(sums.size).toBeGreaterThan(100);
  });
});

describe('dashboard calls', () => {
  it('answers 30 consecutive days ending today by default', async () => {
    const stats = await data<DailyStatisticsAnswer>(CALLS.dailyStatistics);
    expect(stats.list).toHaveLength(30);
    const today = startOfDay(Date.now());
    expect(stats.endDate).toBe(dayKey(today));
    stats.list.forEach((row, index) => expect(row.date).toBe(dayKey(today - (29 - index) * DAY)));
    expect(stats.list.some((row) => row.registrations > 0 && row.rechargeAmount > 0 && row.messages > 0)).toBe(true);
  });

  it('answers a chosen range and refuses bad ones', async () => {
    const end = dayKey(startOfDay(Date.now()) - 3 * DAY);
    const start = dayKey(startOfDay(Date.now()) - 9 * DAY);
    const stats = await data<DailyStatisticsAnswer>(CALLS.dailyStatistics, {
      query: { startDate: start, endDate: end },
    });
    expect(stats.list.map((r) => r.date)[0]).toBe(start);
    expect(stats.list).toHaveLength(7);

    const bad: Record<string, string>[] = [
      { startDate: '2025-02-30' },
      { endDate: 'yesterday' },
      { startDate: end, endDate: start },
      { startDate: '2020-01-01', endDate: '2024-01-01' },
    ];
    for (const query of bad) {
      const answer = await client.call(CALLS.dailyStatistics, { session: admin, query });
      expect(answer.envelope.code, JSON.stringify(query)).toBe(400);
    }
  });

  it('agrees with itself: statistics, KPI cards and finance totals come from the same records', async () => {
    const today = startOfDay(Date.now());
    const [stats, count, finance, pending] = await Promise.all([
      data<DailyStatisticsAnswer>(CALLS.dailyStatistics, {
        query: { startDate: dayKey(today - 365 * DAY), endDate: dayKey(today) },
      }),
      data<CountAnswer>(CALLS.count),
      data<FinanceData>(CALLS.financeData),
      data<number>(CALLS.withdrawalCount),
    ]);
    const sum = (pick: (r: DailyStatisticsAnswer['list'][number]) => number) =>
      stats.list.reduce((n, r) => n + pick(r), 0);
    expect(sum((r) => r.rechargeAmount)).toBe(finance.totalRecharge);
    expect(sum((r) => r.withdrawalAmount)).toBe(finance.totalWithdrawal);
    expect(sum((r) => r.registrations)).toBe(count.userCount);
    expect(count.pendingWithdrawals).toBe(pending);
    expect(finance.pendingWithdrawalCount).toBe(pending);
    expect(count.rechargeToday).toBe(finance.rechargeToday);
    expect(Number.isInteger(finance.totalBalance)).toBe(true);
  });
});

describe('deployment calls', () => {
  it('flips the start switches and reads them back', async () => {
    const before = await data<RunnerState>(CALLS.runner);
    await data(CALLS.runnerSetMomentPublic, { body: { enabled: !before.momentPublic } });
    await data(CALLS.runnerSetWallet, { body: { enabled: false } });
    const after = await data<RunnerState>(CALLS.runner);
    expect(after.momentPublic).toBe(!before.momentPublic);
    expect(after.wallet).toBe(false);
    const bad = await client.call(CALLS.runnerSetMoment, { session: admin, body: { enabled: 'yes' } });
    expect(bad.envelope.code).toBe(400);
  });

  it('saves the runner config partially and refuses a bad link or number without saving anything', async () => {
    const saved = await data<RunnerState['config']>(CALLS.runnerSaveConfig, {
      body: { workerCount: 6, apiUrl: 'https://api.example.org' },
    });
    expect(saved).toMatchObject({ workerCount: 6, apiUrl: 'https://api.example.org' });
    const badLink = await client.call(CALLS.runnerSaveConfig, {
      session: admin,
      body: { workerCount: 8, fileServerUrl: 'files.example.org' },
    });
    expect(badLink.envelope).toEqual({ code: 400, msg: '链接格式错误' });
    const badNumber = await client.call(CALLS.runnerSaveConfig, { session: admin, body: { maxUploadMb: -1 } });
    expect(badNumber.envelope.code).toBe(400);
    expect((await data<RunnerState>(CALLS.runner)).config.workerCount).toBe(6);
  });

  it('reports host and service metrics that drift between calls', async () => {
    const first = await data<MonitoringAnswer>(CALLS.monitoring);
    const second = await data<MonitoringAnswer>(CALLS.monitoring);
    for (const snapshot of [first, second]) {
      expect(snapshot.host.memory.usedBytes).toBeLessThanOrEqual(snapshot.host.memory.totalBytes);
      expect(snapshot.host.disk.usedBytes).toBeLessThanOrEqual(snapshot.host.disk.totalBytes);
      expect(snapshot.host.cpu.usagePercent).toBeGreaterThanOrEqual(0);
      expect(snapshot.host.cpu.usagePercent).toBeLessThanOrEqual(100);
      expect(snapshot.services.length).toBeGreaterThan(3);
    }
    expect(
      second.host.cpu.usagePercent === first.host.cpu.usagePercent &&
        second.host.network.rxBytesPerSecond === first.host.network.rxBytesPerSecond,
    ).toBe(false);
  });

  it('imports from a link and refuses a text that is not one', async () => {
    const result = await data<ImportDatabaseResult>(CALLS.importDatabase, {
      body: { url: 'https://backup.example.com/chat.sql.gz' },
    });
    expect(result.url).toBe('https://backup.example.com/chat.sql.gz');
    expect(result.importedUsers).toBeGreaterThan(0);
    // A dump is fetched over HTTP(S): other schemes are refused like any malformed link.
    for (const url of [
      'db.example.com/chat',
      'http:/x',
      '',
      42,
      'mysql://db.example.com:3306/chat',
      'ftp://backup.example.com/chat.sql.gz',
    ]) {
      const answer = await client.call(CALLS.importDatabase, { session: admin, body: { url } });
      expect(answer.envelope).toEqual({ code: 400, msg: '链接格式错误' });
    }
  });
});

describe('lists and errors', () => {
  it('pages without overlap, searches and sorts', async () => {
    const path = `${PERMISSIONS.cashWithdrawalCheck}/list`;
    const one = await data<WithdrawalListAnswer>(path, { query: { pageNum: 1, pageSize: 10, sort: '-amount' } });
    const two = await data<WithdrawalListAnswer>(path, { query: { pageNum: 2, pageSize: 10, sort: '-amount' } });
    expect(one.total).toBe(two.total);
    const ids = new Set([...one.list, ...two.list].map((r) => r.id));
    expect(ids.size).toBe(20);
    const amounts = [...one.list, ...two.list].map((r) => r.amount);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));

    const target = one.list[0]!;
    const found = await data<WithdrawalListAnswer>(path, { query: { keyword: target.orderNo.toLowerCase() } });
    expect(found.list.map((r) => r.id)).toEqual([target.id]);

    const pending = await data<WithdrawalListAnswer>(path, { query: { state: 'pending', pageSize: 1 } });
    const finance = await data<FinanceData>(CALLS.financeData);
    expect(pending.totals?.amount).toBe(finance.pendingWithdrawalAmount);

    const since = dayKey(startOfDay(Date.now()) - 7 * DAY);
    const recent = await data<WithdrawalListAnswer>(path, { query: { createTimeFrom: since, pageSize: 200 } });
    expect(recent.total).toBeGreaterThan(0);
    expect(recent.total).toBeLessThan(one.total);
    for (const row of recent.list) expect(row.createTime.slice(0, 10) >= since).toBe(true);

    const badSort = await client.call(path, { session: admin, query: { sort: 'password' } });
    expect(badSort.envelope.code).toBe(400);
    const badPage = await client.call(path, { session: admin, query: { pageNum: 'x' } });
    expect(badPage.envelope.code).toBe(400);
    const badDate = await client.call(path, { session: admin, query: { createTimeTo: '7 June' } });
    expect(badDate.envelope.code).toBe(400);
  });

  it('answers unknown calls and malformed bodies in the envelope', async () => {
    expect((await client.call('/manage/noSuchCall', { session: admin })).envelope.code).toBe(404);
    const response = await fetch(new URL(CALLS.login, sandbox.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"account":',
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { code: number }).code).toBe(400);
    const missing = await client.call(CALLS.login, { body: { account: 'admin' } });
    expect(missing.envelope.code).toBe(400);
  });
});
