/**
 * The records scenario: a record's page and the header search's records, in headless Chromium on
 * a local gateway in front of the sandbox in its own child: first with the sandbox's own 3,000
 * users (what `npm start` shows; the budgets), then with 100,000 users (figures only: there the
 * sandbox's keyword search, a scan of every user, is most of a keystroke's time).
 *
 * - open: a click on a row's link in the users list (the event's timeStamp) to the record's page
 *   with its fields in the DOM and one frame painted after (requestAnimationFrame, then a message
 *   posted from it); then the browser's back to the list, and the next row. The first open, which
 *   the page's related lists also wait on, is shown apart; "complete" adds the related lists.
 * - keystroke: a key typed in the header search (the keydown's timeStamp) to the results of the
 *   text typed so far, every group answered (the 50 ms debounce included), painted. Only texts the
 *   records are searched for count (two characters or more, or digits); each key waits for its
 *   results before the next, so every keystroke is measured whole.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM_PATH, launchChromium } from '../support/chromium.js';
import { loginForm, submitLogin } from '../support/login.js';
import { Child } from '../support/child.js';
import { CHILDREN_DIR, REPO_ROOT } from '../support/paths.js';
import { SANDBOX_AES_KEY_TEXT } from '../../sandbox/key.js';
import { recordKeyword } from '../../web/engine/record/record-search.js';
import { Cleanup, logFile, type BenchContext } from './lib/context.js';
import { fixed, percentile, printBudgets, printTable, type BudgetCheck, type ScenarioResult } from './lib/report.js';
import { trackRequests } from './lib/settle.js';

const UI_DIR = path.join(REPO_ROOT, 'dist', 'web');
/** The sandbox's own size (the budgets), then a large one (figures). */
const SIZES: readonly (number | null)[] = [null, 100_000];
const DEFAULT_USERS = 3_000;
const LIST_PATH = '/userpage/userset';
/** A record's page opened, and a keystroke's results, 95th percentile. */
export const RECORD_OPEN_BUDGET_MS = 100;
export const SEARCH_KEY_BUDGET_MS = 100;
const OPENS = 30;
const STEP_TIMEOUT_MS = 15_000;
/**
 * Typed key by key: accounts, names, phone and id prefixes of the seeded sandbox (its default
 * seed), so most keystrokes find something, as an administrator's do.
 */
const WORDS = ['sakura', 'li3053', '+8613', 'ming9', '100234', 'Book', 'kaito18', 'olivia', '+3462', 'Team'];

const PAGE_SCRIPT = `(() => {
  const state = { clickAt: null, keyAt: null, watched: null };
  document.addEventListener('click', (e) => { state.clickAt = e.timeStamp; }, true);
  document.addEventListener('keydown', (e) => { state.keyAt = e.timeStamp; }, true);
  // Resolves once ready() holds (checked on every DOM change) and a frame has been painted after.
  const painted = (ready, timeoutMs) => new Promise((resolve) => {
    let done = false;
    const finish = (value) => { done = true; observer.disconnect(); clearTimeout(timer); resolve(value); };
    const check = () => {
      if (done || !ready()) return;
      const inDomAt = performance.now();
      observer.disconnect();
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => { channel.port1.close(); finish({ ok: true, inDomAt, paintedAt: performance.now() }); };
        channel.port2.postMessage(0);
      });
      done = true;
    };
    const observer = new MutationObserver(check);
    observer.observe(document.documentElement, { childList: true, subtree: true, attributes: true });
    const timer = setTimeout(() => { if (!done) finish({ ok: false }); }, timeoutMs);
    check();
  });
  window.__benchRecord = {
    // Each watch starts before the click or key it times (armRecord, armResults): what the click's
    // own task draws is then timed to the frame that paints it, not to a frame after the bench
    // looked.
    armRecord(id, timeoutMs) {
      state.clickAt = null;
      const page = '[data-testid="record-page"][data-record-id="' + id + '"]';
      state.watched = painted(() => document.querySelector(page + ' [data-testid="record-fields"]'), timeoutMs);
    },
    armResults(text, timeoutMs) {
      state.keyAt = null;
      state.watched = painted(() => document.querySelector('[data-testid="header-search-results"][data-settled="' + CSS.escape(text) + '"]'), timeoutMs);
    },
    async record(id, timeoutMs) {
      const page = '[data-testid="record-page"][data-record-id="' + id + '"]';
      const fields = await state.watched;
      // Complete: every related list has its answer (no "Loading…" left in any of them).
      const complete = await painted(() => {
        const sections = document.querySelectorAll(page + ' [data-related]');
        return [...sections].every((s) => !s.querySelector('[role="status"]'));
      }, timeoutMs);
      return { ...fields, completeAt: complete.ok ? complete.paintedAt : null, clickAt: state.clickAt };
    },
    async results() {
      const answer = await state.watched;
      return { ...answer, keyAt: state.keyAt };
    },
  };
})();`;

interface Painted {
  ok: boolean;
  inDomAt: number;
  paintedAt: number;
}

export interface RecordBench {
  /** Sandbox users. */
  users: number;
  opens: { id: string; ms: number; completeMs: number | null }[];
  firstOpen: { ms: number; completeMs: number | null } | null;
  keystrokes: { text: string; ms: number }[];
  open: Stats;
  complete: Stats;
  keystroke: Stats;
  loadAverage: { before: number[]; after: number[] };
}

interface Stats {
  count: number;
  median: number;
  p95: number;
  max: number;
}

function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    median: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted.length ? sorted[sorted.length - 1]! : Number.NaN,
  };
}

async function login(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/login`, { waitUntil: 'commit' });
  await loginForm(page).account.waitFor({ timeout: 15_000 });
  await submitLogin(page, 'admin');
  await page.waitForURL(/\/dashboard(?:[?#]|$)/, { timeout: 15_000 });
}

const settledRow = (page: Page, index: number) =>
  page.locator('[data-testid="list-table"]:not([aria-busy]) tbody tr').nth(index);

async function openRecords(
  page: Page,
  baseUrl: string,
  count: number,
): Promise<Pick<RecordBench, 'opens' | 'firstOpen'>> {
  const requests = trackRequests(page);
  await page.goto(`${baseUrl}${LIST_PATH}`, { waitUntil: 'commit' });
  await settledRow(page, 19).waitFor({ timeout: STEP_TIMEOUT_MS });
  const opens: RecordBench['opens'] = [];
  let firstOpen: RecordBench['firstOpen'] = null;
  for (let i = 0; i <= count; i++) {
    const row = settledRow(page, i % 20);
    const id = (await row.getAttribute('data-row-id'))!;
    // The list read before the next record is opened: its pictures are in.
    await requests.settled(STEP_TIMEOUT_MS);
    await page.evaluate(
      ([wanted, ms]) =>
        (window as unknown as { __benchRecord: { armRecord(id: string, ms: number): void } }).__benchRecord.armRecord(
          wanted,
          ms,
        ),
      [id, STEP_TIMEOUT_MS] as const,
    );
    await row.locator('[data-record-link]').click({ timeout: STEP_TIMEOUT_MS });
    const answer = await page.evaluate(
      ([wanted, ms]) =>
        (
          window as unknown as {
            __benchRecord: {
              record(id: string, ms: number): Promise<Painted & { completeAt: number | null; clickAt: number | null }>;
            };
          }
        ).__benchRecord.record(wanted, ms),
      [id, STEP_TIMEOUT_MS] as const,
    );
    if (!answer.ok || answer.clickAt === null)
      throw new Error(`record ${id}'s page was not drawn within ${STEP_TIMEOUT_MS} ms`);
    const figure = {
      ms: answer.paintedAt - answer.clickAt,
      completeMs: answer.completeAt === null ? null : answer.completeAt - answer.clickAt,
    };
    // The first open also loads what only a record's page uses (its views' code is in the screens' chunk already).
    if (i === 0) firstOpen = figure;
    else opens.push({ id, ...figure });
    await page.goBack();
    await settledRow(page, 19).waitFor({ timeout: STEP_TIMEOUT_MS });
  }
  return { opens, firstOpen };
}

async function typeSearches(page: Page, words: readonly string[]): Promise<RecordBench['keystrokes']> {
  const keystrokes: RecordBench['keystrokes'] = [];
  await page.keyboard.press('Control+k');
  const input = page.getByTestId('header-search-input');
  await input.waitFor({ timeout: STEP_TIMEOUT_MS });
  for (const word of words) {
    for (let k = 1; k <= word.length; k++) {
      const text = word.slice(0, k);
      await page.evaluate(
        ([wanted, ms]) =>
          (
            window as unknown as { __benchRecord: { armResults(t: string, ms: number): void } }
          ).__benchRecord.armResults(wanted, ms),
        [text, STEP_TIMEOUT_MS] as const,
      );
      await page.keyboard.type(word[k - 1]!);
      const answer = await page.evaluate(() =>
        (
          window as unknown as { __benchRecord: { results(): Promise<Painted & { keyAt: number | null }> } }
        ).__benchRecord.results(),
      );
      if (!answer.ok || answer.keyAt === null)
        throw new Error(`the search for "${text}" did not settle within ${STEP_TIMEOUT_MS} ms`);
      // One letter searches the pages only: instant, and not what the budget is about.
      if (recordKeyword(text) !== null) keystrokes.push({ text, ms: answer.paintedAt - answer.keyAt });
    }
    await input.fill('');
  }
  return keystrokes;
}

interface SizeRun {
  figures: RecordBench;
  open: Stats;
  keystroke: Stats;
}

/** One sandbox size: its sandbox and gateway children, one browser session opening records and typing searches. */
async function runSize(
  context: BenchContext,
  users: number | null,
  dataDir: string,
  notes: string[],
): Promise<SizeRun> {
  const cleanup = new Cleanup();
  const label = users === null ? 'default' : String(users);
  try {
    const { child: sandbox, ready: sandboxReady } = await Child.start(
      'sandbox backend',
      path.join(CHILDREN_DIR, 'sandbox.ts'),
      {
        env: { ...(users === null ? {} : { BENCH_SANDBOX_USERS: String(users) }), NODE_ENV: 'production' },
        logFile: logFile(context, `records-sandbox-${label}`),
        readyTimeoutMs: 120_000,
      },
    );
    cleanup.add(() => sandbox.stop());
    const { child: gateway, ready } = await Child.start(
      `gateway (${label} sandbox)`,
      path.join(CHILDREN_DIR, 'gateway.ts'),
      {
        env: {
          CHAT_BACKEND_URL: sandboxReady.url!,
          FILE_SERVER_URL: sandboxReady.url!,
          RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT,
          UI_DIR,
          DATA_DIR: path.join(dataDir, `data-${label}`),
          LOG_LEVEL: 'warn',
          NODE_ENV: 'production',
        },
        logFile: logFile(context, `records-gateway-${label}`),
      },
    );
    cleanup.add(() => gateway.stop());

    const profile = mkdtempSync(path.join(tmpdir(), 'bench-records-profile-'));
    cleanup.add(() => rmSync(profile, { recursive: true, force: true }));
    const browser = await launchChromium(profile);
    cleanup.add(() => browser.close());
    await browser.addInitScript({ content: PAGE_SCRIPT });
    const page = browser.pages()[0] ?? (await browser.newPage());
    const loadBefore = os.loadavg();
    await login(page, ready.url!);
    const { opens, firstOpen } = await openRecords(page, ready.url!, context.quick ? 5 : OPENS);
    const keystrokes = await typeSearches(page, context.quick ? WORDS.slice(0, 3) : WORDS);
    const loadAfter = os.loadavg();

    const count = users ?? DEFAULT_USERS;
    const open = stats(opens.map((o) => o.ms));
    const complete = stats(opens.flatMap((o) => (o.completeMs === null ? [] : [o.completeMs])));
    const keystroke = stats(keystrokes.map((k) => k.ms));
    const row = (name: string, s: Stats) => [name, s.count, fixed(s.median, 1), fixed(s.p95, 1), fixed(s.max, 1)];
    printTable(`records: ${count.toLocaleString('en')} sandbox users, headless Chromium`, [
      ['figure', 'count', 'median ms', 'p95 ms', 'max ms'],
      row("a record's page: click -> fields painted", open),
      row('... -> its related lists painted too', complete),
      row('header search: keystroke -> grouped results painted', keystroke),
    ]);
    const at = `${count.toLocaleString('en')} users`;
    if (firstOpen)
      notes.push(
        `${at}: first record opened in the session ${fixed(firstOpen.ms, 1)} ms (related lists ${fixed(firstOpen.completeMs, 1)} ms), not in the percentiles`,
      );
    notes.push(`${at}: keystrokes timed: ${keystrokes.map((k) => `${k.text} ${fixed(k.ms, 0)}`).join(', ')}`);
    notes.push(
      `${at}: load average before / after ${loadBefore.map((n) => n.toFixed(2)).join(' ')} / ${loadAfter.map((n) => n.toFixed(2)).join(' ')} on ${os.cpus().length} cores`,
    );
    if (loadBefore[0]! > os.cpus().length)
      notes.push(`${at}: the machine was busy: the figures include waiting for a core`);
    const figures: RecordBench = {
      users: count,
      opens,
      firstOpen,
      keystrokes,
      open,
      complete,
      keystroke,
      loadAverage: { before: loadBefore, after: loadAfter },
    };
    return { figures, open, keystroke };
  } finally {
    await cleanup.run();
  }
}

/** The records scenario (npm run bench -- --only records). */
export async function recordScenario(context: BenchContext): Promise<ScenarioResult> {
  const cleanup = new Cleanup();
  const notes: string[] = [];
  try {
    if (!existsSync(path.join(UI_DIR, 'index.html'))) throw new Error('dist/web is missing: run node build.mjs first');
    if (!existsSync(CHROMIUM_PATH)) {
      notes.push(`Chromium is NOT installed at ${CHROMIUM_PATH}: browser figures skipped`);
      const budgets = [
        {
          budget: "ui: a record's page opened from its row (p95)",
          measured: 'no chromium',
          limit: `<= ${RECORD_OPEN_BUDGET_MS} ms`,
          pass: null,
        },
        {
          budget: 'ui: header search, keystroke -> results (p95)',
          measured: 'no chromium',
          limit: `<= ${SEARCH_KEY_BUDGET_MS} ms`,
          pass: null,
        },
      ];
      return { scenario: 'records', notes, budgets, figures: {} };
    }
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-records-'));
    cleanup.add(() => rmSync(dataDir, { recursive: true, force: true }));
    const runs: SizeRun[] = [];
    for (const users of context.quick ? SIZES.slice(0, 1) : SIZES)
      runs.push(await runSize(context, users, dataDir, notes));

    const budgets: BudgetCheck[] = [];
    for (const [index, run] of runs.entries()) {
      const users = run.figures.users.toLocaleString('en');
      // The sandbox's own size holds the budgets; the large one is a figure.
      const budgeted = index === 0;
      budgets.push(
        {
          budget: `ui: a record's page opened from its row, click -> drawn (p95 of ${run.open.count}, ${users} users)`,
          measured: `${fixed(run.open.p95, 1)} ms (median ${fixed(run.open.median, 1)})`,
          limit: budgeted ? `<= ${RECORD_OPEN_BUDGET_MS} ms` : 'figure',
          pass: budgeted && run.open.count > 0 ? run.open.p95 <= RECORD_OPEN_BUDGET_MS : null,
        },
        {
          budget: `ui: header search, keystroke -> results drawn (p95 of ${run.keystroke.count}, ${users} users)`,
          measured: `${fixed(run.keystroke.p95, 1)} ms (median ${fixed(run.keystroke.median, 1)})`,
          limit: budgeted ? `<= ${SEARCH_KEY_BUDGET_MS} ms` : 'figure',
          pass: budgeted && run.keystroke.count > 0 ? run.keystroke.p95 <= SEARCH_KEY_BUDGET_MS : null,
        },
      );
    }
    for (const note of notes) console.log(`  note: ${note}`);
    printBudgets(budgets);
    return { scenario: 'records', notes, budgets, figures: { runs: runs.map((r) => r.figures) } };
  } finally {
    await cleanup.run();
  }
}
