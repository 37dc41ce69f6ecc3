/**
 * `npm run soak`: mixed console traffic against the shipped gateway bundle (dist/server/main.js;
 * run `node build.mjs` first) while its backend is killed and
 * restarted twice and made slow once (issue 7, item 3). Bounded to about three minutes; exits 1
 * when a rule breaks:
 *   - the gateway never exits;
 *   - every failed call answers 502 or 504 JSON with {code, msg, error}, and none is dropped;
 *   - gateway memory after the run (RSS and heap after a forced GC) is within 20% of after warm-up;
 *   - its open file descriptors return to where they were after warm-up (upstream keep-alive
 *     sockets, which the pool keeps by design, are counted apart and must stay within the pool).
 */
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SANDBOX_AES_KEY_TEXT } from '../../sandbox/key.js';
import { Child } from '../support/child.js';
import { REPO_ROOT } from '../support/paths.js';
import { builtGatewayArgs } from '../ops/support/built-gateway.js';
import { countFds, type FdCounts } from '../bench/lib/proc.js';
import { freePort } from '../support/ports.js';
import { pollUntil, sleep } from '../support/wait.js';
import { mib } from '../bench/lib/report.js';
import { Traffic } from './traffic.js';

const UPSTREAM_TIMEOUT_MS = 1_500;
const SLOW_MS = 2_500;
/** Memory may grow this much between warm-up and the end (issue 7). */
const MEMORY_SLACK = 0.2;
/** Descriptors the end may hold above the start: a keep-alive socket still closing, a timer fd. */
const FD_SLACK = 3;
/** The gateway's upstream pool size (server/lib/upstream.ts). */
const UPSTREAM_POOL = 128;
const HARD_LIMIT_MS = 240_000;

const workDir = mkdtempSync(path.join(tmpdir(), 'soak-'));
const logDir = path.join(REPO_ROOT, 'tests', 'bench', 'results', 'logs');
mkdirSync(logDir, { recursive: true });
const startedAt = Date.now();
let phase = 'start';
const broken: string[] = [];
const log = (text: string) => console.log(`[${((Date.now() - startedAt) / 1000).toFixed(1).padStart(6)} s] ${text}`);

const hardStop = setTimeout(() => {
  console.error(`soak: still running after ${HARD_LIMIT_MS / 1000} s; giving up`);
  process.exit(2);
}, HARD_LIMIT_MS);
hardStop.unref();

const backendPort = await freePort();
let backend = null as Child | null;
async function startBackend(): Promise<void> {
  const started = await Child.start('sandbox backend', path.join(REPO_ROOT, 'tests', 'soak', 'sandbox-child.ts'), {
    env: { PORT: String(backendPort) },
    logFile: path.join(logDir, 'soak-backend.log'),
  });
  backend = started.child;
}

await startBackend();
// The shipped bundle (dist/server/main.js, as the image runs it), with a probe loaded first that
// answers for its memory; `node build.mjs` must have run (a stale bundle is refused).
const gatewayPort = await freePort();
const [bundle] = builtGatewayArgs();
const { child: gateway, ready } = await Child.start('gateway', bundle!, {
  plainNode: true,
  env: {
    CHAT_BACKEND_URL: `http://127.0.0.1:${backendPort}`,
    RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT,
    UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
    WITHDRAWAL_POLL_MS: '1000',
    DATA_DIR: path.join(workDir, 'data'),
    UI_DIR: workDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(gatewayPort),
    // The traffic is one address, one account and a few sessions: the caps that keep one client
    // of a real console from starving the others would be what it measured.
    MAX_CONNECTIONS_PER_IP: '1000000',
    EVENTS_MAX_PER_ACCOUNT: '1000000',
    EVENTS_MAX_TOTAL: '1000000',
    MAX_INFLIGHT_PER_SESSION: '100000',
  },
  nodeArgs: ['--expose-gc', '--import', path.join(REPO_ROOT, 'tests', 'soak', 'gateway-probe.mjs')],
  logFile: path.join(logDir, 'soak-gateway.log'),
});
let gatewayExit: string | null = null;
let stoppingGateway = false;
void gateway.exited.then(({ code, signal }) => {
  if (!stoppingGateway) gatewayExit = `gateway exited (${code ?? signal}) during ${phase}`;
});

const traffic = new Traffic(ready.url!, () => phase);

interface Snapshot {
  rss: number;
  heapUsed: number;
  fds: FdCounts;
}

const upstreamFds = (fds: FdCounts) => fds.byRemotePort.get(backendPort) ?? 0;
/** Descriptors that must come back: everything but the upstream pool's keep-alive sockets. */
const restFds = (fds: FdCounts) => fds.total - upstreamFds(fds);

async function measure(): Promise<Snapshot> {
  const memory = await gateway.request<{ rss: number; heapUsed: number }>({ type: 'gc' });
  return { rss: memory.rss, heapUsed: memory.heapUsed, fds: countFds(gateway.pid) };
}

async function during(name: string, ms: number): Promise<void> {
  phase = name;
  log(`${name} (${ms / 1000} s)`);
  traffic.start();
  await sleep(ms);
}

async function killBackend(): Promise<void> {
  log('backend: SIGKILL');
  await backend!.stop('SIGKILL');
}

try {
  await during('warm-up', 15_000);
  phase = 'at rest after warm-up';
  await traffic.stop();
  await sleep(1_500);
  const start = await measure();
  log(
    `after warm-up: RSS ${mib(start.rss)}, heap ${mib(start.heapUsed)}, fds ${start.fds.total} (${upstreamFds(start.fds)} upstream)`,
  );

  await during('normal', 15_000);
  await killBackend();
  await during('backend down (1)', 8_000);
  await startBackend();
  log('backend: restarted');
  await during('after restart (1)', 15_000);
  log(`backend: slow, ${SLOW_MS} ms per answer against UPSTREAM_TIMEOUT_MS=${UPSTREAM_TIMEOUT_MS}`);
  await backend!.request({ type: 'slow', ms: SLOW_MS });
  await during('backend slow', 12_000);
  await backend!.request({ type: 'fast' });
  log('backend: fast again');
  await during('after slow', 12_000);
  await killBackend();
  await during('backend down (2)', 8_000);
  await startBackend();
  log('backend: restarted');
  await during('after restart (2)', 20_000);

  phase = 'at rest after the run';
  await traffic.stop();
  log('traffic stopped; waiting for client sockets and event streams to close');
  const fdsBack = await pollUntil(() => restFds(countFds(gateway.pid)) <= restFds(start.fds) + FD_SLACK, {
    timeoutMs: 15_000,
    intervalMs: 250,
  });
  const end = await measure();

  const { counts, violations } = traffic;
  console.log('\nsoak figures');
  console.log(
    `  requests ${counts.requests}, logins ${counts.logins}, event streams ${counts.streamsOpened} (${counts.streamEvents} events)`,
  );
  console.log(`  by status: ${JSON.stringify(counts.byStatus)}`);
  console.log(`  gateway errors: ${JSON.stringify(counts.byError)}`);
  console.log(
    `  memory after warm-up: RSS ${mib(start.rss)}, heap ${mib(start.heapUsed)}; after the run: RSS ${mib(end.rss)}, heap ${mib(end.heapUsed)}`,
  );
  console.log(
    `  fds after warm-up: ${start.fds.total} (${upstreamFds(start.fds)} upstream); after the run: ${end.fds.total} (${upstreamFds(end.fds)} upstream)`,
  );

  for (const v of violations.slice(0, 20)) broken.push(`[${v.at}] ${v.what}`);
  if (violations.length > 20) broken.push(`... and ${violations.length - 20} more violations`);
  // The faults must have been seen, or the run proved nothing about them.
  if (!counts.byError.UPSTREAM_UNREACHABLE)
    broken.push('no 502 UPSTREAM_UNREACHABLE was seen while the backend was down');
  if (!counts.byError.UPSTREAM_TIMEOUT) broken.push('no 504 UPSTREAM_TIMEOUT was seen while the backend was slow');
  if (end.rss > start.rss * (1 + MEMORY_SLACK))
    broken.push(`RSS grew from ${mib(start.rss)} to ${mib(end.rss)} (> ${MEMORY_SLACK * 100}%)`);
  if (end.heapUsed > start.heapUsed * (1 + MEMORY_SLACK))
    broken.push(`heap grew from ${mib(start.heapUsed)} to ${mib(end.heapUsed)} (> ${MEMORY_SLACK * 100}%)`);
  if (!fdsBack)
    broken.push(
      `open descriptors (upstream sockets aside) went from ${restFds(start.fds)} to ${restFds(end.fds)} and did not come back within 15 s`,
    );
  if (upstreamFds(end.fds) > UPSTREAM_POOL)
    broken.push(`more upstream sockets than the pool allows: ${upstreamFds(end.fds)}`);
} catch (error) {
  broken.push(`the soak itself failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  await traffic.stop().catch(() => undefined);
  if (gatewayExit) broken.push(gatewayExit);
  phase = 'shutdown';
  stoppingGateway = true;
  if (gateway.alive) await gateway.stop('SIGTERM', 10_000);
  if (backend?.alive) await backend.stop('SIGTERM');
  rmSync(workDir, { recursive: true, force: true });
}

if (broken.length > 0) {
  console.error(`\nsoak: FAILED (${((Date.now() - startedAt) / 1000).toFixed(0)} s)`);
  for (const line of broken) console.error(`  - ${line}`);
  console.error(`  logs: ${path.relative(process.cwd(), logDir)}/soak-*.log`);
  process.exit(1);
}
console.log(`\nsoak: PASSED (${((Date.now() - startedAt) / 1000).toFixed(0)} s)`);
process.exit(0);
