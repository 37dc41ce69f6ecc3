import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ERROR_LOG_LIMITS } from '../../server/contract/gateway.js';
import type { ErrorLogEntry } from '../../server/contract/error-log.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { SAME_ORIGIN, buildTestGateway, writeFakeUi } from './support/gateway.js';
import { sendJson, startFakeBackend, type FakeBackend } from '../support/fake-backend.js';
import { CALLS } from '../../server/contract/index.js';
import { cookieHeader, fakeAccount, fakeLogIn, routeFakeLogin } from '../support/fake-session.js';

/** The Cookie header of a login as backend token t1, user 7, made afresh for each test's gateway. */
let SESSION: { cookie: string };
const URL = '/api/error-log';

let dataDir: string;
let app: FastifyInstance;
let backend: FakeBackend;

beforeAll(async () => {
  // Nothing here reaches the chat backend but the logins that give the tests their session, and
  // the permission look-up, which makes it an administrator who reads everyone's entries (who may
  // read what: tests/security/error-log-access.test.ts).
  backend = await startFakeBackend();
  routeFakeLogin(backend);
  backend.route(`GET ${CALLS.permission}`, (_call, res) =>
    sendJson(res, { code: 200, msg: 'ok', data: [{ permission: '/manage/management/adminUser' }] }),
  );
});

afterAll(async () => {
  await backend.close();
});

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'error-log-api-'));
  app = await buildTestGateway({ DATA_DIR: dataDir, CHAT_BACKEND_URL: backend.url });
  SESSION = { cookie: cookieHeader(await fakeLogIn(app, { token: 't1', userId: '7' })) };
});

afterEach(async () => {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
});

function post(payload: unknown, extra: Partial<InjectOptions> = {}) {
  return app.inject({
    method: 'POST',
    url: URL,
    ...extra,
    headers: { ...SAME_ORIGIN, 'content-type': 'application/json', ...(extra.headers ?? {}) },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

function list(query = '', headers: Record<string, string> = SESSION) {
  return app.inject({ method: 'GET', url: `${URL}${query}`, headers });
}

/** The lines of one lane's current file: `error-log` (logged-in sessions) or `error-log-anonymous`. */
async function storedLines(name = 'error-log'): Promise<string[]> {
  const text = await readFile(join(dataDir, `${name}.jsonl`), 'utf8');
  return text.split('\n').filter((line) => line !== '');
}

describe('POST /api/error-log', () => {
  it('stores an entry with the time, user and user agent the gateway adds, and lists it', async () => {
    const stored = await post(
      {
        message: 'TypeError: x is undefined',
        stack: 'at render (main.js:1:2)',
        url: '/userpage/userset',
        info: 'render',
      },
      { headers: { ...SESSION, 'user-agent': 'TestBrowser/1.0' } },
    );
    expect(stored.statusCode).toBe(200);
    const { code, msg, data } = stored.json() as { code: number; msg: string; data: { id: string } };
    expect({ code, msg }).toEqual({ code: 200, msg: 'ok' });
    expect(data.id).toMatch(/^[0-9a-f-]{36}$/);

    const anonymous = await post(
      { message: 'login page failed', url: '/login' },
      { headers: { 'user-agent': 'U'.repeat(2000) } },
    );
    expect(anonymous.statusCode).toBe(200);

    const listed = await list();
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['cache-control']).toBe('no-store');
    const page = listed.json() as { code: number; msg: string; data: { list: ErrorLogEntry[]; total: number } };
    expect(page.code).toBe(200);
    expect(page.data.total).toBe(2);
    const [newest, oldest] = page.data.list;
    expect(newest).toMatchObject({ message: 'login page failed', url: '/login', userId: null, account: null });
    expect(newest!.userAgent).toBe('U'.repeat(512));
    expect(newest!.stack).toBeUndefined();
    expect(oldest).toEqual({
      id: data.id,
      time: oldest!.time,
      message: 'TypeError: x is undefined',
      stack: 'at render (main.js:1:2)',
      url: '/userpage/userset',
      info: 'render',
      userId: '7',
      // The account the session logged in with, which the backend's id does not tell a reader.
      account: fakeAccount({ token: 't1', userId: '7' }),
      userAgent: 'TestBrowser/1.0',
    });
    expect(new Date(Date.parse(oldest!.time)).toISOString()).toBe(oldest!.time);

    expect(await storedLines()).toHaveLength(1);
    expect(await storedLines('error-log-anonymous')).toHaveLength(1);
    const metric = await app.metrics.errorLogWrites.get();
    expect(metric.values[0]?.value).toBe(2);
  });

  it('answers 413 in the envelope for a body over the entry limit', async () => {
    const response = await post({ message: 'x', url: '/', stack: 's'.repeat(ERROR_LOG_LIMITS.maxEntryBytes) });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 413, error: 'BODY_TOO_LARGE' });
    expect(typeof response.json().msg).toBe('string');
    expect((await list()).json().data.total).toBe(0);
  });

  it('answers 413 for a field over its own length limit', async () => {
    const response = await post({ message: 'm'.repeat(ERROR_LOG_LIMITS.maxMessageChars + 1), url: '/' });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 413, error: 'BODY_TOO_LARGE' });
  });

  it.each([
    ['a missing message', { url: '/x' }],
    ['a missing url', { message: 'boom' }],
    ['a number message', { message: 42, url: '/x' }],
    ['a boolean url', { message: 'boom', url: true }],
    ['an object stack', { message: 'boom', url: '/x', stack: { frames: [] } }],
    ['an extra field', { message: 'boom', url: '/x', userId: 'admin' }],
    ['an array body', [{ message: 'boom', url: '/x' }]],
    ['malformed JSON', '{"message": "boom",'],
  ])('answers 400 in the envelope for %s', async (_name, payload) => {
    const response = await post(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 400, error: 'BAD_REQUEST' });
    expect((await list()).json().data.total).toBe(0);
  });

  it('refuses a cross-origin write', async () => {
    const response = await post({ message: 'boom', url: '/x' }, { headers: { origin: 'http://evil.example' } });
    expect(response.statusCode).toBe(403);
    expect((await list()).json().data.total).toBe(0);
  });

  it('rate-limits writes per client address with 429', async () => {
    const from = (remoteAddress: string) => post({ message: 'loop', url: '/x' }, { remoteAddress });
    // The bucket starts full: a burst of 30 always passes.
    for (let i = 0; i < 30; i++) expect((await from('10.0.0.1')).statusCode).toBe(200);
    let limited: Awaited<ReturnType<typeof from>> | undefined;
    for (let i = 0; i < 30 && !limited; i++) {
      const response = await from('10.0.0.1');
      if (response.statusCode !== 200) limited = response;
    }
    expect(limited?.statusCode).toBe(429);
    expect(limited?.json()).toMatchObject({ code: 429, error: 'RATE_LIMITED' });
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);

    expect((await from('10.0.0.2')).statusCode).toBe(200);
  });
});

describe('GET and DELETE /api/error-log', () => {
  it('need a session', async () => {
    const get = await list('', {});
    expect(get.statusCode).toBe(401);
    expect(get.json()).toMatchObject({ code: 401, error: 'NOT_LOGGED_IN' });

    const del = await app.inject({ method: 'DELETE', url: URL, headers: SAME_ORIGIN });
    expect(del.statusCode).toBe(401);
    expect(del.json()).toMatchObject({ code: 401, error: 'NOT_LOGGED_IN' });
  });

  it('pages newest first and filters by keyword and time', async () => {
    for (let i = 0; i < 7; i++) {
      expect((await post({ message: i % 2 === 0 ? `even ${i}` : `odd ${i}`, url: `/p/${i}` })).statusCode).toBe(200);
    }
    const page2 = (await list('?pageNum=2&pageSize=3')).json().data as { list: ErrorLogEntry[]; total: number };
    expect(page2.total).toBe(7);
    expect(page2.list.map((e) => e.url)).toEqual(['/p/3', '/p/2', '/p/1']);

    const even = (await list('?keyword=EVEN&pageSize=2')).json().data as { list: ErrorLogEntry[]; total: number };
    expect(even.total).toBe(4);
    expect(even.list.map((e) => e.message)).toEqual(['even 6', 'even 4']);

    const all = (await list()).json().data as { list: ErrorLogEntry[] };
    const middle = all.list[3]!.time;
    const since = (await list(`?since=${encodeURIComponent(middle)}`)).json().data as { list: ErrorLogEntry[] };
    expect(since.list.every((e) => e.time >= middle)).toBe(true);
    expect(since.list.length).toBeGreaterThanOrEqual(4);
    expect((await list('?until=2000-01-01')).json().data).toEqual({ list: [], total: 0, scope: 'all' });
  });

  it('refuses bad paging and time parameters with 400', async () => {
    for (const query of [
      `?pageSize=${ERROR_LOG_LIMITS.pageSizeMax + 1}`,
      '?pageNum=0',
      '?pageNum=abc',
      '?since=yesterday',
    ]) {
      const response = await list(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ code: 400, error: 'BAD_REQUEST' });
    }
  });

  it('DELETE clears the log', async () => {
    await post({ message: 'one', url: '/' });
    await post({ message: 'two', url: '/' });
    expect((await list()).json().data.total).toBe(2);

    const cleared = await app.inject({ method: 'DELETE', url: URL, headers: { ...SAME_ORIGIN, ...SESSION } });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual({ code: 200, msg: 'ok' });
    expect((await list()).json().data).toEqual({ list: [], total: 0, scope: 'all' });
    // The log's own two files stay, emptied (the audit trail keeps its file beside them: a clear is a change it records).
    expect((await readdir(dataDir)).filter((name) => name.startsWith('error-log')).sort()).toEqual([
      'error-log-anonymous.jsonl',
      'error-log.jsonl',
    ]);

    expect((await post({ message: 'three', url: '/' })).statusCode).toBe(200);
    expect((await list()).json().data.list.map((e: ErrorLogEntry) => e.message)).toEqual(['three']);
  });
});

describe('error-log logging', () => {
  it('keeps entry contents out of info-level logs', async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => void lines.push(line) };
    const config = loadConfig({
      DATA_DIR: join(dataDir, 'logged'),
      CHAT_BACKEND_URL: 'http://127.0.0.1:1',
      UI_DIR: writeFakeUi(),
    });
    const logged = await buildApp({ config, logger: { level: 'info', stream } });
    try {
      const response = await logged.inject({
        method: 'POST',
        url: URL,
        headers: { ...SAME_ORIGIN, 'content-type': 'application/json' },
        // A marker no log line has for any other reason (the start-up warning names SESSION_SECRET).
        payload: { message: 'card 4111-HUSH', url: '/x?token=HUSH', stack: 'HUSH stack' },
      });
      expect(response.statusCode).toBe(200);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.join('\n')).not.toContain('HUSH');
    } finally {
      await logged.close();
    }
  });
});
