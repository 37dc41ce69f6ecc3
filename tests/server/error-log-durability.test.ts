import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorLogEntry } from '../../server/contract/error-log.js';
import { Child } from '../support/child.js';
import { CHILDREN_DIR } from '../support/paths.js';
import { CALLS } from '../../server/contract/index.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../support/fake-backend.js';
import { fakeLogInOver, routeFakeLogin } from '../support/fake-session.js';

/*
 * Issue 7, item 4: 50 concurrent writers to POST /api/error-log, the gateway killed with SIGKILL
 * while their writes are in flight. The store acknowledges an entry once its one-line write has
 * returned, so every acknowledged entry must survive the kill (the page cache outlives the
 * process), and the file may end at most in one torn line that the reader skips.
 */

const WRITERS = 50;
/** The kill comes once this many writes were acknowledged, or after KILL_AFTER_MS at the latest. */
const KILL_AT_ACKS = 400;
const KILL_AFTER_MS = 15_000;
/** Bound on each writer's loop, whatever happens. */
const MAX_WRITES_PER_WRITER = 200;
let workDir: string;
/** Answers nothing but the login that gives the reader its session, and its permissions (everyone's entries). */
let backend: FakeBackend;
let dataDir: string;
let uiDir: string;
const started: Child[] = [];

async function startGateway(): Promise<{ child: Child; url: string }> {
  const { child, ready } = await Child.start('gateway', path.join(CHILDREN_DIR, 'gateway.ts'), {
    env: {
      DATA_DIR: dataDir,
      UI_DIR: uiDir,
      CHAT_BACKEND_URL: backend.url,
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'silent',
    },
    logFile: path.join(workDir, 'gateway.log'),
  });
  started.push(child);
  return { child, url: ready.url! };
}

beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'error-log-durability-'));
  dataDir = path.join(workDir, 'data');
  uiDir = path.join(workDir, 'ui');
  await mkdir(uiDir);
  backend = await startFakeBackend();
  routeFakeLogin(backend);
  backend.route(`GET ${CALLS.permission}`, (_call, res) =>
    sendJson(res, { code: 200, msg: 'ok', data: [{ permission: '/manage/management/adminUser' }] }),
  );
});

afterAll(async () => {
  await Promise.all(started.map((child) => child.stop('SIGKILL')));
  await backend?.close();
  await rm(workDir, { recursive: true, force: true });
});

/**
 * Every generation's raw text, current file last, as the store names them: the writers post
 * without a session, so their entries are in the anonymous lane's files.
 */
const CURRENT = 'error-log-anonymous.jsonl';
async function logFiles(): Promise<{ name: string; text: string }[]> {
  const names = (await readdir(dataDir)).filter((name) => /^error-log-anonymous(\.\d+)?\.jsonl$/.test(name));
  names.sort((a, b) => (a === CURRENT ? 1 : b === CURRENT ? -1 : b.localeCompare(a)));
  return Promise.all(names.map(async (name) => ({ name, text: await readFile(path.join(dataDir, name), 'utf8') })));
}

describe('error log under SIGKILL', () => {
  it('keeps every acknowledged entry and only whole lines', async () => {
    const { child, url } = await startGateway();
    const pool = new Pool(url, { connections: WRITERS });
    const acknowledged = new Map<string, string>(); // id -> message
    let inFlight = 0;
    let inFlightAtKill = -1;
    let killed = false;
    let refusedBeforeKill = 0;

    const kill = () => {
      if (killed) return;
      killed = true;
      inFlightAtKill = inFlight;
      child.proc.kill('SIGKILL');
    };
    const killTimer = setTimeout(kill, KILL_AFTER_MS);

    const writer = async (w: number) => {
      for (let n = 0; n < MAX_WRITES_PER_WRITER && !killed; n++) {
        const message = `durability writer ${w} entry ${n} ${'x'.repeat((w * 37 + n * 11) % 300)}`;
        inFlight++;
        try {
          const answer = await pool.request({
            path: '/api/error-log',
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              origin: url,
              // A distinct client per write: the rate limit is per client and not what is tested here.
              'x-forwarded-for': `10.${w}.${n >> 8}.${n & 255}`,
              'user-agent': `durability-writer/${w}`,
            },
            body: JSON.stringify({ message, url: `/bench/${w}/${n}`, info: `writer=${w}` }),
          });
          const text = await answer.body.text();
          if (answer.statusCode === 200) {
            const id = (JSON.parse(text) as { data: { id: string } }).data.id;
            acknowledged.set(id, message);
            if (acknowledged.size >= KILL_AT_ACKS) kill();
          } else if (!killed) {
            refusedBeforeKill++;
          }
        } catch {
          // The gateway is gone (reset or refused): this writer's run is over.
          return;
        } finally {
          inFlight--;
        }
      }
    };

    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    clearTimeout(killTimer);
    kill();
    await child.exited;
    await pool.destroy();

    expect(child.exitStatus?.signal).toBe('SIGKILL');
    // The kill must have come while writes were still going on, or nothing was tested.
    expect(inFlightAtKill).toBeGreaterThan(0);
    expect(refusedBeforeKill).toBe(0);
    expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AT_ACKS);

    // The file: whole JSON lines, with at most an unterminated tail at the very end.
    const files = await logFiles();
    expect(files.length).toBeGreaterThan(0);
    const stored = new Map<string, ErrorLogEntry>();
    for (const [index, file] of files.entries()) {
      const lines = file.text.split('\n');
      const tail = lines.pop()!; // '' when the file ends with a newline
      if (tail !== '') {
        // Only the file being written when the process died may end torn.
        expect(file.name).toBe(CURRENT);
        expect(index).toBe(files.length - 1);
      }
      for (const line of lines) {
        const entry = JSON.parse(line) as ErrorLogEntry;
        expect(stored.has(entry.id)).toBe(false);
        stored.set(entry.id, entry);
      }
    }
    for (const [id, message] of acknowledged) {
      expect(stored.get(id)?.message, `acknowledged entry ${id}`).toBe(message);
    }

    // After a restart on the same DATA_DIR the gateway lists every acknowledged entry.
    const restarted = await startGateway();
    const SESSION_COOKIE = await fakeLogInOver(restarted.url, { token: 'durability-token', userId: '42' });
    const listed = new Map<string, ErrorLogEntry>();
    const reader = new Pool(restarted.url, { connections: 1 });
    let total = -1;
    for (let pageNum = 1; pageNum <= 100; pageNum++) {
      const answer = await reader.request({
        path: `/api/error-log?pageNum=${pageNum}&pageSize=200`,
        method: 'GET',
        headers: { cookie: SESSION_COOKIE },
      });
      expect(answer.statusCode).toBe(200);
      const body = (await answer.body.json()) as { data: { list: ErrorLogEntry[]; total: number } };
      total = body.data.total;
      for (const entry of body.data.list) listed.set(entry.id, entry);
      if (body.data.list.length === 0 || listed.size >= total) break;
    }
    expect(total).toBe(stored.size);
    expect(listed.size).toBe(stored.size);
    for (const [id, message] of acknowledged) {
      expect(listed.get(id)?.message, `acknowledged entry ${id} after restart`).toBe(message);
    }

    // A write after the restart lands on a line of its own and is listed first.
    const after = await reader.request({
      path: '/api/error-log',
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: restarted.url, 'x-forwarded-for': '10.255.0.1' },
      body: JSON.stringify({ message: 'after restart', url: '/after' }),
    });
    expect(after.statusCode).toBe(200);
    await after.body.dump();
    const first = await reader.request({
      path: '/api/error-log?pageNum=1&pageSize=1',
      method: 'GET',
      headers: { cookie: SESSION_COOKIE },
    });
    const firstBody = (await first.body.json()) as { data: { list: ErrorLogEntry[]; total: number } };
    expect(firstBody.data.list[0]?.message).toBe('after restart');
    expect(firstBody.data.total).toBe(stored.size + 1);
    await reader.close();
    await restarted.child.stop('SIGTERM');
    expect(restarted.child.exitStatus?.code).toBe(0);
  }, 60_000);
});
