import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../server/contract/index.js';
import { verifyFile, verifyRedis } from '../../server/audit/verify.js';
import { RedisAuditStore } from '../../server/audit/redis-store.js';
import { AuditFileStore } from '../../server/audit/file-store.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { hasProgram, skipWithout } from '../support/ci.js';
import { removeTempDirs } from '../support/processes.js';
import { RedisServer } from '../support/redis-server.js';
import { waitUntil } from '../support/wait.js';
import { auditGateway, call, logInAs, trail, type AuditGateway, type Cookies } from './support/audit-rig.js';

/**
 * REDIS_URL: replicas keep one trail, a Redis stream, and their entries written at the same moment
 * still make one chain; while Redis is away each replica writes to its own file in DATA_DIR, and
 * once it is back what was written meanwhile joins the shared trail. A real redis-server, started
 * here on a free port and killed as a crash would.
 */

const skip = skipWithout(hasProgram('redis-server') ? [] : ['redis-server'], 'the shared audit trail in Redis');

let redis: RedisServer;
let sandbox: StartedSandbox;
let a: AuditGateway;
let b: AuditGateway;
let cookies: Cookies;

const shared = (gw: AuditGateway) => gw.app.redis?.available === true;
const ban = (gw: AuditGateway, id: number, reason: string) =>
  call(gw.app, cookies, 'POST', `${PERMISSIONS.userProfile}/ban`, { id, reason });
const unban = (gw: AuditGateway, id: number) =>
  call(gw.app, cookies, 'POST', `${PERMISSIONS.userProfile}/unban`, { id });

describe.skipIf(skip)('the audit trail shared through Redis', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    redis = await RedisServer.start();
    sandbox = await startSandbox({ port: 0, withdrawalTickMs: 0 });
    a = await auditGateway(sandbox, { REDIS_URL: redis.url });
    b = await auditGateway(sandbox, { REDIS_URL: redis.url });
    await waitUntil(() => shared(a) && shared(b), 'both replicas connected to Redis');
    // One session for both: replicas share SESSION_SECRET.
    cookies = await logInAs(a.app, 'admin', 'admin123');
  });

  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await sandbox?.close();
    await redis?.close();
    removeTempDirs();
  });

  it('makes one chain of what two replicas record at the same moment, and each lists the other', async () => {
    const users = sandbox.app.sandbox.users
      .all()
      .filter((u) => u.status === 'normal')
      .slice(0, 12);
    await Promise.all(users.map((u, i) => ban(i % 2 === 0 ? a : b, u.id, `together ${i}`)));
    await Promise.all(users.map((u, i) => unban(i % 2 === 0 ? b : a, u.id)));

    const fromB = await trail(b.app, cookies, '?resource=users&pageSize=200');
    const fromA = await trail(a.app, cookies, '?resource=users&pageSize=200');
    expect(fromB.total).toBe(24);
    expect(fromA.list.map((e) => e.id)).toEqual(fromB.list.map((e) => e.id));
    const seqs = fromB.list.map((e) => e.seq);
    expect(new Set(seqs).size).toBe(24);
    // The login came first, through a; then the 24 calls, in one order for both.
    expect((await trail(b.app, cookies, '?kind=login')).list[0]!.seq).toBe(1);

    const verdict = await verifyRedis(a.app.redis!.command, (name) => a.app.redis!.key(name));
    expect(verdict).toMatchObject({ intact: true, entries: 25 });
    expect(a.app.audit.target()).toBe('redis');
    // Nothing went to the replicas' own files.
    expect(await verifyFile(a.dataDir)).toMatchObject({ intact: true, entries: 0 });
    expect(await verifyFile(b.dataDir)).toMatchObject({ intact: true, entries: 0 });
  });

  it('falls back to the file in DATA_DIR while Redis is away, and shares those entries once it is back', async () => {
    const user = sandbox.app.sandbox.users
      .all()
      .filter((u) => u.status === 'normal')
      .at(-3)!;
    await redis.stop();
    await waitUntil(() => !shared(a) && !shared(b), 'both replicas to notice Redis is gone');

    expect((await ban(a, user.id, 'while Redis was away')).json()).toMatchObject({ code: 200 });
    expect(a.app.audit.target()).toBe('local-fallback');
    expect((await a.app.metrics.auditFallbackWrites.get()).values[0]?.value).toBe(1);
    // The replica that wrote it answers from its file, a chain of its own.
    const local = await trail(a.app, cookies, `?target=${user.id}`);
    expect(local.list).toMatchObject([{ action: 'ban', reason: 'while Redis was away', seq: 1 }]);
    expect(await verifyFile(a.dataDir)).toMatchObject({ intact: true, entries: 1 });

    // The Redis that comes back is empty (no persistence): the outage's entry starts its chain again.
    await redis.start();
    await waitUntil(() => shared(a) && shared(b), 'both replicas to reconnect', { timeoutMs: 20_000 });
    await waitUntil(
      async () => (await trail(b.app, cookies, `?target=${user.id}`)).total === 1,
      'the outage entry in the shared trail',
    );
    const sharedEntry = (await trail(b.app, cookies, `?target=${user.id}`)).list[0]!;
    expect(sharedEntry).toMatchObject({
      id: local.list[0]!.id,
      time: local.list[0]!.time,
      reason: 'while Redis was away',
    });
    expect(a.app.audit.target()).toBe('redis');
    expect(await verifyRedis(b.app.redis!.command, (name) => b.app.redis!.key(name))).toMatchObject({ intact: true });
  });

  it('removes entries past retention behind an anchor, and the shared chain still verifies', async () => {
    const before = await trail(b.app, cookies, '?pageSize=1');
    expect(before.total).toBeGreaterThan(0);
    const store = new RedisAuditStore({ share: a.app.redis!, fallback: new AuditFileStore({ dir: a.dataDir }) });
    const removed = await store.prune(Date.now() + 1);
    // The shared trail's entries, and the one the outage left in this replica's own file.
    expect(removed).toBe(before.total + 1);
    expect(await verifyFile(a.dataDir)).toMatchObject({ intact: true, entries: 0, anchor: { seq: 1 } });
    const user = sandbox.app.sandbox.users
      .all()
      .filter((u) => u.status === 'normal')
      .at(-4)!;
    await ban(b, user.id, 'after retention');
    const after = await trail(a.app, cookies, '?pageSize=10');
    expect(after.total).toBe(1);
    expect(after.list[0]).toMatchObject({
      reason: 'after retention',
      seq: before.list[0]!.seq + 1,
      prev: before.list[0]!.hash,
    });
    const verdict = await verifyRedis(a.app.redis!.command, (name) => a.app.redis!.key(name));
    expect(verdict).toMatchObject({
      intact: true,
      entries: 1,
      anchor: { seq: before.list[0]!.seq, hash: before.list[0]!.hash },
    });
  });

  it('keeps the stream within its cap: each append past it removes the oldest behind the anchor', async () => {
    const store = new RedisAuditStore({
      share: a.app.redis!,
      fallback: new AuditFileStore({ dir: a.dataDir }),
      maxEntries: 5,
    });
    let last = null;
    for (let i = 0; i < 12; i++) {
      last = await store.append({
        id: `capped-${i}`,
        time: new Date().toISOString(),
        kind: 'change',
        actor: { userId: '1', account: 'admin' },
        requestId: null,
        ip: null,
        method: 'POST',
        path: '/manage/user/userProfile/ban',
        resource: 'users',
        call: 'action',
        action: 'ban',
        targets: [String(i)],
        reason: null,
        outcome: { status: 200, code: 200 },
      });
    }
    expect(await a.app.redis!.command.xlen(a.app.redis!.key('audit'))).toBe(5);
    const page = await store.query({ pageNum: 1, pageSize: 100 });
    expect(page.total).toBe(5);
    expect(page.list[0]!.id).toBe('capped-11');
    const verdict = await verifyRedis(a.app.redis!.command, (name) => a.app.redis!.key(name));
    expect(verdict).toMatchObject({
      intact: true,
      entries: 5,
      anchor: { seq: last!.seq - 5 },
      last: { seq: last!.seq },
    });
    await store.close();
  });
});
