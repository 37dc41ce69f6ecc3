/**
 * `npm run profile:list`: where the users list's time goes in the browser. Builds the UI unminified
 * (NO_MINIFY=1, so function names survive), starts a sandbox of 100,000 users and the gateway in
 * child processes, and records a Chromium CPU profile over next-page and sort clicks on the
 * 100-row users list. Prints the functions with the most self time and the inclusive time of the
 * render phases, and writes the raw profile (open it in Chromium's DevTools Performance panel).
 *
 * With `--switch` the changes are screen switches instead: clicks in the menu between the users
 * and the groups lists, each to the other screen's rows painted. With `--sort`, sort clicks only.
 *
 * With `--trace` it records a Chromium performance trace (devtools.timeline) instead and prints the
 * renderer main thread's time per event kind (script, style, layout, paint, ...): where script is
 * not the cost, this says what is.
 *
 * A profile, not a figure against a budget: `npm run bench` measures the budgets.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SANDBOX_AES_KEY_TEXT } from '../../sandbox/key.js';
import { launchChromium } from '../support/chromium.js';
import { Child } from '../support/child.js';
import { loginForm, submitLogin } from '../support/login.js';
import { CHILDREN_DIR, REPO_ROOT } from '../support/paths.js';
import { PAGE_SCRIPT, arm, armScreen, waitForList, waitForScreen } from './lib/list-recorder.js';
import { trackRequests } from './lib/settle.js';
import { LIST_CALL, LIST_PAGE_SIZE, LIST_PATH, LIST_USERS, OTHER_LIST_PATH } from './ui-list.js';

/** The parts of a CDP Profiler.Profile read here. */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
/** A Chromium trace event, as the Tracing domain reports it. */
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  args?: { name?: string };
}

interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

const NEXT_CLICKS = 12;
const SORT_FIELDS = ['balance', 'balance', 'lastLoginTime', 'id'];

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url ? (url.split('/').pop() ?? url) : '';
  return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
}

/** Self and inclusive milliseconds per function, from the profile's samples and time deltas. */
export function summarise(profile: Profile): {
  self: Map<string, number>;
  total: Map<string, number>;
  sampledMs: number;
} {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let sampledMs = 0;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const ms = (deltas[i + 1] ?? 0) / 1000;
    const leaf = byId.get(samples[i]!);
    if (!leaf) continue;
    const leafName = frameName(leaf);
    if (leaf.callFrame.functionName === '(idle)' || leaf.callFrame.functionName === '(program)') continue;
    sampledMs += ms;
    self.set(leafName, (self.get(leafName) ?? 0) + ms);
    // Inclusive: once per function on the stack, however deep it recurses.
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const name = frameName(byId.get(id)!);
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + ms);
    }
  }
  return { self, total, sampledMs };
}

function top(map: Map<string, number>, count: number, filter: (name: string) => boolean = () => true): string[] {
  return [...map.entries()]
    .filter(([name]) => filter(name))
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => `${ms.toFixed(1).padStart(9)} ms  ${name}`);
}

/**
 * Time per event kind on the renderer's main thread: complete events only, nested ones counted in
 * their own right (a Layout inside a script's FunctionCall shows under both), so the kinds overlap
 * and are read side by side, not summed.
 */
export function traceByKind(events: readonly TraceEvent[]): Array<{ name: string; ms: number; count: number }> {
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const byName = new Map<string, { ms: number; count: number }>();
  for (const e of events) {
    if (e.ph !== 'X' || !main || e.pid !== main.pid || e.tid !== main.tid) continue;
    const entry = byName.get(e.name) ?? { ms: 0, count: 0 };
    entry.ms += (e.dur ?? 0) / 1000;
    entry.count += 1;
    byName.set(e.name, entry);
  }
  return [...byName.entries()].map(([name, v]) => ({ name, ...v })).sort((a, b) => b.ms - a.ms);
}

const TRACE = process.argv.includes('--trace');
const SWITCH = process.argv.includes('--switch');
const SORTS_ONLY = process.argv.includes('--sort');
const SWITCHES = 16;
/** The two list screens switched between, each with the resource its screen shows. */
const SCREENS = [
  { path: OTHER_LIST_PATH, resource: 'groups' },
  { path: LIST_PATH, resource: 'users' },
] as const;

async function main(): Promise<void> {
  const build = spawnSync(process.execPath, [path.join(REPO_ROOT, 'build.mjs')], {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_MINIFY: '1' },
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the unminified build failed');
  const work = mkdtempSync(path.join(tmpdir(), 'profile-list-'));
  const { child: sandbox, ready: sandboxReady } = await Child.start(
    'sandbox backend',
    path.join(CHILDREN_DIR, 'sandbox.ts'),
    {
      env: { BENCH_SANDBOX_USERS: String(LIST_USERS), NODE_ENV: 'production' },
      logFile: path.join(work, 'sandbox.log'),
      readyTimeoutMs: 120_000,
    },
  );
  const { child: gateway, ready } = await Child.start('gateway', path.join(CHILDREN_DIR, 'gateway.ts'), {
    env: {
      CHAT_BACKEND_URL: sandboxReady.url!,
      FILE_SERVER_URL: sandboxReady.url!,
      RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT,
      UI_DIR: path.join(REPO_ROOT, 'dist', 'web'),
      DATA_DIR: path.join(work, 'data'),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    },
    logFile: path.join(work, 'gateway.log'),
  });
  const browser = await launchChromium(path.join(work, 'profile'));
  try {
    await browser.addInitScript({ content: PAGE_SCRIPT });
    const page = browser.pages()[0] ?? (await browser.newPage());
    const requests = trackRequests(page);
    const baseUrl = ready.url!;
    await page.goto(`${baseUrl}/login`, { waitUntil: 'commit' });
    await loginForm(page).account.waitFor({ timeout: 15_000 });
    await submitLogin(page, 'admin');
    await page.waitForURL(/\/dashboard(?:[?#]|$)/, { timeout: 15_000 });
    await page.goto(`${baseUrl}${LIST_PATH}?pageSize=${LIST_PAGE_SIZE}`, { waitUntil: 'commit' });
    await waitForList(page);

    const cdp = await browser.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    const drawn: Array<{ action: string; ms: number; clickMs: number | null }> = [];
    const next = page.locator('[data-testid="list-screen"] [data-page-step="next"]');
    const table = page.locator('[data-testid="list-table"]');
    const steps = SWITCH
      ? Array.from({ length: SWITCHES }, (_, i) => `switch:${i % 2}`)
      : SORTS_ONLY
        ? Array.from({ length: 4 }, () => SORT_FIELDS).flat()
        : [...Array.from({ length: NEXT_CLICKS }, () => 'next'), ...SORT_FIELDS];
    if (SWITCH) {
      // Each screen visited once first: the switches profiled are those to a screen seen before.
      for (const screen of SCREENS) {
        await armScreen(page, screen.resource);
        await page.locator(`aside a[href="${screen.path}"]`).first().click();
        await waitForScreen(page, screen.resource);
      }
    }
    const traced: TraceEvent[] = [];
    const traceDone = new Promise<void>((resolve) => {
      cdp.on('Tracing.dataCollected', (data) => void traced.push(...(data.value as unknown as TraceEvent[])));
      cdp.on('Tracing.tracingComplete', () => resolve());
    });
    if (TRACE)
      await cdp.send('Tracing.start', {
        categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing',
        transferMode: 'ReportEvents',
      });
    else await cdp.send('Profiler.start');
    for (const step of steps) {
      if (step.startsWith('switch:')) {
        const screen = SCREENS[Number(step.slice('switch:'.length))]!;
        await armScreen(page, screen.resource);
        await page.locator(`aside a[href="${screen.path}"]`).first().click();
        const ms = await waitForScreen(page, screen.resource);
        drawn.push({ action: `to ${screen.resource}`, ms, clickMs: ms });
        continue;
      }
      // As the bench does: the control brought into view and the page left to settle first, so
      // what is profiled is the change, not the last page's pictures still arriving.
      const target = step === 'next' ? next : table.locator(`thead button[data-sort="${step}"]`);
      await target.scrollIntoViewIfNeeded();
      await requests.settled(15_000);
      await arm(page);
      const response = page.waitForResponse((r) => r.url().includes(LIST_CALL));
      await target.click();
      await response;
      const answer = await waitForList(page);
      const arrived = answer.timing ? answer.timing.responseEnd : answer.record.parsedAt;
      drawn.push({
        action: step,
        ms: answer.paintedAt - arrived,
        clickMs: answer.clickAt === null ? null : answer.paintedAt - answer.clickAt,
      });
    }
    const drawnLines = drawn
      .map((d) =>
        SWITCH
          ? `  ${d.action.padEnd(14)} click->rows painted ${d.ms.toFixed(1).padStart(6)} ms`
          : `  ${d.action.padEnd(14)} drawn ${d.ms.toFixed(1).padStart(6)} ms  click->painted ${d.clickMs?.toFixed(1) ?? '-'} ms`,
      )
      .join('\n');
    if (TRACE) {
      await cdp.send('Tracing.end');
      await traceDone;
      const file = path.join(REPO_ROOT, 'profile-list.trace.json');
      writeFileSync(file, JSON.stringify({ traceEvents: traced }));
      console.log(`\n${steps.length} changes\n${drawnLines}`);
      console.log('\nRenderer main thread, time per event kind (nested kinds overlap), top 25:');
      for (const { name, ms, count } of traceByKind(traced).slice(0, 25))
        console.log(`${ms.toFixed(1).padStart(9)} ms  ${String(count).padStart(5)}x  ${name}`);
      console.log(`\nThe raw trace (open in Chromium's DevTools Performance panel): ${file}`);
      return;
    }
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
    const file = path.join(REPO_ROOT, 'profile-list.cpuprofile');
    writeFileSync(file, JSON.stringify(profile));

    const { self, total, sampledMs } = summarise(profile);
    console.log(`\n${steps.length} changes; busy main-thread time sampled: ${sampledMs.toFixed(0)} ms`);
    console.log(drawnLines);
    console.log('\nSelf time, top 40:');
    console.log(top(self, 40).join('\n'));
    console.log('\nInclusive time of our code (web/), top 60:');
    console.log(top(total, 60, (name) => /\.js:\d+$/.test(name)).join('\n'));
    console.log(`\nThe raw profile: ${file}`);
  } finally {
    await browser.close();
    await gateway.stop();
    await sandbox.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
