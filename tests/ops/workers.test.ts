import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { SseClient } from '../support/sse-client.js';
import {
  HELD_SESSION,
  expectSecondSignalExitsAtOnce,
  gatewayProcess,
  startHeldRig,
  startSlowCall,
  type HeldRig,
} from './support/held-backend.js';
import { FAKE_PASSWORD, fakeAccount } from '../support/fake-session.js';
import { verifyFile } from '../../server/audit/verify.js';
import { cleanupAfterEach, freshCall, tempDir, type Answer, type NodeProcess } from '../support/processes.js';

/**
 * WORKERS=2: a real `node` running the shipped bundle dist/server/main.js (as the image does) as a
 * node:cluster primary with two workers on one port, against a fake backend. Which worker answered is read from the pino lines (each
 * carries its process id), so production answers carry no debug header.
 */

const defer = cleanupAfterEach();
/** Pids of the processes that logged `msg` (optionally only lines passing `filter`). */
function pidsLogging(
  gateway: NodeProcess,
  msg: string | RegExp,
  filter: (line: Record<string, unknown>) => boolean = () => true,
): Set<number> {
  const pids = new Set<number>();
  for (const line of gateway.logLines()) {
    const text = String(line.msg);
    if ((typeof msg === 'string' ? text === msg : msg.test(text)) && filter(line)) pids.add(Number(line.pid));
  }
  return pids;
}

const listeningPids = (gateway: NodeProcess) => pidsLogging(gateway, /^Server listening at /);

async function startRig(): Promise<HeldRig> {
  // Three processes start on what may be a busy machine: be patient.
  const rig = await startHeldRig(defer, { WORKERS: '2', METRICS_TOKEN }, 90_000);
  await rig.gateway.waitFor(() => listeningPids(rig.gateway).size === 2, 'both workers to listen', 90_000);
  return rig;
}

function postError(rig: HeldRig, message: string): Promise<Answer> {
  return freshCall(rig.baseUrl, '/api/error-log', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: rig.baseUrl },
    body: JSON.stringify({ message, url: '/ops/workers' }),
  });
}

/** /metrics is off unless asked for: these workers serve it behind a token. */
const METRICS_TOKEN = 'workers-test-metrics-token';

/** A counter's value in Prometheus text, by its full series name with labels. */
function seriesValue(metrics: string, series: string): number | null {
  const line = metrics.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? null : Number(line.slice(series.length + 1));
}

describe('WORKERS=2', { timeout: 240_000 }, () => {
  it('answers from both workers, with one error log, summed metrics and one configuration line', async () => {
    const rig = await startRig();
    const { gateway } = rig;
    expect(gateway.logLines().filter((l) => l.msg === 'effective configuration')).toHaveLength(1);
    const primaryPid = gateway.pid;
    expect(listeningPids(gateway).has(primaryPid)).toBe(false);

    // Requests on fresh connections are spread over the workers.
    const SESSION_CALLS = 20;
    for (let i = 0; i < SESSION_CALLS; i++) {
      const answer = await freshCall(rig.baseUrl, '/api/session');
      expect(answer.status).toBe(200);
    }
    const answeredBy = () => pidsLogging(gateway, 'request completed', (l) => l.url === '/api/session');
    await gateway.waitFor(() => answeredBy().size === 2, 'request lines from both workers');
    expect([...answeredBy()].sort()).toEqual([...listeningPids(gateway)].sort());

    // Every post lands once in the one log the primary owns, whichever worker took it.
    const POSTS = 12;
    const ids: string[] = [];
    for (let i = 0; i < POSTS; i++) {
      const answer = await postError(rig, `workers-test-${i}`);
      expect(answer.status, answer.body).toBe(200);
      ids.push((JSON.parse(answer.body) as { data: { id: string } }).data.id);
    }
    expect(new Set(ids).size).toBe(POSTS);
    await gateway.waitFor(
      () => pidsLogging(gateway, 'request completed', (l) => l.url === '/api/error-log').size === 2,
      'error-log posts on both workers',
    );
    for (let i = 0; i < 4; i++) {
      const listed = await freshCall(rig.baseUrl, '/api/error-log?pageNum=1&pageSize=100', {
        headers: { cookie: rig.cookie },
      });
      expect(listed.status, listed.body).toBe(200);
      const page = JSON.parse(listed.body) as { data: { total: number; list: Array<{ id: string; message: string }> } };
      expect(page.data.total).toBe(POSTS);
      expect(page.data.list.map((e) => e.id).sort()).toEqual([...ids].sort());
      expect(page.data.list.map((e) => e.message).sort()).toEqual(
        Array.from({ length: POSTS }, (_, n) => `workers-test-${n}`).sort(),
      );
    }
    // Posted without a session: the anonymous lane's file holds them.
    const fileLines = readFileSync(path.join(rig.dataDir, 'error-log-anonymous.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean);
    expect(fileLines).toHaveLength(POSTS);

    // One audit chain for both workers, kept by the primary: every login, whichever worker took it.
    const LOGINS = 8;
    for (let i = 0; i < LOGINS; i++) {
      const login = await freshCall(rig.baseUrl, '/manage/logIn', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: rig.baseUrl },
        body: JSON.stringify({ account: fakeAccount(HELD_SESSION), password: FAKE_PASSWORD, code: '' }),
      });
      expect(login.status, login.body).toBe(200);
    }
    await gateway.waitFor(
      () => pidsLogging(gateway, 'request completed', (l) => l.url === '/manage/logIn').size === 2,
      'logins on both workers',
    );
    expect(await verifyFile(rig.dataDir)).toMatchObject({ intact: true, entries: LOGINS + 1 });

    // Whichever worker answers /metrics, it shows the whole gateway, under the usual names.
    for (let i = 0; i < 4; i++) {
      const answer = await freshCall(rig.baseUrl, '/metrics', {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(answer.status).toBe(200);
      expect(
        seriesValue(answer.body, 'gateway_http_requests_total{route="/api/session",method="GET",status="200"}'),
      ).toBe(SESSION_CALLS);
      expect(
        seriesValue(answer.body, 'gateway_http_requests_total{route="/api/error-log",method="POST",status="200"}'),
      ).toBe(POSTS);
      expect(seriesValue(answer.body, 'gateway_error_log_entries_total')).toBe(POSTS);
      expect(answer.body).toContain('gateway_process_resident_memory_bytes');
    }
  });

  it('restarts a worker that dies unexpectedly', async () => {
    const rig = await startRig();
    const { gateway } = rig;
    const [victim, survivor] = [...listeningPids(gateway)];
    process.kill(victim!, 'SIGKILL');
    await gateway.waitFor(
      () =>
        gateway.logLines().some((l) => l.msg === 'worker exited unexpectedly; restarting it' && l.workerPid === victim),
      'the primary to notice the dead worker',
    );
    await gateway.waitFor(() => listeningPids(gateway).size === 3, 'a replacement worker to listen', 90_000);
    const now = listeningPids(gateway);
    expect(now.has(survivor!)).toBe(true);
    for (let i = 0; i < 6; i++) expect((await freshCall(rig.baseUrl, '/api/session')).status).toBe(200);
    expect(gateway.exit).toBeNull();
  });

  it('on SIGTERM every worker finishes its in-flight call and ends its streams, then the primary exits 0', async () => {
    const rig = await startRig();
    const stream = await SseClient.open(rig.port, rig.cookie, { timeoutMs: 30_000 });
    expect(stream.status).toBe(200);
    await stream.waitFor(() => stream.body.includes('event: withdrawal-count'), 'the first count event');

    const slow = await startSlowCall(rig, rig.baseUrl, rig.cookie);
    rig.gateway.signal('SIGTERM');

    await stream.waitFor(() => stream.ended, 'the event stream to end');
    expect(stream.body).toMatch(/retry: \d+\n\n$/);
    expect(rig.slowAnswered()).toBe(false);
    expect(rig.gateway.exit).toBeNull();

    rig.release();
    const answer = await slow.answer;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ code: 200, msg: 'ok', data: { slow: true } });

    const exit = await rig.gateway.exited;
    expect(exit, rig.gateway.output()).toEqual({ code: 0, signal: null });
    expect(pidsLogging(rig.gateway, 'worker shut down cleanly')).toEqual(listeningPids(rig.gateway));
    expect(pidsLogging(rig.gateway, 'shut down cleanly')).toEqual(new Set([rig.gateway.pid]));
  });

  it('on a second SIGTERM exits at once, without waiting for the in-flight call', async () => {
    const rig = await startRig();
    const slow = await startSlowCall(rig, rig.baseUrl, rig.cookie);

    await expectSecondSignalExitsAtOnce(rig, slow);
  });
});

describe('WORKERS in the configuration', () => {
  it('defaults to one process, takes a count, and auto means one per core', () => {
    const base = { CHAT_BACKEND_URL: 'http://127.0.0.1:9' };
    expect(loadConfig(base).workers).toBe(1);
    expect(loadConfig({ ...base, WORKERS: ' 3 ' }).workers).toBe(3);
    expect(loadConfig({ ...base, WORKERS: 'AUTO' }).workers).toBe(Math.min(64, availableParallelism()));
    expect(() => loadConfig({ ...base, WORKERS: '-1' })).toThrow(/^WORKERS: /);
  });
});

describe('a bad WORKERS value', { timeout: 60_000 }, () => {
  it.each(['many', '0', '65', '1.5'])(
    '"%s" stops the process with one line naming WORKERS and exit code 78',
    async (value) => {
      const gateway = gatewayProcess({
        WORKERS: value,
        CHAT_BACKEND_URL: 'http://127.0.0.1:9',
        DATA_DIR: tempDir('ops-workers-bad-'),
      });
      defer(() => gateway.stop());
      const exit = await gateway.exited;
      expect(exit, gateway.output()).toEqual({ code: 78, signal: null });
      const lines = gateway.stderr.split('\n').filter((line) => line.trim() !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('WORKERS');
      expect(gateway.stdout).toBe('');
    },
  );
});
