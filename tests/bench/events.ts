import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Child } from '../support/child.js';
import { CHILDREN_DIR } from '../support/paths.js';
import { Cleanup, logFile, type BenchContext } from './lib/context.js';
import { countFds, openFilesLimit } from './lib/proc.js';
import { sleep } from '../support/wait.js';
import { fixed, kib, mib, printBudgets, printTable, type BudgetCheck, type ScenarioResult } from './lib/report.js';
import { benchLogIn } from './lib/session.js';

const STREAMS = 5_000;
const SESSIONS = 50;
const CLIENTS = 4;
const POLL_MS = 1_000;
const MEMORY_BUDGET_BYTES = 16 * 1024;
const COUNT_CHANGES = 3;

interface Memory {
  rss: number;
  heapUsed: number;
}

/**
 * 5,000 open event streams over 50 sessions on one gateway: upstream polls per period (one per
 * session, not per tab), memory per open stream, and how long a count change takes to reach
 * every stream. The streams come from several client processes, each socket its own "tab".
 */
export async function eventsScenario(context: BenchContext): Promise<ScenarioResult> {
  const cleanup = new Cleanup();
  const notes: string[] = [];
  const streams = context.quick ? 1_000 : STREAMS;
  try {
    const { child: backend, ready: backendReady } = await Child.start(
      'events backend',
      path.join(CHILDREN_DIR, 'events-backend.ts'),
      {
        logFile: logFile(context, 'events-backend'),
      },
    );
    cleanup.add(() => backend.stop());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-events-'));
    cleanup.add(() => rmSync(dataDir, { recursive: true, force: true }));
    const { child: gateway, ready: gatewayReady } = await Child.start(
      'gateway',
      path.join(CHILDREN_DIR, 'gateway.ts'),
      {
        env: {
          CHAT_BACKEND_URL: backendReady.url,
          WITHDRAWAL_POLL_MS: String(POLL_MS),
          LOG_LEVEL: 'warn',
          DATA_DIR: dataDir,
          UI_DIR: dataDir,
          NODE_ENV: 'production',
          // Each session here holds streams / SESSIONS tabs, far more than a person opens.
          EVENTS_MAX_PER_SESSION: String(Math.ceil(STREAMS / SESSIONS) + 10),
          // Thousands of sockets: more than the default cap of one process.
          MAX_CONNECTIONS: String(STREAMS + 1_000),
        },
        nodeArgs: ['--expose-gc'],
        logFile: logFile(context, 'events-gateway'),
        raiseFdLimit: true,
      },
    );
    cleanup.add(() => gateway.stop('SIGTERM', 15_000));
    const clients: Child[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      const { child } = await Child.start(`sse client ${i}`, path.join(CHILDREN_DIR, 'sse-client.ts'), {
        logFile: logFile(context, 'events-clients'),
        raiseFdLimit: true,
      });
      clients.push(child);
      cleanup.add(() => child.stop());
    }
    // One socket per stream in the gateway and in the clients, plus the usual handful.
    const needed = streams + 256;
    for (const [name, pid] of [
      ['gateway', gateway.pid],
      ...clients.map((c, i) => [`sse client ${i}`, c.pid] as const),
    ] as const) {
      const limit = openFilesLimit(pid);
      if (limit !== null && limit < (name === 'gateway' ? needed : Math.ceil(streams / CLIENTS) + 256)) {
        throw new Error(
          `${name} may open only ${limit} files (ulimit -n); raise the hard limit (ulimit -Hn) to at least ${needed}`,
        );
      }
    }
    await backend.request({ type: 'set-count', count: 1 });
    // One login per session, as each administrator's browser makes; its tabs share the cookie.
    const sessionCookies = await Promise.all(
      Array.from({ length: SESSIONS }, (_, i) => benchLogIn(gatewayReady.url!, `s${i}`)),
    );

    // A few streams first, so the routes, the permission cache and the JIT are warm before the baseline.
    const warm = await clients[0]!.request<{ opened: number }>({
      type: 'open',
      port: gatewayReady.port,
      cookies: [sessionCookies[0]!],
    });
    if (warm.opened !== 1)
      throw new Error('could not open a first event stream (is server/events/plugin.ts answering?)');
    await sleep(500);
    const before = await gateway.request<Memory>({ type: 'gc' });
    const fdsBefore = countFds(gateway.pid).total;

    const openStarted = Date.now();
    const opened = await Promise.all(
      clients.map((client, c) => {
        const cookies: string[] = [];
        for (let i = c; i < streams; i += CLIENTS) cookies.push(sessionCookies[i % SESSIONS]!);
        return client.request<{ opened: number; failed: number }>(
          { type: 'open', port: gatewayReady.port, cookies },
          120_000,
        );
      }),
    );
    const openMs = Date.now() - openStarted;
    const openCount = opened.reduce((sum, o) => sum + o.opened, 0);
    const failedCount = opened.reduce((sum, o) => sum + o.failed, 0);
    if (openCount < streams) notes.push(`${failedCount} of ${streams} streams could not be opened`);
    // Every stream has its first count before the memory reading, so none is still mid-set-up.
    await Promise.all(clients.map((client) => client.request({ type: 'expect', count: 1, timeoutMs: 15_000 }, 20_000)));
    await sleep(1_000);
    const after = await gateway.request<Memory>({ type: 'gc' });
    const fdsAfter = countFds(gateway.pid).total;
    const perStreamRss = (after.rss - before.rss) / openCount;
    const perStreamHeap = (after.heapUsed - before.heapUsed) / openCount;

    // Polls over whole periods while every stream is open.
    const periods = context.quick ? 3 : 5;
    await backend.request({ type: 'reset-polls' });
    const pollsStart = Date.now();
    await sleep(periods * POLL_MS);
    const polls = await backend.request<{ polls: number; tokens: number }>({ type: 'polls' });
    const pollsPerPeriod = polls.polls / ((Date.now() - pollsStart) / POLL_MS);

    // Count changes: from the backend's change to the last of the streams seeing it.
    const reach: number[] = [];
    /** Within one session, first tab to last tab: the gateway's fan-out, without the wait for the poll. */
    const spread: number[] = [];
    let incomplete = 0;
    for (let n = 0; n < COUNT_CHANGES; n++) {
      const count = 100 + n;
      // Changes land at different points of the poll period, so the figures show its spread.
      await sleep(Math.round(Math.random() * POLL_MS));
      const { at } = await backend.request<{ at: number }>({ type: 'set-count', count });
      const answers = await Promise.all(
        clients.map((client) =>
          client.request<{ complete: boolean; lastAt: number | null; bySession?: Record<string, [number, number]> }>(
            { type: 'expect', count, timeoutMs: 10 * POLL_MS },
            15 * POLL_MS,
          ),
        ),
      );
      if (answers.some((a) => !a.complete)) incomplete++;
      const last = Math.max(...answers.map((a) => a.lastAt ?? Number.NaN));
      reach.push(last - at);
      const sessions = new Map<string, [number, number]>();
      for (const answer of answers) {
        for (const [session, [first, lastSeen]] of Object.entries(answer.bySession ?? {})) {
          const known = sessions.get(session);
          sessions.set(session, known ? [Math.min(known[0], first), Math.max(known[1], lastSeen)] : [first, lastSeen]);
        }
      }
      spread.push(Math.max(...[...sessions.values()].map(([first, lastSeen]) => lastSeen - first)));
    }
    const statuses = await Promise.all(
      clients.map((client) => client.request<{ open: number; broken: number }>({ type: 'status' })),
    );
    const stillOpen = statuses.reduce((sum, s) => sum + s.open, 0);

    printTable(`events: ${openCount} open streams over ${SESSIONS} sessions, WITHDRAWAL_POLL_MS=${POLL_MS}`, [
      ['figure', 'value'],
      ['streams opened (failed)', `${openCount} (${failedCount})`],
      ['time to open them', `${fixed(openMs / 1000, 1)} s`],
      ['still open at the end', stillOpen],
      ['gateway RSS before / after', `${mib(before.rss)} / ${mib(after.rss)}`],
      ['memory per stream (RSS)', kib(perStreamRss)],
      ['memory per stream (JS heap)', kib(perStreamHeap)],
      ['gateway descriptors before / after', `${fdsBefore} / ${fdsAfter}`],
      ['upstream polls per period', `${fixed(pollsPerPeriod, 1)} (${polls.tokens} distinct tokens)`],
      ['count change to every stream, ms', reach.map((ms) => fixed(ms, 0)).join(', ')],
      ['fan-out: first to last tab of a session, ms (worst session)', spread.map((ms) => fixed(ms, 0)).join(', ')],
    ]);

    const worst = Math.max(...reach);
    const budgets: BudgetCheck[] = [
      {
        budget: 'events: upstream polls per period',
        measured: `${fixed(pollsPerPeriod, 1)} for ${SESSIONS} sessions`,
        limit: `= sessions (${SESSIONS})`,
        // Whole periods are counted, so a poll landing on either edge of the window is tolerated.
        pass: polls.tokens === SESSIONS && Math.abs(pollsPerPeriod - SESSIONS) <= SESSIONS / periods,
      },
      {
        budget: 'events: memory per open stream (RSS)',
        measured: kib(perStreamRss),
        limit: '<= 16 KB',
        pass: perStreamRss <= MEMORY_BUDGET_BYTES,
      },
      {
        budget: `events: count change reaches all ${openCount} streams`,
        measured: `${fixed(worst, 0)} ms (worst of ${COUNT_CHANGES})${incomplete ? `, ${incomplete} incomplete` : ''}`,
        limit: `<= ${POLL_MS} ms`,
        pass: incomplete === 0 && worst <= POLL_MS,
      },
    ];
    if (openCount < streams)
      budgets.push({
        budget: `events: ${streams} streams open`,
        measured: String(openCount),
        limit: String(streams),
        pass: false,
      });
    notes.push(
      `a change waits for its session's next poll (up to ${POLL_MS} ms, sessions poll at their own phase), then fans out to that session's tabs; the fan-out row is the latter alone`,
    );
    notes.push(
      'one more stream (session s0) was opened before the memory baseline to warm the gateway; it is not in the per-stream figure',
    );
    for (const note of notes) console.log(`  note: ${note}`);
    printBudgets(budgets);
    await Promise.all(clients.map((client) => client.request({ type: 'close' })));
    return {
      scenario: 'events',
      notes,
      budgets,
      figures: {
        streams: openCount,
        failed: failedCount,
        openMs,
        before,
        after,
        perStreamRss,
        perStreamHeap,
        fdsBefore,
        fdsAfter,
        pollsPerPeriod,
        pollTokens: polls.tokens,
        reachMs: reach,
        spreadMs: spread,
        pollMs: POLL_MS,
      },
    };
  } finally {
    await cleanup.run();
  }
}
