import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { SANDBOX_AES_KEY_TEXT } from '../../server/sandbox/key.js';
import { startSandbox, type StartedSandbox } from '../../server/sandbox/start.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH, UI_DIR, loginAs } from './harness.js';

/*
 * The finance badge end to end: sandbox backend -> gateway poll -> /api/events -> badge. The
 * shared harness polls every 10 s and lets the sandbox add withdrawals on its own timer, so this
 * suite builds its own rig: a 300 ms poll, no sandbox timer (every rise is one the test made),
 * and a gateway it can stop and start again on the same port.
 */
const POLL_MS = 300;
/** A few poll periods plus the browser's work; generous so a loaded machine does not flake. */
const RISE_TIMEOUT_MS = 10_000;

let sandbox: StartedSandbox;
let gateway: FastifyInstance;
let url: string;
let port: number;
let dataDir: string;
let profileDir: string;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];

async function startGateway(listenPort: number): Promise<FastifyInstance> {
  const config = loadConfig({
    CHAT_BACKEND_URL: sandbox.url,
    RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT,
    DATA_DIR: dataDir,
    UI_DIR,
    LOG_LEVEL: 'silent',
    WITHDRAWAL_POLL_MS: String(POLL_MS),
  });
  const app = await buildApp({ config, logger: false, sandbox: true, events: { heartbeatMs: 1_000, retryMs: 500 } });
  await app.listen({ port: listenPort, host: '127.0.0.1' });
  return app;
}

async function newPage(): Promise<Page> {
  const dir = await mkdtemp(path.join(profileDir, 'profile-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    baseURL: url,
  });
  contexts.push(context);
  // Counts the chime's oscillators from outside the app: the shell keeps no counter of its own,
  // and wrapping the Web Audio API shows the attempt whether or not autoplay lets it be heard.
  await context.addInitScript(() => {
    const w = window as unknown as { __chimeOscillators: number };
    w.__chimeOscillators = 0;
    const original = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function (this: AudioContext) {
      w.__chimeOscillators++;
      return original.call(this);
    };
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  return page;
}

const badge = (page: Page) => page.getByTestId('withdrawal-badge').first();
const shownCount = async (page: Page) => Number(await badge(page).getAttribute('data-count', { timeout: RISE_TIMEOUT_MS }));
const oscillators = (page: Page) => page.evaluate(() => (window as unknown as { __chimeOscillators: number }).__chimeOscillators);

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'console-e2e-events-data-'));
  profileDir = await mkdtemp(path.join(tmpdir(), 'console-e2e-events-chromium-'));
  sandbox = await startSandbox({ port: 0, withdrawalTickMs: 0 });
  gateway = await startGateway(0);
  port = (gateway.server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await gateway?.close();
  await sandbox?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (profileDir) await rm(profileDir, { recursive: true, force: true });
  expect(pageErrors).toEqual([]);
});

describe('finance badge fed by the event stream', () => {
  it('shows the pending count, rises with a chime when a withdrawal arrives, and carries its tooltip', async () => {
    const page = await newPage();
    await loginAs(page, 'admin');
    const seeded = sandbox.app.sandbox.pendingWithdrawalCount();
    expect(seeded).toBeGreaterThan(0);
    await expect.poll(() => shownCount(page), { timeout: RISE_TIMEOUT_MS }).toBe(seeded);
    // The first value of a stream is no rise: no chime yet.
    expect(await oscillators(page)).toBe(0);

    sandbox.app.sandbox.addPendingWithdrawal();
    sandbox.app.sandbox.addPendingWithdrawal();
    await expect.poll(() => shownCount(page), { timeout: RISE_TIMEOUT_MS }).toBe(seeded + 2);
    // The visible number follows the count (the sandbox seeds well under the 99+ cap).
    expect(await badge(page).textContent()).toContain(String(seeded + 2));
    await expect.poll(() => oscillators(page), { timeout: RISE_TIMEOUT_MS }).toBeGreaterThan(0);

    // Hidden until hover or focus, so the role query must be told to look at hidden elements.
    const tooltip = badge(page).getByRole('tooltip', { includeHidden: true });
    expect(await tooltip.textContent()).toBe('Withdrawal reviews need handling');
    expect(await tooltip.isVisible()).toBe(false);
    await badge(page).hover();
    await tooltip.waitFor({ state: 'visible' });
    expect(await badge(page).locator('[aria-label]').getAttribute('aria-label')).toBe(`Withdrawal reviews need handling: ${seeded + 2}`);
  });

  it('shows no badge to the operator, who does not review withdrawals', async () => {
    const page = await newPage();
    await loginAs(page, 'operator');
    sandbox.app.sandbox.addPendingWithdrawal();
    // Let several poll periods pass: a badge that were going to appear would have by now.
    await page.waitForTimeout(POLL_MS * 5);
    expect(await page.getByTestId('withdrawal-badge').count()).toBe(0);
    const status = await page.evaluate(async () => (await fetch('/api/events', { headers: { accept: 'text/event-stream' } })).status);
    expect(status).toBe(403);
  });

  it('reconnects by itself after the gateway restarts on the same port', async () => {
    const page = await newPage();
    await loginAs(page, 'admin');
    const before = sandbox.app.sandbox.pendingWithdrawalCount();
    await expect.poll(() => shownCount(page), { timeout: RISE_TIMEOUT_MS }).toBe(before);
    const marker = await page.evaluate(() => {
      const w = window as unknown as { __sameDocument: string };
      w.__sameDocument = Math.random().toString(36);
      return w.__sameDocument;
    });

    await gateway.close();
    // A request while the gateway is down must fail, or the restart below proves nothing.
    const down = await page.evaluate(() => fetch('/healthz').then(() => 'up', () => 'down'));
    expect(down).toBe('down');
    gateway = await startGateway(port);

    sandbox.app.sandbox.addPendingWithdrawal();
    const after = sandbox.app.sandbox.pendingWithdrawalCount();
    expect(after).toBe(before + 1);
    // The browser's retry and the shell's own back-off both run on seconds, so wait generously.
    await expect.poll(() => shownCount(page), { timeout: 45_000, interval: 250 }).toBe(after);
    // Same document: the count arrived without a reload.
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: string }).__sameDocument)).toBe(marker);
  }, 60_000);

  // Last in the file: the second login replaces the admin token that earlier tests' pages hold.
  it("opens the 'logged in elsewhere' dialog when another login replaces the session, then goes to login", async () => {
    const page = await newPage();
    await loginAs(page, 'admin');
    await badge(page).waitFor({ timeout: RISE_TIMEOUT_MS });

    // The same account logs in again from elsewhere; the sandbox keeps one token per account.
    const again = await fetch(`${url}/manage/logIn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ account: 'admin', password: 'admin123', code: '' }),
    });
    expect(((await again.json()) as { code: number }).code).toBe(200);

    // The admin stays idle on the dashboard: the gateway's next poll meets the dead token.
    const dialog = page.getByRole('dialog', { name: 'Logged out' });
    await dialog.waitFor({ timeout: RISE_TIMEOUT_MS });
    expect(await dialog.textContent()).toContain('Your account has logged in elsewhere. Please log in again.');
    expect(await dialog.getByRole('button').allTextContents()).toEqual(['Close']);
    // Close button only: Escape does not dismiss it.
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);

    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL((u) => u.pathname === '/login', { timeout: RISE_TIMEOUT_MS });
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/dashboard');
    await page.getByLabel('Account').waitFor();
    const sessionAfter = await page.evaluate(async () => ((await (await fetch('/api/session')).json()) as { loggedIn: boolean }).loggedIn);
    expect(sessionAfter).toBe(false);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });
});
