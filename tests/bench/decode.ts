import { createDecipheriv } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Pool } from 'undici';
import { decodeBody, encodeBody, type CodecKey, type EncodedMode } from '../../server/codec/index.js';
import { BENCH_KEY_ENV, benchKey, makeJsonBody } from './lib/bodies.js';
import { Child } from '../support/child.js';
import { CHILDREN_DIR } from '../support/paths.js';
import { Cleanup, logFile, type BenchContext } from './lib/context.js';
import { fixed, mib, printBudgets, printTable, type BudgetCheck, type ScenarioResult } from './lib/report.js';
import { benchLogIn } from './lib/session.js';

const SIZES = [1024, 64 * 1024, 1024 * 1024, 16 * 1024 * 1024];
const BIG = 50 * 1024 * 1024;
const MODES: EncodedMode[] = [1, 3];
/** Sizes the throughput budget applies to: 64 KB and larger. */
const BUDGET_MIN_SIZE = 64 * 1024;
const MAX_REPS = 20_000;

function label(size: number): string {
  return size >= 1024 * 1024 ? `${size / 1024 / 1024} MB` : `${size / 1024} KB`;
}

/** Runs fn until minMs have passed (at least twice, at most MAX_REPS); MB/s of plain bytes. */
async function throughput(
  plainBytes: number,
  minMs: number,
  fn: () => unknown,
): Promise<{ mbps: number; reps: number }> {
  await fn(); // warm: JIT, first allocation of the big buffers
  let reps = 0;
  const started = performance.now();
  while (reps < 2 || (performance.now() - started < minMs && reps < MAX_REPS)) {
    await fn();
    reps++;
  }
  const seconds = (performance.now() - started) / 1000;
  return { mbps: (plainBytes * reps) / seconds / 1e6, reps };
}

/** What a backend's client would write with Node alone: base64, AES, gunzip, nothing else. */
function rawDecode(body: Buffer, mode: EncodedMode, key: CodecKey): Buffer {
  const cipherText = Buffer.from(body.toString('latin1'), 'base64');
  const decipher = createDecipheriv(
    `aes-${key.key.length * 8}-${key.mode}`,
    key.key,
    key.mode === 'ecb' ? null : key.iv,
  );
  const decrypted = Buffer.concat([decipher.update(cipherText), decipher.final()]);
  return mode === 3 ? gunzipSync(decrypted) : decrypted;
}

/** The bench's session cookie, from a login through the gateway; kept current as the gateway re-seals it. */
let sessionCookie = '';

function keepCookie(setCookie: string | string[] | undefined): void {
  const lines = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  const token = lines.map((line) => line.split(';')[0]!).find((pair) => pair.startsWith('token='));
  if (token) sessionCookie = token;
}

async function fetchAll(pool: Pool, mode: EncodedMode, size: number): Promise<Buffer[]> {
  const answer = await pool.request({
    path: `/manage/bench/decode?mode=${mode}&size=${size}`,
    method: 'GET',
    headers: { cookie: sessionCookie },
  });
  keepCookie(answer.headers['set-cookie']);
  const chunks: Buffer[] = [];
  for await (const chunk of answer.body) chunks.push(chunk as Buffer);
  if (answer.statusCode !== 200)
    throw new Error(`gateway answered ${answer.statusCode}: ${Buffer.concat(chunks).toString('utf8').slice(0, 200)}`);
  return chunks;
}

async function fetchCount(pool: Pool, mode: EncodedMode, size: number): Promise<number> {
  const answer = await pool.request({
    path: `/manage/bench/decode?mode=${mode}&size=${size}`,
    method: 'GET',
    headers: { cookie: sessionCookie },
  });
  keepCookie(answer.headers['set-cookie']);
  let bytes = 0;
  for await (const chunk of answer.body) bytes += (chunk as Buffer).length;
  if (answer.statusCode !== 200) throw new Error(`gateway answered ${answer.statusCode}`);
  return bytes;
}

interface Row {
  mode: EncodedMode;
  size: number;
  encodedBytes: number;
  rawMbps: number;
  codecMbps: number;
  gatewayMbps: number;
  gatewayReps: number;
  ratio: number;
}

/**
 * Mode 1 and mode 3 bodies through the gateway against Node's own crypto + zlib on the same
 * bytes in this process, plus the gateway's codec alone (decodeBody, no HTTP) to tell codec cost
 * from HTTP cost; then the gateway's peak memory while a 50 MB body passes.
 */
export async function decodeScenario(context: BenchContext): Promise<ScenarioResult> {
  const cleanup = new Cleanup();
  const notes: string[] = [];
  const minMs = context.quick ? 300 : 1500;
  const key = benchKey();
  try {
    const { child: backend, ready: backendReady } = await Child.start(
      'encoded backend',
      path.join(CHILDREN_DIR, 'encoded-backend.ts'),
      {
        logFile: logFile(context, 'decode-backend'),
      },
    );
    cleanup.add(() => backend.stop());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-decode-'));
    cleanup.add(() => rmSync(dataDir, { recursive: true, force: true }));
    const { child: gateway, ready: gatewayReady } = await Child.start(
      'gateway',
      path.join(CHILDREN_DIR, 'gateway.ts'),
      {
        env: {
          ...BENCH_KEY_ENV,
          CHAT_BACKEND_URL: backendReady.url,
          LOG_LEVEL: 'warn',
          DATA_DIR: dataDir,
          UI_DIR: dataDir,
          DECODE_MAX_BYTES: String(128 * 1024 * 1024),
          NODE_ENV: 'production',
        },
        nodeArgs: ['--expose-gc'],
        logFile: logFile(context, 'decode-gateway'),
      },
    );
    cleanup.add(() => gateway.stop());
    const pool = new Pool(gatewayReady.url!, {
      connections: 1,
      keepAliveTimeout: 60_000,
      bodyTimeout: 120_000,
      headersTimeout: 120_000,
    });
    cleanup.add(() => pool.close());
    sessionCookie = await benchLogIn(gatewayReady.url!, 'bench');

    const rows: Row[] = [];
    for (const mode of MODES) {
      for (const size of SIZES) {
        const plain = makeJsonBody(size);
        const body = Buffer.from(encodeBody(plain, mode, key, 'gzip'), 'latin1');
        const { encodedBytes } = await backend.request<{ encodedBytes: number }>({ type: 'prepare', mode, size });
        if (encodedBytes !== body.length) throw new Error('the backend and the bench built different bodies');
        const got = Buffer.concat(await fetchAll(pool, mode, size));
        if (!got.equals(plain))
          throw new Error(`mode ${mode} ${label(size)}: the gateway answered other bytes than the JSON`);

        const raw = await throughput(plain.length, minMs, () => rawDecode(body, mode, key));
        const codec = await throughput(plain.length, minMs, () =>
          decodeBody(body, mode, key, { maxBytes: 128 * 1024 * 1024 }),
        );
        const through = await throughput(plain.length, minMs, () => fetchCount(pool, mode, size));
        await backend.request({ type: 'drop', mode, size });
        rows.push({
          mode,
          size,
          encodedBytes,
          rawMbps: raw.mbps,
          codecMbps: codec.mbps,
          gatewayMbps: through.mbps,
          gatewayReps: through.reps,
          ratio: through.mbps / raw.mbps,
        });
      }
    }
    printTable('decode: MB/s of plain JSON (mode 3 = AES over gzip)', [
      ['mode, body', 'encoded', 'node crypto+zlib', 'codec alone', 'through gateway', 'gateway/node', 'codec/node'],
      ...rows.map((r) => [
        `mode ${r.mode}, ${label(r.size)}`,
        r.encodedBytes < 1024 * 1024 ? `${fixed(r.encodedBytes / 1024, 1)} KB` : mib(r.encodedBytes),
        fixed(r.rawMbps, 0),
        fixed(r.codecMbps, 0),
        fixed(r.gatewayMbps, 0),
        fixed(r.ratio, 2),
        fixed(r.codecMbps / r.rawMbps, 2),
      ]),
    ]);
    notes.push(
      '"through gateway" is one keep-alive client fetching sequentially: HTTP in and out of the gateway is part of it, as it is for a browser',
    );
    notes.push(
      '"codec alone" is server/codec decodeBody in this process; below 1 MiB it also JSON.parses the body to tell JSON from garbage',
    );

    // Peak memory while one 50 MB body passes: VmHWM reset just before, RSS after a GC as the base.
    const peaks: { mode: EncodedMode; encodedBytes: number; baseRss: number; peakRss: number; growth: number }[] = [];
    for (const mode of MODES) {
      const { encodedBytes } = await backend.request<{ encodedBytes: number }>(
        { type: 'prepare', mode, size: BIG },
        120_000,
      );
      const base = await gateway.request<{ rss: number }>({ type: 'gc' });
      const reset = await gateway.request<{ ok: boolean }>({ type: 'reset-peak' });
      if (!reset.ok) notes.push('could not reset VmHWM (/proc/<pid>/clear_refs): peak memory includes earlier runs');
      const received = await fetchCount(pool, mode, BIG);
      if (received !== BIG) throw new Error(`50 MB mode ${mode}: received ${received} bytes`);
      const after = await gateway.request<{ hwm: number | null }>({ type: 'memory' });
      const peakRss = after.hwm ?? Number.NaN;
      peaks.push({ mode, encodedBytes, baseRss: base.rss, peakRss, growth: peakRss - base.rss });
      await backend.request({ type: 'drop', mode, size: BIG });
      await gateway.request({ type: 'gc' });
    }
    printTable('decode: gateway memory while one 50 MB body passes', [
      ['mode', 'encoded', 'RSS before', 'peak RSS', 'growth', 'growth / body'],
      ...peaks.map((p) => [
        `mode ${p.mode}`,
        mib(p.encodedBytes),
        mib(p.baseRss),
        mib(p.peakRss),
        mib(p.growth),
        fixed(p.growth / BIG, 2),
      ]),
    ]);

    const budgets: BudgetCheck[] = rows
      .filter((r) => r.size >= BUDGET_MIN_SIZE)
      .map((r) => ({
        budget: `decode: mode ${r.mode} ${label(r.size)} vs node crypto+zlib`,
        measured: `${fixed(r.ratio, 2)}x`,
        limit: '>= 0.70x',
        pass: r.ratio >= 0.7,
      }));
    for (const p of peaks) {
      budgets.push({
        budget: `decode: 50 MB mode ${p.mode} peak memory`,
        measured: `${mib(p.growth)} (${fixed(p.growth / BIG, 2)}x)`,
        limit: '< 3x body',
        pass: Number.isFinite(p.growth) ? p.growth < 3 * BIG : null,
      });
    }
    for (const note of notes) console.log(`  note: ${note}`);
    printBudgets(budgets);
    return { scenario: 'decode', notes, budgets, figures: { rows, peaks, bigBodyBytes: BIG } };
  } finally {
    await cleanup.run();
  }
}
