import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { CALLS, GATEWAY_PATHS, TOKEN_HEADER, USER_ID_HEADER } from '../../server/contract/index.js';
import { SANDBOX_AES_KEY_TEXT } from '../../sandbox/key.js';
import { BackendClient } from '../../sandbox/client.js';
import { startSandbox } from '../../sandbox/start.js';
import { multipartFrame } from '../../server/uploads/multipart.js';
import { logIn } from '../support/login.js';
import type { BenchContext } from './lib/context.js';
import { fixed, mib, printBudgets, printTable, type BudgetCheck, type ScenarioResult } from './lib/report.js';

/**
 * An app package uploaded through the gateway to the sandbox's file server, against the same body
 * sent to the sandbox directly: the throughput the gateway's checks and streaming leave, and how
 * far the process's memory rises while a package passes (it must stay far below the package's
 * size: nothing holds the whole file). Both ends run in this process, so the memory figure covers
 * the gateway and the sandbox together.
 */

const CHUNK = 64 * 1024;

/** A package of `size` bytes, made chunk by chunk as it is read: a ZIP header, then filler. */
function packageBody(size: number): Readable {
  const first = Buffer.alloc(CHUNK, 7);
  first.write('PK\x03\x04', 0, 'latin1');
  const rest = Buffer.alloc(CHUNK, 7);
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return void this.push(null);
      const chunk = (sent === 0 ? first : rest).subarray(0, Math.min(CHUNK, size - sent));
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

/** The peak rise of RSS over `baseline` while `run` runs, sampled every 20 ms. */
async function peakRise<T>(run: () => Promise<T>): Promise<{ result: T; rise: number }> {
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    const result = await run();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, rise: peak - baseline };
  } finally {
    clearInterval(timer);
  }
}

export async function uploadScenario(context: BenchContext): Promise<ScenarioResult> {
  const size = (context.quick ? 24 : 120) * 1024 * 1024;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bench-upload-'));
  const sandbox = await startSandbox({ withdrawalTickMs: 0, dataDir: path.join(dataDir, 'sandbox') });
  const config = loadConfig({
    CHAT_BACKEND_URL: sandbox.url,
    RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    UPLOAD_PACKAGE_MAX_BYTES: String(1024 * 1024 * 1024),
    // The bench measures the streaming, not the daily quota: its runs may pass the default 1 GiB.
    UPLOAD_DAILY_MAX_BYTES: String(64 * 1024 * 1024 * 1024),
    REQUEST_TIMEOUT_MS: '600000',
    UPSTREAM_TIMEOUT_MS: '600000',
  });
  const app = await buildApp({ config, logger: false });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const cookie = await logIn(url);
    // Another account: the sandbox keeps one session per account, and the gateway's is admin's.
    const backend = await new BackendClient(sandbox.url).login('operator', 'operator123');

    const direct = async () => {
      const frame = multipartFrame(
        [
          ['kind', 'package'],
          ['name', 'bench.apk'],
        ],
        { part: 'file', name: 'bench.apk', contentType: 'application/vnd.android.package-archive' },
      );
      const body = Readable.from(
        (async function* () {
          yield frame.head;
          yield* packageBody(size);
          yield frame.tail;
        })(),
      );
      const res = await request(`${sandbox.url}${CALLS.upload}`, {
        method: 'POST',
        headers: {
          'content-type': frame.contentType,
          'content-length': String(frame.head.length + size + frame.tail.length),
          [TOKEN_HEADER]: backend.token,
          [USER_ID_HEADER]: backend.userId,
        },
        body,
      });
      const answer = (await res.body.json()) as { code: number };
      if (answer.code !== 200) throw new Error(`the sandbox refused the direct upload: ${JSON.stringify(answer)}`);
    };
    const throughGateway = async () => {
      const res = await request(`${url}${GATEWAY_PATHS.upload}?kind=package&name=bench.apk`, {
        method: 'POST',
        headers: { cookie, origin: url, 'content-type': 'application/octet-stream', 'content-length': String(size) },
        body: packageBody(size),
      });
      const answer = (await res.body.json()) as { code: number; data?: { size: number } };
      if (answer.code !== 200 || answer.data?.size !== size)
        throw new Error(`the gateway refused the upload: ${JSON.stringify(answer)}`);
    };
    const timed = async (run: () => Promise<void>) => {
      const start = performance.now();
      const { rise } = await peakRise(run);
      const seconds = (performance.now() - start) / 1000;
      return { mbPerSecond: size / 1024 / 1024 / seconds, rise };
    };

    // One of each first (connections, code paths), then alternating pairs; the medians count.
    await direct();
    await throughGateway();
    const runs = context.quick ? 1 : 3;
    const directRuns: { mbPerSecond: number; rise: number }[] = [];
    const gatewayRuns: { mbPerSecond: number; rise: number }[] = [];
    for (let i = 0; i < runs; i++) {
      directRuns.push(await timed(direct));
      gatewayRuns.push(await timed(throughGateway));
    }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
    const directRate = median(directRuns.map((r) => r.mbPerSecond));
    const gatewayRate = median(gatewayRuns.map((r) => r.mbPerSecond));
    const worstRise = Math.max(...gatewayRuns.map((r) => r.rise));
    printTable(`a ${mib(size)} package, ${runs} run(s) each`, [
      ['path', 'MiB/s (median)', 'peak RSS rise (worst)'],
      ['straight to the sandbox', fixed(directRate), mib(Math.max(...directRuns.map((r) => r.rise)))],
      ['through the gateway', fixed(gatewayRate), mib(worstRise)],
    ]);
    const ratio = gatewayRate / directRate;
    const budgets: BudgetCheck[] = [
      {
        budget: 'upload: memory while a package streams through',
        measured: `${mib(worstRise)} for ${mib(size)}`,
        limit: '< 1/4 of the package',
        pass: worstRise < size / 4,
      },
      {
        budget: 'upload: throughput through the gateway vs straight to the backend',
        measured: fixed(ratio, 2),
        limit: '>= 0.5',
        pass: ratio >= 0.5,
      },
    ];
    printBudgets(budgets);
    return {
      scenario: 'upload',
      notes: ['gateway and sandbox in one process: the memory figure covers both'],
      budgets,
      figures: {
        sizeBytes: size,
        directMiBps: directRate,
        gatewayMiBps: gatewayRate,
        ratio,
        worstRiseBytes: worstRise,
        runs,
      },
    };
  } finally {
    await app.close();
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
