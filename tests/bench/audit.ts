import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { CALLS, GATEWAY_PATHS, PERMISSIONS, RESOURCES } from '../../server/contract/index.js';
import { GENESIS_HEAD, chain, entryLine, type AuditDraft, type ChainHead } from '../../server/audit/chain.js';
import { AUDIT_FILE } from '../../server/audit/file-store.js';
import { AUDIT_HEAD, AUDIT_STREAM, headText } from '../../server/audit/redis-store.js';
import { REDIS_KEY_PREFIX } from '../../server/redis/share.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../support/fake-backend.js';
import { RedisServer } from '../support/redis-server.js';
import { Cleanup, type BenchContext } from './lib/context.js';
import { fixed, percentile, printBudgets, printTable, type BudgetCheck, type ScenarioResult } from './lib/report.js';

/**
 * What the audit trail costs: the latency it adds to a call it records (a ban, answered at once by
 * a fake backend, so the gateway's own work shows), with the trail in the file and in Redis against
 * none at all, in alternating batches so the machine's load falls on all alike; and GET /api/audit
 * over 100,000 entries, a 50-row page for the questions the screen asks, from the file and from
 * Redis.
 */

const SAME_ORIGIN = { origin: 'http://localhost:80', host: 'localhost:80' };
const BAN = `${PERMISSIONS.userProfile}/ban`;
const ENTRIES = 100_000;
const ACCOUNTS = ['admin', 'finance_li', 'support_tanaka', 'ops_garcia', 'intern_wang', 'operator'];
const ACTIONS = [
  ['users', 'ban'],
  ['users', 'unban'],
  ['users', 'update'],
  ['withdrawalReview', 'approve'],
  ['withdrawalReview', 'reject'],
  ['sensitiveWords', 'create'],
  ['groups', 'muteAll'],
  ['withdrawalConfig', 'saveConfig'],
] as const;

function fakeBackend(backend: FakeBackend): void {
  backend.route(`POST ${CALLS.login}`, (_call, res) =>
    sendJson(res, { code: 200, msg: 'ok', data: { token: 'bench-token', userId: '1' } }),
  );
  backend.route(`GET ${CALLS.permission}`, (_call, res) =>
    sendJson(res, { code: 200, msg: 'ok', data: [{ permission: PERMISSIONS.record }] }),
  );
  backend.route(`POST ${BAN}`, (_call, res) => sendJson(res, { code: 200, msg: 'ok', data: { done: true } }));
}

async function gateway(
  env: Record<string, string>,
  audit = true,
): Promise<{ app: FastifyInstance; cookies: Record<string, string> }> {
  const config = loadConfig({
    SESSION_SECRET: 'bench-audit-session-secret-0123456789abcdef',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const app = await buildApp({ config, logger: false, audit });
  await app.ready();
  const login = await app.inject({
    method: 'POST',
    url: CALLS.login,
    headers: SAME_ORIGIN,
    payload: { account: 'admin', password: 'x', code: '' },
  });
  return { app, cookies: Object.fromEntries(login.cookies.map((c) => [c.name, c.value])) };
}

/** Milliseconds of each of `n` calls of `send`, one after another. */
async function timed(n: number, send: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await send();
    times.push(performance.now() - start);
  }
  return times;
}

function summary(times: number[]): { p50: number; p99: number } {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

/** A realistic trail: six administrators, eight kinds of change, a few thousand records, a day of entries every 1,000. */
function syntheticDrafts(count: number): AuditDraft[] {
  const start = Date.UTC(2026, 0, 1);
  const drafts: AuditDraft[] = [];
  for (let i = 0; i < count; i++) {
    const [resource, action] = ACTIONS[i % ACTIONS.length]!;
    const account = ACCOUNTS[(i * 7) % ACCOUNTS.length]!;
    drafts.push({
      id: `bench-${i}`,
      time: new Date(start + i * 86_400).toISOString(),
      kind: 'change',
      actor: { userId: String(ACCOUNTS.indexOf(account) + 1), account },
      requestId: `req-${i}`,
      ip: '10.0.0.8',
      method: 'POST',
      path: `/manage/${resource}/${action}`,
      resource,
      call: action === 'update' ? 'save' : action === 'saveConfig' ? 'config' : 'action',
      action,
      targets: [String(100_000 + ((i * 31) % 5_000))],
      reason: action === 'ban' || action === 'reject' ? `reason ${i % 97}` : null,
      outcome: { status: 200, code: 200 },
      ...(action === 'update' ? { before: { nickname: `old ${i}` }, after: { nickname: `new ${i}` } } : {}),
    });
  }
  return drafts;
}

/** The questions the Audit trail screen asks, each for a 50-row page. */
const QUESTIONS: [label: string, query: string][] = [
  ['newest page', '?pageSize=50'],
  ['page 1,000', '?pageSize=50&pageNum=1000'],
  ['by administrator', '?pageSize=50&actor=support_tanaka'],
  ['by screen and action', '?pageSize=50&resource=users&action=ban'],
  ['by record', '?pageSize=50&target=101234'],
  ['by week', '?pageSize=50&since=2026-01-10&until=2026-01-16'],
  ['all at once', '?pageSize=50&actor=admin&resource=withdrawalReview&since=2026-01-01&until=2026-01-31'],
];

async function pageTimings(
  app: FastifyInstance,
  cookies: Record<string, string>,
  rounds: number,
): Promise<{ label: string; p50: number; max: number; total: number }[]> {
  // One round first, unmeasured: the code paths compiled, as on a gateway that has been up a while.
  for (const [, query] of QUESTIONS)
    await app.inject({ method: 'GET', url: `${GATEWAY_PATHS.audit}${query}`, cookies });
  const out: { label: string; p50: number; max: number; total: number }[] = [];
  for (const [label, query] of QUESTIONS) {
    let total = 0;
    const times = await timed(rounds, async () => {
      const response = await app.inject({ method: 'GET', url: `${GATEWAY_PATHS.audit}${query}`, cookies });
      if (response.statusCode !== 200)
        throw new Error(`GET /api/audit${query} answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
      total = (response.json() as { data: { total: number } }).data.total;
    });
    const sorted = [...times].sort((a, b) => a - b);
    out.push({ label, p50: percentile(sorted, 50), max: sorted[sorted.length - 1]!, total });
  }
  return out;
}

export async function auditScenario(context: BenchContext): Promise<ScenarioResult> {
  const cleanup = new Cleanup();
  const haveRedis = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
  const notes: string[] = [];
  try {
    const backend = await startFakeBackend();
    cleanup.add(() => backend.close());
    fakeBackend(backend);
    const dir = (prefix: string) => {
      const made = mkdtempSync(path.join(tmpdir(), prefix));
      cleanup.add(() => rmSync(made, { recursive: true, force: true }));
      return made;
    };
    const base = { CHAT_BACKEND_URL: backend.url, UI_DIR: dir('bench-audit-ui-') };

    // ---- the cost of recording a call ----
    const configs: { label: string; app: FastifyInstance; cookies: Record<string, string> }[] = [];
    const none = await gateway({ ...base, DATA_DIR: dir('bench-audit-none-') }, false);
    configs.push({ label: 'no audit trail', ...none });
    const file = await gateway({ ...base, DATA_DIR: dir('bench-audit-file-') });
    configs.push({ label: 'trail in DATA_DIR', ...file });
    if (haveRedis) {
      const redis = await RedisServer.start();
      cleanup.add(() => redis.close());
      const shared = await gateway({ ...base, DATA_DIR: dir('bench-audit-redis-'), REDIS_URL: redis.url });
      for (let i = 0; i < 200 && !shared.app.redis?.available; i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      configs.push({ label: 'trail in Redis', ...shared });
    } else notes.push('redis-server not installed: the Redis figures are left out');
    for (const c of configs) cleanup.add(() => c.app.close());

    const batches = context.quick ? 4 : 20;
    const perBatch = context.quick ? 100 : 250;
    const ban = (c: (typeof configs)[number]) => () =>
      c.app.inject({
        method: 'POST',
        url: BAN,
        headers: SAME_ORIGIN,
        cookies: c.cookies,
        payload: { id: 100001, reason: 'bench' },
      });
    for (const c of configs) await timed(200, ban(c));
    const times = new Map(configs.map((c) => [c.label, [] as number[]]));
    for (let b = 0; b < batches; b++)
      for (const c of configs) times.get(c.label)!.push(...(await timed(perBatch, ban(c))));
    const costs = configs.map((c) => ({ label: c.label, ...summary(times.get(c.label)!) }));
    const bare = costs[0]!;
    printTable(
      `a recorded call (POST ban through the gateway, answered at once by a fake backend), ${batches * perBatch} calls each, alternating batches`,
      [
        ['', 'p50 ms', 'p99 ms', 'added p50', 'added p99'],
        ...costs.map((c) => [
          c.label,
          fixed(c.p50, 3),
          fixed(c.p99, 3),
          fixed(c.p50 - bare.p50, 3),
          fixed(c.p99 - bare.p99, 3),
        ]),
      ],
    );

    // ---- GET /api/audit over 100,000 entries ----
    const drafts = syntheticDrafts(context.quick ? 20_000 : ENTRIES);
    let head: ChainHead = GENESIS_HEAD;
    const entries = drafts.map((draft) => {
      const entry = chain(draft, head);
      head = { seq: entry.seq, hash: entry.hash };
      return entry;
    });
    const lines = entries.map(entryLine);
    const trailDir = dir('bench-audit-trail-');
    writeFileSync(path.join(trailDir, AUDIT_FILE), `${lines.join('\n')}\n`);
    const openStart = performance.now();
    const reader = await gateway({ ...base, DATA_DIR: trailDir });
    const openMs = performance.now() - openStart;
    cleanup.add(() => reader.app.close());
    const rounds = context.quick ? 5 : 20;
    const fromFile = await pageTimings(reader.app, reader.cookies, rounds);

    let fromRedis: Awaited<ReturnType<typeof pageTimings>> | null = null;
    let redisFirstMs: number | null = null;
    if (haveRedis) {
      const redis = await RedisServer.start();
      cleanup.add(() => redis.close());
      const client = new Redis(redis.url);
      cleanup.add(() => client.disconnect());
      for (let i = 0; i < lines.length; i += 1_000) {
        const pipeline = client.pipeline();
        // As the append script writes them, with ids of their own in order.
        for (let n = i; n < Math.min(i + 1_000, lines.length); n++) {
          const entry = entries[n]!;
          pipeline.xadd(
            REDIS_KEY_PREFIX + AUDIT_STREAM,
            `${n + 1}-1`,
            'seq',
            String(entry.seq),
            'hash',
            entry.hash,
            'time',
            entry.time,
            'entry',
            lines[n]!,
          );
        }
        await pipeline.exec();
      }
      await client.set(REDIS_KEY_PREFIX + AUDIT_HEAD, headText(head));
      const shared = await gateway({ ...base, DATA_DIR: dir('bench-audit-redis-read-'), REDIS_URL: redis.url });
      cleanup.add(() => shared.app.close());
      for (let i = 0; i < 200 && !shared.app.redis?.available; i++)
        await new Promise((resolve) => setTimeout(resolve, 25));
      const first = performance.now();
      await shared.app.inject({
        method: 'GET',
        url: `${GATEWAY_PATHS.audit}?pageSize=50&pageNum=2`,
        cookies: shared.cookies,
      });
      redisFirstMs = performance.now() - first;
      fromRedis = await pageTimings(shared.app, shared.cookies, rounds);
    }
    printTable(
      `GET /api/audit, a 50-row page over ${drafts.length.toLocaleString('en')} entries (${rounds} rounds each)`,
      [
        ['question', 'matches', 'file p50 ms', 'file max ms', ...(fromRedis ? ['Redis p50 ms', 'Redis max ms'] : [])],
        ...fromFile.map((q, i) => [
          q.label,
          q.total.toLocaleString('en'),
          fixed(q.p50, 2),
          fixed(q.max, 2),
          ...(fromRedis ? [fixed(fromRedis[i]!.p50, 2), fixed(fromRedis[i]!.max, 2)] : []),
        ]),
      ],
    );
    console.log(
      `  start with ${drafts.length.toLocaleString('en')} entries in DATA_DIR (read and indexed): ${fixed(openMs, 0)} ms`,
    );
    if (redisFirstMs !== null)
      console.log(
        `  first question to a replica that has not indexed the Redis stream yet: ${fixed(redisFirstMs, 0)} ms`,
      );

    const worst = Math.max(...fromFile.map((q) => q.max), ...(fromRedis ?? []).map((q) => q.max));
    const worstMedian = Math.max(...fromFile.map((q) => q.p50), ...(fromRedis ?? []).map((q) => q.p50));
    const addedP99 = Math.max(...costs.slice(1).map((c) => c.p99 - bare.p99));
    const budgets: BudgetCheck[] = [
      ...costs.slice(1).map((c) => ({
        budget: `audit: p99 a recorded call gains (${c.label})`,
        measured: `+${fixed(c.p99 - bare.p99, 3)} ms (${fixed(c.p99, 3)} vs ${fixed(bare.p99, 3)} ms)`,
        limit: '<= 1 ms',
        pass: c.p99 - bare.p99 <= 1,
      })),
      {
        budget: `audit: a 50-row page of GET /api/audit over ${drafts.length.toLocaleString('en')} entries (worst of ${QUESTIONS.length} questions)`,
        measured: `${fixed(worstMedian, 2)} ms median, ${fixed(worst, 2)} ms at most`,
        limit: '< 100 ms',
        pass: worst < 100,
      },
    ];
    printBudgets(budgets);
    return {
      scenario: 'audit',
      notes,
      budgets,
      figures: {
        calls: Object.fromEntries(costs.map((c) => [c.label, { p50Ms: c.p50, p99Ms: c.p99 }])),
        addedP99Ms: addedP99,
        entries: drafts.length,
        openMs,
        redisFirstMs,
        pagesFromFile: fromFile,
        pagesFromRedis: fromRedis,
      },
    };
  } finally {
    await cleanup.run();
  }
}

/** Keeps the resource ids of the synthetic trail honest: each names a resource of the contract. */
for (const [resource] of ACTIONS)
  if (!RESOURCES.some((r) => r.id === resource))
    throw new Error(`the audit bench names an unknown resource ${resource}`);
