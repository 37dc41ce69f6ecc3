/**
 * `--only ejabberd-ui`: the users list drawn in headless Chromium when the console is bound to a
 * real ejabberd 23.01 (Debian's package) through the shipped map. There the gateway pages the
 * whole account list itself and asks ejabberd for each row's nickname and last activity; it keeps
 * those per-row values 30 s and the whole list 15 s (server/backend-map/gateway-lists.ts).
 *
 * The list is walked in blocks of BLOCK pages: Next through the block (first visits: the gateway
 * asks ejabberd for the rows' values), then Previous back to the block's second page (every row's
 * values kept at the gateway, seconds old), then the next block opened at its first page in a
 * fresh document. A single
 * forward pass over 100 pages and a second one after it would outlive the 30 s the values are
 * kept, and the second pass would measure first visits again. Each change is timed with the same
 * page recorder as the sandbox's list bench (ui-list.ts): the list call's response end to its rows
 * in the DOM and a frame painted. The budget (100 ms at p95) is read on the pages of kept rows.
 */
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.js';
import { ejabberdMissing, startEjabberd } from '../support/ejabberd.js';
import { seedAccounts } from '../support/ejabberd-seed.js';
import { REPO_ROOT } from '../support/paths.js';
import { freePort } from '../support/ports.js';
import { NodeProcess, waitHealthy } from '../support/processes.js';
import { build } from './lib/build.js';
import { Cleanup, type BenchContext } from './lib/context.js';
import { PAGE_SCRIPT } from './lib/list-recorder.js';
import { changeList, login, openList, pageStep, spread, type StepFigures } from './lib/list-steps.js';
import { fixed, printTable, type BudgetCheck, type ScenarioResult } from './lib/report.js';
import { trackRequests } from './lib/settle.js';
import { LIST_CALL, LIST_DRAWN_BUDGET_MS, LIST_PAGE_SIZE, LIST_PATH } from './ui-list.js';

const MAP = path.join(REPO_ROOT, 'server/backend-map/bindings/ejabberd.json');
const ACCOUNTS = 10_000;
const QUICK_ACCOUNTS = 300;
/** Pages a block goes forward before coming back: about 10-20 s, inside the 30 s the row values are kept. */
const BLOCK = 10;
const QUICK_BLOCK = 3;
/** Accounts registered at once while seeding (the listener's backlog is 128). */
const SEED_CONCURRENCY = 32;
/** The whole browser walk stops here, whatever is left. */
const WALK_DEADLINE_MS = 900_000;

type Pass = 'first visit' | 'kept rows';
interface EjabberdStep extends StepFigures {
  step: number;
  pass: Pass;
}

async function walk(
  page: Page,
  baseUrl: string,
  block: number,
): Promise<{ first: StepFigures; steps: EjabberdStep[] }> {
  const requests = trackRequests(page);
  await login(page, baseUrl);
  const address = (pageNum: number) =>
    `${LIST_PATH}?pageSize=${LIST_PAGE_SIZE}${pageNum > 1 ? `&pageNum=${pageNum}` : ''}`;
  const first = await openList(page, baseUrl, address(1), LIST_CALL);
  if (first.rows !== LIST_PAGE_SIZE || first.total === null)
    throw new Error(`the users list shows ${first.rows} rows of ${first.total}, expected ${LIST_PAGE_SIZE}`);
  const lastPage = Math.ceil(first.total / LIST_PAGE_SIZE);
  const steps: EjabberdStep[] = [];
  const deadline = performance.now() + WALK_DEADLINE_MS;
  const step = async (button: 'next' | 'prev', pass: Pass, expected: number) => {
    if (performance.now() > deadline)
      throw new Error(`the walk ran past ${WALK_DEADLINE_MS / 1000} s after ${steps.length} changes`);
    const figures = await changeList(page, requests, pageStep(page, button), LIST_CALL).catch((error: unknown) => {
      throw new Error(`${button} to page ${expected} (change ${steps.length + 1}): ${String(error)}`);
    });
    if (figures.pageNum !== expected) throw new Error(`${button} showed page ${figures.pageNum}, expected ${expected}`);
    steps.push({ step: steps.length + 1, pass, ...figures });
  };
  for (let start = 1; start < lastPage; start += block) {
    const end = Math.min(lastPage, start + block);
    // A fresh document at the block's first page (its load is not counted: it is no page change).
    if (start > 1) await openList(page, baseUrl, address(start), LIST_CALL);
    for (let p = start + 1; p <= end; p++) await step('next', 'first visit', p);
    // Not back to the block's first page: the fresh document's first answer is kept in the
    // browser for 10 s (opening-query.ts), so going back there asks nothing of the gateway.
    for (let p = end - 1; p > start; p--) await step('prev', 'kept rows', p);
  }
  return { first, steps };
}

export async function ejabberdUiScenario(context: BenchContext): Promise<ScenarioResult> {
  const missing = ejabberdMissing();
  if (missing.length > 0) {
    const note = `${missing.join(', ')}: the ejabberd list bench needs Debian's package`;
    console.log(`  skipped: ${note}`);
    return {
      scenario: 'ejabberd-ui',
      notes: [note],
      budgets: [
        {
          budget: 'ui on ejabberd: 100-row page of kept rows drawn after its data (p95)',
          measured: 'not run',
          limit: `<= ${LIST_DRAWN_BUDGET_MS} ms`,
          pass: null,
        },
      ],
      figures: {},
    };
  }
  const cleanup = new Cleanup();
  const notes: string[] = [];
  try {
    await build(context);
    const accounts = context.quick ? QUICK_ACCOUNTS : ACCOUNTS;
    // The console's admin logs in with admin123 (tests/support/login.ts): the server's admin has it.
    const server = await startEjabberd({ adminPassword: 'admin123', startTimeoutMs: 120_000 });
    cleanup.add(() => server.stop());
    const seedStart = performance.now();
    await seedAccounts(server, accounts, SEED_CONCURRENCY);
    const seedMs = performance.now() - seedStart;
    console.log(
      `  ejabberd started in ${server.startedInMs} ms; ${accounts.toLocaleString('en')} accounts with vCard nicknames seeded in ${fixed(seedMs / 1000, 1)} s (${SEED_CONCURRENCY} at once, register + set_vcard each)`,
    );

    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-ejabberd-ui-'));
    cleanup.add(() => rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const gateway = new NodeProcess([path.join(REPO_ROOT, 'dist/server/main.js')], {
      cwd: REPO_ROOT,
      env: {
        HOST: '127.0.0.1',
        PORT: String(port),
        BACKEND_MAP: MAP,
        CHAT_BACKEND_URL: server.url,
        EJABBERD_HOST: server.host,
        EJABBERD_MUC_HOST: server.mucHost,
        DATA_DIR: path.join(dataDir, 'data'),
        UI_DIR: path.join(REPO_ROOT, 'dist', 'web'),
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
      },
    });
    cleanup.add(() => gateway.stop());
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitHealthy(gateway, baseUrl);

    const block = context.quick ? QUICK_BLOCK : BLOCK;
    const loadBefore = os.loadavg();
    const browserContext = await launchChromium(path.join(dataDir, 'profile'));
    cleanup.add(() => browserContext.close());
    await browserContext.addInitScript({ content: PAGE_SCRIPT });
    const page = browserContext.pages()[0] ?? (await browserContext.newPage());
    const { first, steps } = await walk(page, baseUrl, block);
    const loadAfter = os.loadavg();
    if (loadBefore[0]! > os.cpus().length)
      notes.push(
        `the machine was busy (load ${loadBefore[0]!.toFixed(1)} on ${os.cpus().length} cores): the drawn figures are inflated by waiting for a core`,
      );

    printTable(
      `ui on ejabberd: users list, ${first.total?.toLocaleString('en')} accounts, ${LIST_PAGE_SIZE} rows a page (${steps.length} changes, blocks of ${block} pages)`,
      [
        ['#', 'pass', 'page', 'rows', 'drawn ms', 'parsed->paint ms', 'DOM->paint ms', 'server ms', 'call ms'],
        ...steps.map((s) => [
          s.step,
          s.pass,
          s.pageNum,
          s.rows,
          fixed(s.drawnMs, 1),
          fixed(s.parsedToPaintedMs, 1),
          fixed(s.inDomToPaintedMs, 1),
          fixed(s.serverMs, 1),
          fixed(s.callMs, 1),
        ]),
      ],
    );
    const full = (pass: Pass) => steps.filter((s) => s.pass === pass && s.rows === LIST_PAGE_SIZE);
    const kept = full('kept rows');
    const firstVisits = full('first visit');
    const drawn = spread(kept.map((s) => s.drawnMs));
    const drawnFirst = spread(firstVisits.map((s) => s.drawnMs));
    const serverKept = spread(kept.flatMap((s) => (s.serverMs === null ? [] : [s.serverMs])));
    const serverFirst = spread(firstVisits.flatMap((s) => (s.serverMs === null ? [] : [s.serverMs])));
    const range = (f: ReturnType<typeof spread>) =>
      `${fixed(f.median, 1)} / ${fixed(f.p95, 1)} / ${fixed(f.max, 1)} ms`;
    printTable('ui on ejabberd: summary', [
      ['figure', 'value'],
      ['accounts (seeded in)', `${accounts.toLocaleString('en')} (${fixed(seedMs / 1000, 1)} s)`],
      ['first load of the screen: response -> painted', `${fixed(first.drawnMs, 1)} ms`],
      [`drawn after data, kept rows, ${drawn.count} pages: median / p95 / max`, range(drawn)],
      [`drawn after data, first visits, ${drawnFirst.count} pages: median / p95 / max`, range(drawnFirst)],
      [`server (request -> first byte), kept rows: median / p95 / max`, range(serverKept)],
      [`server (request -> first byte), first visits: median / p95 / max`, range(serverFirst)],
      [
        'load average before / after the browser walk',
        `${loadBefore.map((n) => n.toFixed(2)).join(' ')} / ${loadAfter.map((n) => n.toFixed(2)).join(' ')}`,
      ],
    ]);
    const short = steps.filter((s) => s.rows !== LIST_PAGE_SIZE).length;
    notes.push(
      `ejabberd ${server.url} seeded with ${accounts} accounts (register + set_vcard NICKNAME, ${SEED_CONCURRENCY} at once) in ${fixed(seedMs / 1000, 1)} s; the gateway is dist/server/main.js with the shipped ejabberd map`,
      `blocks of ${block} pages: Next through the block, then Previous back over it (its rows' values kept at the gateway); ${short} changes of fewer than ${LIST_PAGE_SIZE} rows (the last page) are left out of the figures`,
      '"drawn" = resource timing responseEnd of the list call -> its rows in the DOM -> requestAnimationFrame -> a posted message (runs after that frame), all in the page clock',
    );
    const budgets: BudgetCheck[] = [
      {
        budget: `ui on ejabberd: ${LIST_PAGE_SIZE}-row page of kept rows drawn after its data (p95 of ${drawn.count})`,
        measured: `${fixed(drawn.p95, 1)} ms (median ${fixed(drawn.median, 1)}, max ${fixed(drawn.max, 1)})`,
        limit: `<= ${LIST_DRAWN_BUDGET_MS} ms`,
        pass: drawn.count > 0 ? drawn.p95 <= LIST_DRAWN_BUDGET_MS : null,
      },
    ];
    return {
      scenario: 'ejabberd-ui',
      notes,
      budgets,
      figures: {
        accounts,
        seedMs,
        block,
        firstLoad: first,
        steps,
        drawn,
        drawnFirst,
        serverKept,
        serverFirst,
        loadAverage: { before: loadBefore, after: loadAfter },
      },
    };
  } finally {
    await cleanup.run();
  }
}
