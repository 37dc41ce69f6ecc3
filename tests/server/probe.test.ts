import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackendMap } from '../../server/backend-map/engine.js';
import { backendAuthOf } from '../../server/backend-map/auth.js';
import type { BackendMapFile } from '../../server/backend-map/types.js';
import { loadBackendMap } from '../../server/backend-map/load.js';
import { CALLS } from '../../server/contract/index.js';
import { decodeBody, parseEnableMode } from '../../server/codec/index.js';
import { Upstream, type RawAnswer } from '../../server/lib/upstream.js';
import {
  LoginFailed,
  formatReport,
  probe,
  probedScreens,
  startingMap,
  type ProbeReport,
} from '../../server/probe/probe.js';
import { SANDBOX_AES_KEY_TEXT, sandboxCodecKey } from '../../sandbox/key.js';
import { LEGACY_UNOFFERED } from '../../sandbox/legacy/paths.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { REPO_ROOT } from '../support/paths.js';
import { sendJson, startFakeBackend } from '../support/fake-backend.js';
import { parseBackendMap } from '../../server/backend-map/load.js';

/** The probe against both dialects of the sandbox, with and without the legacy map; it only reads. */

const LEGACY_MAP = path.join(REPO_ROOT, 'sandbox/legacy-map.json');
const SHIKU_MAP = path.join(REPO_ROOT, 'server/backend-map/bindings/shiku-im.json');
let plain: StartedSandbox;
let legacy: StartedSandbox;
const upstreams: Upstream[] = [];

function upstreamTo(url: string, map?: BackendMapFile): Upstream {
  const key = sandboxCodecKey();
  const upstream = new Upstream({
    baseUrl: url,
    auth: backendAuthOf(map),
    timeoutMs: 10_000,
    tlsInsecure: false,
    maxAnswerBytes: 32 * 1024 * 1024,
    decoder: async (answer: RawAnswer) => {
      const mode = parseEnableMode(answer.headers['w-enable-mode']);
      return mode === null ? answer.body : decodeBody(answer.body, mode, key, { maxBytes: 32 * 1024 * 1024 });
    },
  });
  upstreams.push(upstream);
  return upstream;
}

/** A child process, asynchronously: the sandboxes it calls live in this test's own event loop. */
function run(file: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; encoding: 'utf8' }) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(file, args, { ...options, timeout: 50_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

/** Anything but a read is a call the probe promised never to make; the login is the one POST. */
function unsafeCalls(sandbox: StartedSandbox, since: number): string[] {
  return sandbox.app.sandboxCalls
    .slice(since)
    .filter((c) => c.method !== 'GET' && !(c.method === 'POST' && c.path === CALLS.login))
    .map((c) => `${c.method} ${c.path}`);
}

beforeAll(async () => {
  plain = await startSandbox({ withdrawalTickMs: 0 });
  legacy = await startSandbox({ withdrawalTickMs: 0, dialect: 'legacy' });
});

afterAll(async () => {
  for (const u of upstreams) await u.close();
  await plain?.close();
  await legacy?.close();
});

const account = { account: 'admin', password: 'admin123' };
/** Every screen the probe reports, counted off RESOURCES. */
const ALL = probedScreens();

/** The report's last line when every screen not marked unsupported answered: the rest of ALL is unsupported. */
function answeredLine(report: ProbeReport): string {
  const ok = report.screens.filter((s) => s.verdict === 'OK').length;
  expect(report.screens).toHaveLength(ALL);
  return `${ok} of ${ok} screens answered as the console expects; ${ALL - ok} unsupported, not asked`;
}

describe('the probe', () => {
  it('finds every screen of the default dialect as the console expects, with read calls only', async () => {
    const since = plain.app.sandboxCalls.length;
    const report = await probe(upstreamTo(plain.url), { ...account, map: null });
    expect(report.screens.filter((s) => s.verdict !== 'OK')).toEqual([]);
    expect(report.answered).toBe(report.expected);
    expect(report.expected).toBe(probedScreens());
    expect(formatReport(report).at(-1)).toBe(`${ALL} of ${ALL} screens answered as the console expects`);
    expect(unsafeCalls(plain, since)).toEqual([]);
    expect(plain.app.sandboxCalls.length - since).toBeGreaterThan(ALL);
  });

  it('finds most legacy screens missing without the map, and writes a starting map from what it saw', async () => {
    const since = legacy.app.sandboxCalls.length;
    const report = await probe(upstreamTo(legacy.url), { ...account, map: null });
    expect(report.answered).toBeLessThan(report.expected);
    expect(report.screens.find((s) => s.id === 'users')).toMatchObject({
      verdict: 'MISSING',
      detail: expect.stringContaining('GET /manage/user/userProfile/list'),
    });
    // The three screens the dialect keeps at the contract's paths still answer, and so do the
    // calls outside the screens, which it does not translate.
    expect(
      report.screens
        .filter((s) => s.verdict === 'OK')
        .map((s) => s.id)
        .sort(),
    ).toEqual(['appInterface', 'dashboard', 'dataClean', 'deploymentMonitor', 'menuAndBadge', 'termsOfUse']);
    expect(unsafeCalls(legacy, since)).toEqual([]);
    const start = startingMap(report) as { resources: Record<string, unknown> };
    expect(start.resources.users).toEqual({ unsupported: true });
    expect(start.resources.appInterface).toBeUndefined();
  });

  it('finds every legacy screen the map binds as the console expects, and names the three the map leaves out', async () => {
    const since = legacy.app.sandboxCalls.length;
    const map = new BackendMap(loadBackendMap(LEGACY_MAP));
    const report = await probe(upstreamTo(legacy.url), { ...account, map });
    expect(report.screens.filter((s) => s.verdict !== 'OK' && s.verdict !== 'UNSUPPORTED')).toEqual([]);
    expect(
      report.screens
        .filter((s) => s.verdict === 'UNSUPPORTED')
        .map((s) => s.id)
        .sort(),
    ).toEqual([...LEGACY_UNOFFERED].sort());
    expect(report.answered).toBe(report.expected);
    expect(unsafeCalls(legacy, since)).toEqual([]);
    // Detail reads went out in the dialect's own form, an id in the path.
    expect(legacy.app.sandboxCalls.slice(since).some((c) => /^\/manage\/user\/\d+$/.test(c.path))).toBe(true);
  });

  it('finds every screen the Shiku IM binding offers as the console expects, logging in and signing Shiku’s way', async () => {
    const shiku = await startSandbox({ withdrawalTickMs: 0, dialect: 'shiku' });
    try {
      const file = loadBackendMap(SHIKU_MAP);
      const map = new BackendMap(file);
      const report = await probe(upstreamTo(shiku.url, file), { ...account, map });
      expect(report.screens.filter((s) => s.verdict !== 'OK' && s.verdict !== 'UNSUPPORTED')).toEqual([]);
      expect(
        report.screens
          .filter((s) => s.verdict === 'OK')
          .map((s) => s.id)
          .sort(),
      ).toEqual([
        'admins',
        'appVersions',
        'billingRecords',
        'dailyStatistics',
        'dashboard',
        'discover',
        'distributionAddresses',
        'groupRedEnvelopes',
        'groups',
        'inviteCodes',
        'loginRecords',
        'onlineUsers',
        'operationLog',
        'personalRedEnvelopes',
        'sensitiveWords',
        'siteFunctions',
        'suggestions',
        'users',
        'withdrawalReview',
      ]);
      expect(formatReport(report).at(-1)).toBe(answeredLine(report));
      // Reads only: Shiku's login is the one POST.
      expect(shiku.app.sandboxCalls.filter((c) => c.method !== 'GET' && c.path !== '/console/login')).toEqual([]);
    } finally {
      await shiku.close();
    }
  });

  it('reports a mismatch when the answer lacks what the screen shows', async () => {
    // Read through a map that moves a field: the answer then lacks the console's name for it.
    const map = new BackendMap({ resources: { users: { fields: { nickname: { name: 'screenName' } } } } });
    const report = await probe(upstreamTo(plain.url), { ...account, map });
    expect(report.screens.find((s) => s.id === 'users')).toMatchObject({
      verdict: 'MISMATCH',
      detail: expect.stringContaining('expected fields absent: nickname'),
    });
    expect(report.answered).toBe(report.expected - 1);
  });

  it('flags a map that leaves withdrawal states untranslated: dual control would hold every one it does not know', async () => {
    const untranslated = new BackendMap({
      resources: {
        withdrawalReview: { fields: { state: { name: 'auditStatus', values: { approved: 0, pending: 1 } } } },
      },
    });
    const report = await probe(upstreamTo(plain.url), { ...account, map: untranslated });
    expect(report.screens.find((s) => s.id === 'withdrawalReview')).toMatchObject({
      verdict: 'MISMATCH',
      detail: expect.stringContaining('withdrawal states untranslated: rejected'),
    });
    const absent = new BackendMap({ resources: { withdrawalReview: { fields: { state: { absent: true } } } } });
    const without = await probe(upstreamTo(plain.url), { ...account, map: absent });
    expect(without.screens.find((s) => s.id === 'withdrawalReview')?.detail).toContain(
      'the withdrawal state is absent',
    );
  });

  it('writes unsupported only what answered 404 at every path it tried, reading a POST search as the map sends it', async () => {
    // A backend no one here wrote: its users list is a POST search in snake_case, its groups list
    // sits at the contract's path, and neither has a detail call. Everything else is missing.
    const backend = await startFakeBackend();
    try {
      backend.route(`POST ${CALLS.login}`, (_call, res) =>
        sendJson(res, { code: 200, msg: 'ok', data: { token: 't', userId: 1 } }),
      );
      backend.route('POST /user/search', (call, res) => {
        const body = JSON.parse(call.body) as { pagination?: { page_size?: unknown } };
        if (body.pagination?.page_size !== 1) return sendJson(res, { code: 40000, message: 'bad paging' });
        sendJson(res, {
          code: 0,
          message: 'ok',
          result: { users: [{ id: '10023', account: 'ann', nickname: 'Ann' }], total: 1 },
        });
      });
      backend.route('GET /manage/user/groupProfile/list', (_call, res) =>
        sendJson(res, { code: 200, msg: 'ok', data: { list: [{ id: 5, name: 'Fans' }], total: 1 } }),
      );
      const map = new BackendMap({
        keyCase: 'snake',
        id: 'string',
        answer: { message: '/message', data: '/result', success: [0] },
        resources: {
          users: {
            calls: {
              list: {
                method: 'POST',
                path: '/user/search',
                template: { pagination: { page_num: '{pageNum}', page_size: '{pageSize}' } },
                answer: { list: '/result/users', total: '/result/total' },
              },
              detail: { path: '/user/{id}' },
            },
          },
        },
      });
      const report = await probe(upstreamTo(backend.url), { ...account, map });
      const users = report.screens.find((s) => s.id === 'users')!;
      expect(users).toMatchObject({
        verdict: 'MISSING',
        detail: expect.stringContaining('GET /user/10023'),
        calls: { tried: ['list', 'detail'], missing: ['detail'] },
      });
      expect(backend.calls.some((c) => c.method === 'POST' && c.url === '/user/search')).toBe(true);
      expect(
        backend.calls.filter((c) => c.method !== 'GET' && c.url !== '/user/search' && c.url !== CALLS.login),
      ).toEqual([]);

      const start = startingMap(report) as { resources: Record<string, unknown> };
      expect(start.resources.users).toMatchObject({
        calls: { detail: { unsupported: true }, list: { answer: { list: '/result/users' } } },
      });
      expect(start.resources.groups).toMatchObject({ calls: { detail: { unsupported: true } } });
      expect(start.resources.withdrawalReview).toEqual({ unsupported: true });
      // The frame's own reads are no resources: a map naming them would not load.
      expect(start.resources.dashboard).toBeUndefined();
      expect(() => parseBackendMap(JSON.stringify(start), 'written.json')).not.toThrow();
    } finally {
      await backend.close();
    }
  });

  it('says the login failed with the backend message', async () => {
    await expect(probe(upstreamTo(plain.url), { account: 'admin', password: 'wrong', map: null })).rejects.toThrow(
      new LoginFailed('Wrong account or password'),
    );
  });

  it('runs as npm run probe: the report and exit 0, or exit 2 when the login fails', { timeout: 60_000 }, async () => {
    const tsx = path.join(REPO_ROOT, 'node_modules/.bin/tsx');
    const env = { ...process.env, RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT };
    const written = path.join(mkdtempSync(path.join(tmpdir(), 'probe-')), 'map.json');
    const ran = await run(
      tsx,
      [
        'server/probe/main.ts',
        '--backend',
        legacy.url,
        '--account',
        'admin',
        '--password',
        'admin123',
        '--map',
        LEGACY_MAP,
        '--write-map',
        written,
      ],
      {
        cwd: REPO_ROOT,
        env,
        encoding: 'utf8',
      },
    );
    expect(ran.status, ran.stderr).toBe(0);
    const lines = ran.stdout.trim().split('\n');
    const left = LEGACY_UNOFFERED.size;
    expect(lines).toContain(
      `${ALL - left} of ${ALL - left} screens answered as the console expects; ${left} unsupported, not asked`,
    );
    expect(lines.filter((l) => /^(OK|MISSING|REFUSED|MISMATCH|UNSUPPORTED) /.test(l))).toHaveLength(ALL);
    expect(JSON.parse(readFileSync(written, 'utf8'))).toMatchObject({
      resources: { googleVerify: { unsupported: true } },
    });

    const refused = await run(
      tsx,
      ['server/probe/main.ts', '--backend', legacy.url, '--account', 'admin', '--password', 'nope'],
      {
        cwd: REPO_ROOT,
        env,
        encoding: 'utf8',
      },
    );
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim()).toBe('Login failed: Wrong account or password');
  });
});

describe('the probe against OpenIM Chat through the shipped binding', () => {
  const OPENIM_MAP = path.join(REPO_ROOT, 'server/backend-map/bindings/openim-chat.json');
  let openim: StartedSandbox;
  beforeAll(async () => {
    openim = await startSandbox({ withdrawalTickMs: 0, dialect: 'openim' });
  });
  afterAll(async () => {
    await openim?.close();
  });

  it('finds every screen the map binds as the console expects, logging in and reading the map’s way only', async () => {
    const map = new BackendMap(loadBackendMap(OPENIM_MAP));
    const key = sandboxCodecKey();
    const connect = (baseUrl: string) => {
      const upstream = new Upstream({
        baseUrl,
        timeoutMs: 10_000,
        tlsInsecure: false,
        maxAnswerBytes: 32 * 1024 * 1024,
        auth: backendAuthOf(map.file),
        decoder: async (answer: RawAnswer) => {
          const mode = parseEnableMode(answer.headers['w-enable-mode']);
          return mode === null ? answer.body : decodeBody(answer.body, mode, key, { maxBytes: 32 * 1024 * 1024 });
        },
      });
      upstreams.push(upstream);
      return upstream;
    };
    const since = openim.app.sandboxCalls.length;
    // The admin API at the backend's address, the chat API at its service's (the users' reads go there).
    const report = await probe(connect(openim.url), {
      ...account,
      map,
      services: { chat: connect(openim.services.chat!), im: connect(openim.services.im!) },
    });
    expect(report.screens.filter((s) => s.verdict !== 'OK' && s.verdict !== 'UNSUPPORTED')).toEqual([]);
    expect(report.screens.filter((s) => s.verdict === 'OK').map((s) => s.id)).toEqual([
      'admins',
      'users',
      'groups',
      'siteFunctions',
      'defaultFriends',
      'defaultGroups',
      'discover',
      'inviteCodes',
      'dailyStatistics',
      'ipBlacklist',
      'appVersions',
      'dashboard',
      'menuAndBadge',
    ]);
    expect(formatReport(report).at(-1)).toBe(answeredLine(report));
    // OpenIM reads are POSTs: every call was the login or a search, find, get, page or count read.
    const calls = openim.app.sandboxCalls.slice(since).map((c) => c.path);
    expect(
      calls.filter(
        (p) =>
          !/^\/(account\/login|account\/search|.*\/(search(\/full)?|find(\/full)?|get|page_versions)|group\/get_\w+|statistic\/(new|login)_user_count)$/.test(
            p,
          ),
      ),
    ).toEqual([]);
    expect(calls).toContain('/statistic/login_user_count');
  });
});
