/**
 * The ui scenario's list bench (issues 4 and 7): the users list screen (/userpage/userset) over a
 * sandbox of many users, in headless Chromium on a local gateway.
 *
 * - drawn: for every page or sort change, from the list call's response arriving (resource timing
 *   responseEnd, in the page's clock) to its rows being in the DOM and one frame painted after
 *   (requestAnimationFrame, then a message posted from it, which runs once that frame is done);
 * - memory: the page's JS heap after a forced GC (CDP HeapProfiler.collectGarbage, then
 *   Runtime.getHeapUsage) and the DOM counters, after every change; growth = last minus page 2;
 * - server: the list call's request-sent to first-byte time as the browser saw it (gateway plus
 *   backend), split into the first call of a new sort and the others;
 * - sort: a click on a sortable header (the event's timeStamp) to the sorted page painted;
 * - switch: a click on the menu entry of the other list screen of the group (users and groups,
 *   each way in turn) to that screen's rows painted.
 *
 * Before each click the bench scrolls the control into view, then waits until the page has had no
 * request under way for SETTLE_QUIET_MS (lib/settle.ts): the page just drawn, and the rows the
 * scroll brought, have their pictures, as for someone who reads a page and scrolls to its Next
 * button before clicking it. Clicked back to back, each change overlapped the picture fetches of
 * the last page and of the rows the click's own scroll brought into view.
 */
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, CDPSession } from 'playwright-core';
import { launchChromium } from '../support/chromium.js';
import { SANDBOX_AES_KEY_TEXT } from '../../sandbox/key.js';
import { Child } from '../support/child.js';
import { CHILDREN_DIR } from '../support/paths.js';
import { Cleanup, logFile, type BenchContext } from './lib/context.js';
import { PAGE_SCRIPT, STEP_TIMEOUT_MS, armScreen, waitForScreen } from './lib/list-recorder.js';
import {
  changeList,
  login,
  median,
  nearestRank,
  openList,
  pageStep,
  spread,
  type StepFigures,
} from './lib/list-steps.js';
import { fixed, mib, printTable, type BudgetCheck } from './lib/report.js';
import { trackRequests } from './lib/settle.js';

export const LIST_PATH = '/userpage/userset';
export const LIST_CALL = '/manage/user/userProfile/list';
/** The largest page size web/engine/list/url-state.ts allows (PAGE_SIZES = 10, 20, 50, 100). */
export const LIST_PAGE_SIZE = 100;
export const LIST_USERS = 100_000;
/**
 * Every interaction within 100 ms at the 95th percentile: a 100-row page drawn after its data
 * arrives, a click on a sortable header to the sorted page drawn (the server's sort included), and
 * a click in the menu from one list screen to another to its rows drawn.
 */
export const LIST_DRAWN_BUDGET_MS = 100;
export const SORT_CLICK_BUDGET_MS = 100;
export const SWITCH_BUDGET_MS = 100;
/** The other list screen of the users' menu group, and its list call. */
export const OTHER_LIST_PATH = '/groupset';
const SWITCHES = 20;
/** "No growth beyond noise": at most this much, or this share of the page-2 heap, whichever is larger. */
export const HEAP_GROWTH_BYTES = 2 * 1024 * 1024;
export const HEAP_GROWTH_SHARE = 0.1;
/** The whole browser part of the list bench stops here, whatever is left. */
const LIST_DEADLINE_MS = 180_000;

/** One UI action: next page, or a click on a sortable header (which goes back to page 1). */
type Step = { kind: 'next' } | { kind: 'sort'; field: string };

/** The users' sortable columns the sort clicks go through, each clicked twice (ascending, then descending). */
const SORTED_BY = ['balance', 'lastLoginTime', 'id', 'account', 'registerTime'] as const;

/**
 * 45 changes: 25 next-page clicks and 20 sort clicks (each of SORTED_BY twice in a row, then all
 * of them again), with a next page after each sort, so pages deep into a sort are visited too.
 * Twenty sorts so their 95th percentile is the 19th of 20, not the slowest of a few.
 * --quick keeps 10 changes.
 */
function plan(quick: boolean): Step[] {
  const next = (n: number): Step[] => Array.from({ length: n }, () => ({ kind: 'next' }) as const);
  const sort = (field: string): Step => ({ kind: 'sort', field });
  if (quick) return [...next(4), sort('balance'), ...next(3), sort('balance'), ...next(1)];
  const sorts = [...SORTED_BY, ...SORTED_BY].flatMap((field) => [sort(field), ...next(1), sort(field), ...next(1)]);
  return [...next(5), ...sorts];
}

export interface ListStep extends StepFigures {
  step: number;
  action: string;
  /** First call of a new sort order: the backend sorts 100,000 users for it. */
  newSort: boolean;
  heapUsed: number | null;
  domNodes: number | null;
  jsListeners: number | null;
}

export interface SwitchStep {
  to: string;
  clickToPaintedMs: number;
  /** The first visit of a screen in this session: its chunk and data are not cached yet. */
  firstVisit: boolean;
}

export interface ListBench {
  users: number;
  pageSize: number;
  seedMs: number | null;
  firstLoad: { drawnMs: number; serverMs: number | null; total: number | null } | null;
  steps: ListStep[];
  switches: SwitchStep[];
  sortClick: { median: number; p95: number; max: number; count: number };
  switch: { median: number; p95: number; max: number; count: number };
  heap: {
    page2: number | null;
    last: number | null;
    growth: number | null;
    growthShare: number | null;
    slopePerChange: number | null;
    domNodesPage2: number | null;
    domNodesLast: number | null;
  };
  loadAverage: { before: number[]; after: number[] };
  drawn: { median: number; max: number; p90: number; p95: number; count: number };
  server: {
    sortedMedian: number | null;
    sortedMax: number | null;
    newSortMedian: number | null;
    newSortMax: number | null;
    count: number;
  };
  backendRss: number | null;
}

async function heapAfterGc(
  cdp: CDPSession,
): Promise<{ heapUsed: number | null; domNodes: number | null; jsListeners: number | null }> {
  try {
    // Twice: what the first pass finalises can free more on the second.
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = await cdp.send('Runtime.getHeapUsage');
    let domNodes: number | null = null;
    let jsListeners: number | null = null;
    try {
      const counters = await cdp.send('Memory.getDOMCounters');
      domNodes = counters.nodes;
      jsListeners = counters.jsEventListeners;
    } catch {
      // Older Chromium: heap only.
    }
    return { heapUsed: heap.usedSize, domNodes, jsListeners };
  } catch {
    return { heapUsed: null, domNodes: null, jsListeners: null };
  }
}

async function browse(
  baseUrl: string,
  userDataDir: string,
  steps: Step[],
  switches: number,
): Promise<Pick<ListBench, 'firstLoad' | 'steps' | 'switches'>> {
  const browserContext: BrowserContext = await launchChromium(userDataDir);
  try {
    await browserContext.addInitScript({ content: PAGE_SCRIPT });
    const page = browserContext.pages()[0] ?? (await browserContext.newPage());
    const cdp = await browserContext.newCDPSession(page);
    const requests = trackRequests(page);
    await login(page, baseUrl);

    // The list screen, 100 rows a page, the default sort: a full load (chunks, session, menu).
    const firstFigures = await openList(page, baseUrl, `${LIST_PATH}?pageSize=${LIST_PAGE_SIZE}`, LIST_CALL);
    if (firstFigures.rows !== LIST_PAGE_SIZE)
      throw new Error(`the users list shows ${firstFigures.rows} rows, expected ${LIST_PAGE_SIZE}`);
    const firstLoad = { drawnMs: firstFigures.drawnMs, serverMs: firstFigures.serverMs, total: firstFigures.total };

    const table = page.locator('[data-testid="list-table"]');
    // Found by its marker: its place moves as page numbers come and go.
    const nextButton = pageStep(page, 'next');
    const results: ListStep[] = [];
    const seenSorts = new Set<string>([firstFigures.sort]);
    const deadline = performance.now() + LIST_DEADLINE_MS;
    for (const [index, step] of steps.entries()) {
      if (performance.now() > deadline)
        throw new Error(`the list bench ran past ${LIST_DEADLINE_MS / 1000} s after ${index} changes`);
      const target = step.kind === 'next' ? nextButton : table.locator(`thead button[data-sort="${step.field}"]`);
      const figures = await changeList(page, requests, target, LIST_CALL);
      const newSort = !seenSorts.has(figures.sort);
      seenSorts.add(figures.sort);
      // Measured after the draw, so the forced GC never lands inside a measured change.
      const memory = await heapAfterGc(cdp);
      results.push({
        step: index + 1,
        action: step.kind === 'next' ? 'next page' : `sort ${step.field}`,
        ...figures,
        newSort,
        ...memory,
      });
    }

    // Screen switches through the menu, groups and users in turn; both are in the users' menu
    // group, which stays open while either is shown. The first visit of each loads its data.
    const switched: SwitchStep[] = [];
    const targets = [
      { path: OTHER_LIST_PATH, resource: 'groups' },
      { path: LIST_PATH, resource: 'users' },
    ];
    for (let i = 0; i < switches; i++) {
      if (performance.now() > deadline)
        throw new Error(`the list bench ran past ${LIST_DEADLINE_MS / 1000} s after ${i} screen switches`);
      const target = targets[i % 2]!;
      await requests.settled(STEP_TIMEOUT_MS);
      await armScreen(page, target.resource);
      await page
        .locator(`aside a[href="${target.path}"], nav a[href="${target.path}"]`)
        .first()
        .click({ timeout: STEP_TIMEOUT_MS });
      const ms = await waitForScreen(page, target.resource);
      switched.push({ to: target.path, clickToPaintedMs: ms, firstVisit: i < 2 });
    }
    return { firstLoad, steps: results, switches: switched };
  } finally {
    await browserContext.close();
  }
}

/**
 * The list bench: a sandbox of LIST_USERS users in its own process, the gateway child in front of
 * it, one browser session paging and sorting the users list. Prints its tables and returns the
 * figures and budget rows for the ui scenario.
 */
export async function listBench(
  context: BenchContext,
  uiDir: string,
  dataDir: string,
  makeProfile: () => string,
): Promise<{ figures: ListBench; budgets: BudgetCheck[]; notes: string[] }> {
  const cleanup = new Cleanup();
  const notes: string[] = [];
  try {
    const { child: sandbox, ready: sandboxReady } = await Child.start(
      'sandbox backend',
      path.join(CHILDREN_DIR, 'sandbox.ts'),
      {
        env: { BENCH_SANDBOX_USERS: String(LIST_USERS), NODE_ENV: 'production' },
        logFile: logFile(context, 'ui-list-sandbox'),
        readyTimeoutMs: 120_000,
      },
    );
    cleanup.add(() => sandbox.stop());
    const seedMs = typeof sandboxReady.seedMs === 'number' ? sandboxReady.seedMs : null;
    const { child: gateway, ready } = await Child.start(
      'gateway (100k-user sandbox)',
      path.join(CHILDREN_DIR, 'gateway.ts'),
      {
        env: {
          CHAT_BACKEND_URL: sandboxReady.url!,
          FILE_SERVER_URL: sandboxReady.url!,
          RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT,
          UI_DIR: uiDir,
          DATA_DIR: path.join(dataDir, 'data-list'),
          LOG_LEVEL: 'warn',
          NODE_ENV: 'production',
        },
        logFile: logFile(context, 'ui-list-gateway'),
      },
    );
    cleanup.add(() => gateway.stop());

    const steps = plan(context.quick);
    const loadBefore = os.loadavg();
    const {
      firstLoad,
      steps: results,
      switches,
    } = await browse(ready.url!, makeProfile(), steps, context.quick ? 4 : SWITCHES);
    const loadAfter = os.loadavg();
    if (loadBefore[0]! > os.cpus().length)
      notes.push(
        `the machine was busy during the list bench (load ${loadBefore[0]!.toFixed(1)} on ${os.cpus().length} cores): the drawn figures are inflated by waiting for a core`,
      );
    const backendRss = await sandbox
      .request<{ rss: number }>({ type: 'memory' }, 5_000)
      .then((m) => m.rss)
      .catch(() => null);

    printTable(
      `ui: users list, ${LIST_USERS.toLocaleString('en')} sandbox users, ${LIST_PAGE_SIZE} rows a page (${results.length} changes)`,
      [
        [
          '#',
          'action',
          'page',
          'sort',
          'rows',
          'drawn ms',
          'parsed->paint ms',
          'DOM->paint ms',
          'server ms',
          'call ms',
          'answer KB',
          'JS heap',
          'DOM nodes',
        ],
        ...results.map((s) => [
          s.step,
          s.action,
          s.pageNum,
          s.sort || '(default)',
          s.rows,
          fixed(s.drawnMs, 1),
          fixed(s.parsedToPaintedMs, 1),
          fixed(s.inDomToPaintedMs, 1),
          `${fixed(s.serverMs, 1)}${s.newSort ? '*' : ''}`,
          fixed(s.callMs, 1),
          s.answerBytes === null ? 'n/a' : fixed(s.answerBytes / 1024, 1),
          mib(s.heapUsed),
          s.domNodes ?? 'n/a',
        ]),
      ],
    );
    console.log('  * first call of a new sort order (the backend builds the order of all users)');

    const wrongRows = results.filter((s) => s.rows !== LIST_PAGE_SIZE);
    if (wrongRows.length > 0) notes.push(`${wrongRows.length} changes showed other than ${LIST_PAGE_SIZE} rows`);
    const totals = [...new Set(results.map((s) => s.total))];
    if (totals.length !== 1 || totals[0] !== LIST_USERS)
      notes.push(`the list's total was ${totals.join(', ')}, expected ${LIST_USERS}`);

    const drawn = spread(results.filter((s) => s.rows === LIST_PAGE_SIZE).map((s) => s.drawnMs));
    const sortClicks = results
      .filter((s) => s.action.startsWith('sort') && s.clickToPaintedMs !== null)
      .map((s) => s.clickToPaintedMs!);
    const sortClick = {
      median: median(sortClicks),
      p95: nearestRank(sortClicks, 95),
      max: sortClicks.length ? Math.max(...sortClicks) : Number.NaN,
      count: sortClicks.length,
    };
    const switchValues = switches.map((s) => s.clickToPaintedMs);
    const switchFigures = {
      median: median(switchValues),
      p95: nearestRank(switchValues, 95),
      max: switchValues.length ? Math.max(...switchValues) : Number.NaN,
      count: switchValues.length,
    };
    // The budget counts every switch; a screen seen before (kept built, its page cached) and a
    // first visit (built, and its page asked for) are also shown apart.
    const returnValues = switches.filter((s) => !s.firstVisit).map((s) => s.clickToPaintedMs);
    const firstValues = switches.filter((s) => s.firstVisit).map((s) => s.clickToPaintedMs);
    // Every list call names its sort (the default is -registerTime); the first call of each sort apart.
    const sorted = results.filter((s) => s.serverMs !== null);
    const sortedOld = sorted.filter((s) => !s.newSort).map((s) => s.serverMs!);
    const sortedNew = sorted.filter((s) => s.newSort).map((s) => s.serverMs!);
    const server = {
      sortedMedian: sortedOld.length ? median(sortedOld) : null,
      sortedMax: sortedOld.length ? Math.max(...sortedOld) : null,
      newSortMedian: sortedNew.length ? median(sortedNew) : null,
      newSortMax: sortedNew.length ? Math.max(...sortedNew) : null,
      count: sorted.length,
    };
    // Least-squares slope of the heap over the changes: a steady climb shows here even when the
    // end points sit inside the allowance.
    const heapSeries = results.filter((s) => s.heapUsed !== null).map((s) => [s.step, s.heapUsed!] as const);
    let slopePerChange: number | null = null;
    if (heapSeries.length >= 3) {
      const mx = heapSeries.reduce((a, [x]) => a + x, 0) / heapSeries.length;
      const my = heapSeries.reduce((a, [, y]) => a + y, 0) / heapSeries.length;
      const sxy = heapSeries.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
      const sxx = heapSeries.reduce((a, [x]) => a + (x - mx) ** 2, 0);
      slopePerChange = sxx > 0 ? sxy / sxx : null;
    }
    const page2 = results[0] ?? null;
    const last = results[results.length - 1] ?? null;
    const growth = page2?.heapUsed != null && last?.heapUsed != null ? last.heapUsed - page2.heapUsed : null;
    const heap = {
      page2: page2?.heapUsed ?? null,
      last: last?.heapUsed ?? null,
      growth,
      growthShare: growth !== null && page2?.heapUsed ? growth / page2.heapUsed : null,
      slopePerChange,
      domNodesPage2: page2?.domNodes ?? null,
      domNodesLast: last?.domNodes ?? null,
    };
    const allServer = results.filter((s) => s.serverMs !== null).map((s) => s.serverMs!);
    printTable('ui: users list summary', [
      ['figure', 'value'],
      [
        'sandbox users (seeded in)',
        `${LIST_USERS.toLocaleString('en')} (${fixed(seedMs === null ? null : seedMs / 1000, 1)} s)`,
      ],
      ['first load of the screen: response -> painted', `${fixed(firstLoad?.drawnMs, 1)} ms`],
      [
        `drawn after data, ${drawn.count} changes: median / p90 / max`,
        `${fixed(drawn.median, 1)} / ${fixed(drawn.p90, 1)} / ${fixed(drawn.max, 1)} ms`,
      ],
      [
        `sort: click -> sorted page painted, ${sortClick.count} sorts: median / max`,
        `${fixed(sortClick.median, 1)} / ${fixed(sortClick.max, 1)} ms (${sortClicks.map((v) => fixed(v, 0)).join(', ')})`,
      ],
      [
        `screen switch users <-> groups: click -> rows painted, ${switchFigures.count}: median / max`,
        `${fixed(switchFigures.median, 1)} / ${fixed(switchFigures.max, 1)} ms (${switchValues.map((v) => fixed(v, 0)).join(', ')})`,
      ],
      [
        `  of which back to a screen seen before, ${returnValues.length}: median / p95`,
        `${fixed(median(returnValues), 1)} / ${fixed(nearestRank(returnValues, 95), 1)} ms; first visits: ${firstValues.map((v) => fixed(v, 0)).join(', ')} ms`,
      ],
      [
        'server (request -> first byte), all changes: median / max',
        `${fixed(median(allServer), 1)} / ${fixed(allServer.length ? Math.max(...allServer) : null, 1)} ms`,
      ],
      ['first load of the screen: server', `${fixed(firstLoad?.serverMs, 1)} ms`],
      [
        `sorted page, sort order already built (${sortedOld.length}): median / max`,
        `${fixed(server.sortedMedian, 1)} / ${fixed(server.sortedMax, 1)} ms`,
      ],
      [
        `sorted page, first of a new sort (${sortedNew.length}): median / max`,
        `${fixed(server.newSortMedian, 1)} / ${fixed(server.newSortMax, 1)} ms`,
      ],
      ['JS heap after GC: page 2 -> last page', `${mib(heap.page2)} -> ${mib(heap.last)}`],
      [
        'JS heap growth',
        growth === null
          ? 'n/a'
          : `${growth >= 0 ? '+' : ''}${fixed(growth / 1024, 0)} KB (${fixed((heap.growthShare ?? 0) * 100, 1)}%)`,
      ],
      [
        'JS heap trend (least squares) per change',
        slopePerChange === null ? 'n/a' : `${slopePerChange >= 0 ? '+' : ''}${fixed(slopePerChange / 1024, 1)} KB`,
      ],
      ['DOM nodes: page 2 -> last page', `${heap.domNodesPage2 ?? 'n/a'} -> ${heap.domNodesLast ?? 'n/a'}`],
      ['backend (sandbox) RSS', mib(backendRss)],
      [
        'load average before / after the browser run',
        `${loadBefore.map((n) => n.toFixed(2)).join(' ')} / ${loadAfter.map((n) => n.toFixed(2)).join(' ')}`,
      ],
    ]);

    const allowed =
      heap.page2 === null ? HEAP_GROWTH_BYTES : Math.max(HEAP_GROWTH_BYTES, heap.page2 * HEAP_GROWTH_SHARE);
    const budgets: BudgetCheck[] = [
      {
        budget: `ui: ${LIST_PAGE_SIZE}-row list drawn after its data (p95 of ${drawn.count})`,
        measured: `${fixed(drawn.p95, 1)} ms (median ${fixed(drawn.median, 1)}, max ${fixed(drawn.max, 1)})`,
        limit: `<= ${LIST_DRAWN_BUDGET_MS} ms`,
        pass: drawn.count > 0 ? drawn.p95 <= LIST_DRAWN_BUDGET_MS : null,
      },
      {
        budget: `ui: sort change, click -> sorted ${LIST_PAGE_SIZE}-row page drawn (p95 of ${sortClick.count})`,
        measured: `${fixed(sortClick.p95, 1)} ms (median ${fixed(sortClick.median, 1)}, max ${fixed(sortClick.max, 1)})`,
        limit: `<= ${SORT_CLICK_BUDGET_MS} ms`,
        pass: sortClick.count > 0 ? sortClick.p95 <= SORT_CLICK_BUDGET_MS : null,
      },
      {
        budget: `ui: between two list screens, click -> rows drawn (p95 of ${switchFigures.count})`,
        measured: `${fixed(switchFigures.p95, 1)} ms (median ${fixed(switchFigures.median, 1)}, max ${fixed(switchFigures.max, 1)})`,
        limit: `<= ${SWITCH_BUDGET_MS} ms`,
        pass: switchFigures.count > 0 ? switchFigures.p95 <= SWITCH_BUDGET_MS : null,
      },
      {
        budget: `ui: browser heap growth, page 2 -> after ${results.length} page/sort changes`,
        measured:
          growth === null
            ? 'no heap figure'
            : `${growth >= 0 ? '+' : ''}${fixed(growth / 1024, 0)} KB (${mib(heap.page2)} -> ${mib(heap.last)})`,
        limit: `<= ${fixed(allowed / 1024 / 1024, 1)} MiB (2 MiB or 10%)`,
        pass: growth === null ? null : growth <= allowed,
      },
      {
        budget: `ui: users list (${LIST_USERS / 1000}k) sorted server-side`,
        measured: `server ${fixed(server.sortedMedian, 1)} ms median, ${fixed(server.newSortMax, 1)} ms new sort`,
        limit: 'figure',
        pass: null,
      },
    ];
    notes.push(
      `users list: the sandbox (${LIST_USERS} users) runs in its own child (children/sandbox.ts) behind the gateway child; page size ${LIST_PAGE_SIZE} (the largest of url-state.ts PAGE_SIZES 10/20/50/100)`,
      '"drawn" = resource timing responseEnd of the list call -> the 100 rows of that answer in the DOM -> requestAnimationFrame -> a posted message (runs after that frame), all in the page clock',
      '"server ms" = responseStart - requestStart of the list call (gateway + backend, loopback); the heap is V8 usedSize after two forced GCs (CDP), taken after each change',
    );
    return {
      figures: {
        users: LIST_USERS,
        pageSize: LIST_PAGE_SIZE,
        seedMs,
        firstLoad,
        steps: results,
        switches,
        sortClick,
        switch: switchFigures,
        heap,
        drawn,
        server,
        backendRss,
        loadAverage: { before: loadBefore, after: loadAfter },
      },
      budgets,
      notes,
    };
  } finally {
    await cleanup.run();
  }
}
