import path from 'node:path';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { BrowserContext, Page } from 'playwright-core';
import { buildApp } from '../../server/app.js';
import { BackendMap } from '../../server/backend-map/engine.js';
import { loadBackendMap } from '../../server/backend-map/load.js';
import { loadConfig } from '../../server/config.js';
import {
  PERMISSIONS,
  RESOURCES,
  resourceCalls,
  type ListAnswer,
  type ListResource,
} from '../../server/contract/index.js';
import { ENABLED, ID, shown } from '../../server/contract/resources/common-fields.js';
import { SANDBOX_AES_KEY_TEXT } from '../../sandbox/key.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import type { RecordOf } from '../../sandbox/store/record-of.js';
import type { Seed } from '../../sandbox/store/seeds.js';
import { REPO_ROOT } from '../support/paths.js';
import { SAME_ORIGIN, writeFakeUi } from './support/gateway.js';
import { ARTICLES, buildWithNewScreen } from './support/four-places.js';
import { CHROMIUM_PATH, launchChromium } from '../support/chromium.js';
import { skipWithout } from '../support/ci.js';
import { logIn, submitLogin } from '../support/login.js';
import { freePort } from '../support/ports.js';
import { NodeProcess, removeTempDirs, tempDir, waitHealthy } from '../support/processes.js';
import { rowCommand, rowOffers } from '../e2e/harness.js';

/**
 * A new management screen is its declaration: a list resource nobody wrote a sandbox binding,
 * a store table or a record type for is served by the sandbox from its fields alone (with the
 * seed registered beside it) and works through the gateway, list, create, edit, action and
 * delete, on the default dialect and on the legacy one, whose map does not name it.
 */

const COLOURS = ['red', 'green', 'blue'] as const;

const GADGETS = {
  kind: 'list',
  id: 'testGadgets',
  path: `${PERMISSIONS.frequencyLimit}/test-gadgets`,
  permission: PERMISSIONS.frequencyLimit,
  keywordFields: ['name'],
  defaultSort: '-createTime',
  recordFields: ['name'],
  create: true,
  edit: true,
  remove: true,
  fields: [
    ID,
    { key: 'name', kind: 'text', required: true, maxLength: 40, column: true },
    { key: 'colour', kind: 'select', options: COLOURS, required: true, column: true, filter: true },
    { key: 'weight', kind: 'number', min: 0, max: 1000, column: true, sortable: true },
    ENABLED,
    shown('createTime', 'datetime', { sortable: true }),
  ],
  actions: [
    { name: 'paint', target: 'row', inputs: [{ key: 'colour', kind: 'select', options: COLOURS, required: true }] },
    { name: 'paint', target: 'bulk', inputs: [{ key: 'colour', kind: 'select', options: COLOURS, required: true }] },
    // No inputs: what it does is declared, and the sandbox serves it without a binding.
    { name: 'retire', target: 'row', when: { field: 'enabled', in: [true] }, sets: { enabled: false } },
  ],
} as const satisfies ListResource;

/** The record type follows from the declaration: no interface was written for it. */
type Gadget = RecordOf<typeof GADGETS>;
const typed: Gadget = {
  id: 1,
  name: 'Lamp',
  colour: 'red',
  weight: 3,
  enabled: true,
  createTime: '2026-01-01T00:00:00.000Z',
};

const SEEDS: Record<string, Seed> = {
  [GADGETS.id]: ({ now }) => [
    { ...typed, createTime: new Date(now - 2_000).toISOString() },
    {
      id: 2,
      name: 'Kettle',
      colour: 'blue',
      weight: 12,
      enabled: false,
      createTime: new Date(now - 1_000).toISOString(),
    },
  ],
};

const resources = [...RESOURCES, GADGETS];
const calls = resourceCalls(GADGETS);
type Row = Record<string, unknown>;
interface Answer {
  code: number;
  msg: string;
  data?: unknown;
}

async function gateway(backend: string, map: string | null): Promise<FastifyInstance> {
  const config = loadConfig({
    CHAT_BACKEND_URL: backend,
    RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'gw-new-screen-')),
    UI_DIR: writeFakeUi(),
    ...(map ? { BACKEND_MAP: map } : {}),
  });
  return buildApp({ config, logger: false });
}

for (const dialect of ['default', 'legacy'] as const) {
  describe(`a declared screen on the ${dialect} dialect`, () => {
    let sandbox: StartedSandbox;
    let app: FastifyInstance;
    let cookies: Record<string, string>;

    beforeAll(async () => {
      sandbox = await startSandbox({ seed: 5, withdrawalTickMs: 0, dialect, resources, seeds: SEEDS });
      app = await gateway(sandbox.url, dialect === 'legacy' ? path.join(REPO_ROOT, 'sandbox/legacy-map.json') : null);
      const res = await app.inject({
        method: 'POST',
        url: '/manage/logIn',
        headers: SAME_ORIGIN,
        payload: { account: 'admin', password: 'admin123', code: '' },
      });
      expect(res.json().code).toBe(200);
      cookies = Object.fromEntries(res.cookies.map((c) => [c.name, c.value]));
    });

    afterAll(async () => {
      await app?.close();
      await sandbox?.close();
    });

    const get = async (url: string, query: Record<string, string> = {}): Promise<Answer> => {
      const search = new URLSearchParams(query).toString();
      return (await app.inject({ method: 'GET', url: search ? `${url}?${search}` : url, cookies })).json() as Answer;
    };
    const post = async (url: string, payload: object): Promise<Answer> =>
      (await app.inject({ method: 'POST', url, payload, headers: SAME_ORIGIN, cookies })).json() as Answer;
    const list = async (query: Record<string, string> = {}) => {
      const answer = await get(calls.list, query);
      expect(answer.code, answer.msg).toBe(200);
      return answer.data as ListAnswer<Row>;
    };

    it('lists the seed, newest first, and searches, filters and sorts by the declared fields', async () => {
      expect((await list()).list.map((r) => r.name)).toEqual(['Kettle', 'Lamp']);
      expect((await list({ keyword: 'lam' })).list.map((r) => r.id)).toEqual([1]);
      expect((await list({ colour: 'blue' })).list.map((r) => r.name)).toEqual(['Kettle']);
      expect((await list({ sort: 'weight' })).list.map((r) => r.weight)).toEqual([3, 12]);
      expect((await get(calls.list, { sort: 'name' })).code).toBe(400);
    });

    it('creates, edits, runs an action on and deletes a record, checked against the declared rules', async () => {
      const refused = await post(calls.save, { name: '', colour: 'red' });
      expect(refused.code).toBe(400);
      expect(refused.data).toMatchObject({ field: 'name' });
      expect((await post(calls.save, { name: 'Fan', colour: 'purple' })).code).toBe(400);

      const created = await post(calls.save, { name: 'Fan', colour: 'green', weight: 4, enabled: true });
      expect(created.code, created.msg).toBe(200);
      const id = (created.data as Row).id as number;
      expect(id).toBe(3);
      const row = (await list({ id: String(id) })).list[0]!;
      expect(row).toMatchObject({ id, name: 'Fan', colour: 'green', weight: 4, enabled: true });
      expect(typeof row.createTime).toBe('string');

      expect((await post(calls.save, { id, name: 'Desk fan', colour: 'green', weight: 5, enabled: false })).code).toBe(
        200,
      );
      expect((await list({ id: String(id) })).list[0]).toMatchObject({ name: 'Desk fan', weight: 5, enabled: false });

      const painted = await post(calls.action('paint'), { ids: [1, id], colour: 'blue' });
      expect(painted.code, painted.msg).toBe(200);
      expect((await list({ colour: 'blue' })).list.map((r) => r.id).sort()).toEqual([1, 2, id]);

      // The record edited above is disabled already: the action is refused there, as declared (`when`).
      expect((await post(calls.action('retire'), { id })).code).toBe(400);
      const retired = await post(calls.action('retire'), { id: 1 });
      expect(retired.code, retired.msg).toBe(200);
      expect((await list({ id: '1' })).list[0]).toMatchObject({ enabled: false });

      expect((await post(calls.remove, { ids: [id] })).code).toBe(200);
      expect((await list()).total).toBe(2);
      expect((await list({ id: String(id) })).total).toBe(0);
    });
  });
}

describe('the shipped maps and a resource they do not name', () => {
  it('offer it as unsupported (the menu and the probe read this offer), where the legacy map passes it through', () => {
    for (const file of ['shiku-im.json', 'openim-chat.json']) {
      const map = new BackendMap(loadBackendMap(path.join(REPO_ROOT, 'server/backend-map/bindings', file)), resources);
      expect(map.offer().unsupported.resources, file).toContain(GADGETS.id);
      expect(map.names(GADGETS.id), file).toBe(true);
    }
    const legacy = new BackendMap(loadBackendMap(path.join(REPO_ROOT, 'sandbox/legacy-map.json')), resources);
    expect(legacy.offer().unsupported.resources).not.toContain(GADGETS.id);
    expect(legacy.names(GADGETS.id)).toBe(false);
  });
});

describe('a declared list resource without a seed', () => {
  it('starts empty rather than failing', async () => {
    const bare = {
      ...GADGETS,
      id: 'testBare',
      path: `${PERMISSIONS.frequencyLimit}/test-bare`,
    } as const satisfies ListResource;
    const sandbox = await startSandbox({ seed: 5, withdrawalTickMs: 0, resources: [...RESOURCES, bare], seeds: {} });
    try {
      expect(sandbox.app.sandbox.table(bare).size).toBe(0);
    } finally {
      await sandbox.close();
    }
  });
});

/**
 * The same, end to end and in four places only: a copy of the repository gets a screen with a
 * permission of its own and a row action without inputs (declaration, route line, `npm run labels`
 * with one label translated, seed: support/four-places.ts), is built, and its gateway (the built
 * bundle, on the sandbox) shows the screen in Chromium: the menu entry by its label, the seeded
 * rows under the generated labels, the action publishing a draft in the sandbox's store. On the
 * shipped OpenIM and Shiku maps, which do not name the new resource, the screen is nowhere.
 */
const NO_CHROMIUM = skipWithout(existsSync(CHROMIUM_PATH) ? [] : ['chromium'], 'the four-places screen test');

describe.skipIf(NO_CHROMIUM)('a new screen in four places, built and opened in Chromium', () => {
  let copy: string;
  const started: NodeProcess[] = [];
  let browser: BrowserContext | null = null;

  beforeAll(async () => {
    copy = await buildWithNewScreen();
    browser = await launchChromium(tempDir('four-places-chromium-'));
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    for (const gateway of started) await gateway.stop();
    removeTempDirs();
  });

  /** The copy's built gateway on its sandbox, in a dialect through its shipped map. */
  async function gatewayOn(dialect: 'default' | 'shiku' | 'openim'): Promise<string> {
    const port = await freePort();
    const maps = { shiku: 'shiku-im.json', openim: 'openim-chat.json' } as const;
    const gateway = new NodeProcess([path.join(copy, 'dist/server/main.js')], {
      cwd: copy,
      env: {
        PORT: String(port),
        DATA_DIR: tempDir('four-places-data-'),
        UI_DIR: path.join(copy, 'dist/web'),
        LOG_LEVEL: 'warn',
        ...(dialect === 'default'
          ? {}
          : {
              SANDBOX_DIALECT: dialect,
              BACKEND_MAP: path.join(copy, 'server/backend-map/bindings', maps[dialect]),
            }),
      },
    });
    started.push(gateway);
    const base = `http://127.0.0.1:${port}`;
    await waitHealthy(gateway, base, 120_000);
    return base;
  }

  async function loggedIn(base: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${base}/login`);
    await submitLogin(page, 'admin');
    await page.waitForURL(/\/dashboard/);
    return { page, errors };
  }

  it('on the sandbox: in the menu by its label, its seeded rows, its action run, its labels shown', async () => {
    const base = await gatewayOn('default');
    const { page, errors } = await loggedIn(base);
    const entry = page.locator(`nav a[href="${ARTICLES.path}"]`);
    await expect.poll(() => entry.textContent()).toContain(ARTICLES.title);
    // Its group (Operations) may be closed: the entry is there either way, and leads here.
    expect(await entry.getAttribute('href')).toBe(ARTICLES.path);
    await page.goto(`${base}${ARTICLES.path}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe(ARTICLES.title);

    const rows = page.locator('[data-testid="list-table"]:not([aria-busy]) tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    // The generated skeleton: the humanised keys, written by npm run labels.
    const headers = await page.locator('[data-testid="list-table"] thead th').allTextContents();
    expect(headers.join('|')).toContain('Publish date');
    const draft = rows.filter({ hasText: 'Launch notes' });
    await expect.poll(() => draft.textContent()).toContain('Draft');

    await rowCommand(draft, '[data-action="publish"]');
    await expect.poll(() => draft.textContent()).toContain('Published');
    expect(await rowOffers(draft, '[data-action="publish"]')).toBe(false);
    // In the sandbox's store, read over HTTP as any client would.
    const cookie = await logIn(base);
    const answer = (await (await fetch(`${base}${ARTICLES.list}?id=1`, { headers: { cookie } })).json()) as {
      data: ListAnswer<Row>;
    };
    expect(answer.data.list[0]).toMatchObject({ id: 1, status: 'published' });
    expect(errors).toEqual([]);
  }, 180_000);

  for (const dialect of ['shiku', 'openim'] as const) {
    it(`on the ${dialect} map, which does not name it: not in the menu, not offered at its address`, async () => {
      const base = await gatewayOn(dialect);
      const { page, errors } = await loggedIn(base);
      // The menu is drawn (the users' screen, which both maps bind) without the new screen.
      await page.locator('nav a[href="/userpage/userset"]').first().waitFor({ state: 'attached' });
      expect(await page.locator(`nav a[href="${ARTICLES.path}"]`).count()).toBe(0);
      await page.goto(`${base}${ARTICLES.path}`);
      await page.getByTestId('not-offered').waitFor();
      // And the gateway refuses its calls without asking the backend.
      const cookie = await logIn(base);
      const answer = (await (await fetch(`${base}${ARTICLES.list}`, { headers: { cookie } })).json()) as {
        error?: string;
      };
      expect(answer.error).toBe('UNSUPPORTED_BY_BACKEND');
      expect(errors).toEqual([]);
    }, 180_000);
  }
});
