import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Child } from '../support/child.js';
import { CHILDREN_DIR } from '../support/paths.js';
import { RedisServer } from '../support/redis-server.js';
import { sleep } from '../support/wait.js';
import { Cleanup, logFile, type BenchContext } from './lib/context.js';
import { fixed, printBudgets, printTable, type BudgetCheck, type ScenarioResult } from './lib/report.js';
import { benchLogIn } from './lib/session.js';

const SESSIONS = 50;
const REPLICAS = 2;
/** Tabs per session on each replica: every session is streamed by both. */
const TABS_PER_REPLICA = 2;
const POLL_MS = 1_000;
const SECRET = 'bench-replicas-share-this-session-secret-0123456789';

interface Run {
  label: string;
  pollsPerPeriod: number;
  tokens: number;
  streams: number;
}

/**
 * Two gateway replicas on one backend, every session streamed by both: upstream withdrawal polls
 * per period without REDIS_URL (each replica polls its sessions: sessions x replicas) and with
 * one Redis shared (one poll per session and period across the replicas: sessions).
 */
export async function eventsRedisScenario(context: BenchContext): Promise<ScenarioResult> {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0)
    throw new Error('redis-server is not installed (Debian package redis-server)');
  const cleanup = new Cleanup();
  const periods = context.quick ? 3 : 10;
  try {
    const redis = await RedisServer.start();
    cleanup.add(() => redis.close());
    const { child: backend, ready: backendReady } = await Child.start(
      'events backend',
      path.join(CHILDREN_DIR, 'events-backend.ts'),
      {
        logFile: logFile(context, 'events-redis-backend'),
      },
    );
    cleanup.add(() => backend.stop());
    await backend.request({ type: 'set-count', count: 1 });

    const runs: Run[] = [];
    for (const shared of [false, true]) {
      const runCleanup = new Cleanup();
      try {
        const ports: number[] = [];
        for (let r = 0; r < REPLICAS; r++) {
          const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-events-redis-'));
          runCleanup.add(() => rmSync(dataDir, { recursive: true, force: true }));
          const { child, ready } = await Child.start(`replica ${r}`, path.join(CHILDREN_DIR, 'gateway.ts'), {
            env: {
              CHAT_BACKEND_URL: backendReady.url,
              WITHDRAWAL_POLL_MS: String(POLL_MS),
              LOG_LEVEL: 'warn',
              DATA_DIR: dataDir,
              UI_DIR: dataDir,
              NODE_ENV: 'production',
              SESSION_SECRET: SECRET,
              ...(shared ? { REDIS_URL: redis.url } : {}),
            },
            logFile: logFile(context, 'events-redis-gateways'),
          });
          runCleanup.add(() => child.stop('SIGTERM', 15_000));
          ports.push(ready.port!);
        }
        const { child: client } = await Child.start('sse client', path.join(CHILDREN_DIR, 'sse-client.ts'), {
          logFile: logFile(context, 'events-redis-client'),
        });
        runCleanup.add(() => client.stop());

        // One login per session (the replicas share SESSION_SECRET, so either takes the cookie), one
        // after the other: fifty at once from one address would trip the login throttle.
        const cookies: string[] = [];
        for (let i = 0; i < SESSIONS; i++) cookies.push(await benchLogIn(`http://127.0.0.1:${ports[0]}`, `r${i}`));
        let streams = 0;
        for (const port of ports) {
          const tabs = cookies.flatMap((cookie) => Array.from({ length: TABS_PER_REPLICA }, () => cookie));
          const { opened } = await client.request<{ opened: number }>({ type: 'open', port, cookies: tabs }, 60_000);
          streams += opened;
        }
        await client.request({ type: 'expect', count: 1, timeoutMs: 15_000 }, 20_000);
        // A period for the replicas' timers to settle before counting.
        await sleep(POLL_MS);
        await backend.request({ type: 'reset-polls' });
        const started = Date.now();
        await sleep(periods * POLL_MS);
        const polls = await backend.request<{ polls: number; tokens: number }>({ type: 'polls' });
        runs.push({
          label: shared ? `${REPLICAS} replicas, REDIS_URL shared` : `${REPLICAS} replicas, no REDIS_URL`,
          pollsPerPeriod: polls.polls / ((Date.now() - started) / POLL_MS),
          tokens: polls.tokens,
          streams,
        });
        await client.request({ type: 'close' });
      } finally {
        await runCleanup.run();
      }
    }

    printTable(
      `events with replicas: ${SESSIONS} sessions, each streamed by ${REPLICAS} replicas, WITHDRAWAL_POLL_MS=${POLL_MS}`,
      [
        ['setup', 'open streams', 'upstream polls per period', 'distinct tokens'],
        ...runs.map((run) => [run.label, run.streams, fixed(run.pollsPerPeriod, 1), run.tokens]),
      ],
    );
    const sharedRun = runs[1]!;
    const budgets: BudgetCheck[] = [
      {
        budget: 'events with Redis: upstream polls per period across replicas',
        measured: `${fixed(sharedRun.pollsPerPeriod, 1)} for ${SESSIONS} sessions on ${REPLICAS} replicas`,
        limit: `= sessions (${SESSIONS}), not sessions x replicas (${SESSIONS * REPLICAS})`,
        // Whole periods are counted, so a poll landing on either edge of the window is tolerated.
        pass: sharedRun.tokens === SESSIONS && Math.abs(sharedRun.pollsPerPeriod - SESSIONS) <= SESSIONS / periods,
      },
    ];
    const notes = ['the run without REDIS_URL is the comparison: each replica polls every session it streams'];
    for (const note of notes) console.log(`  note: ${note}`);
    printBudgets(budgets);
    return {
      scenario: 'events-redis',
      notes,
      budgets,
      figures: { sessions: SESSIONS, replicas: REPLICAS, pollMs: POLL_MS, periods, runs },
    };
  } finally {
    await cleanup.run();
  }
}
