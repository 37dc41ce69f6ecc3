import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { SANDBOX_AES_KEY_TEXT } from '../../server/sandbox/key.js';
import { startSandbox, type StartedSandbox } from '../../server/sandbox/start.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const UI_DIR = path.resolve('dist/web');
/** The user data directory is given by launchPersistentContext, not as an argument. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const ACCOUNTS = {
  admin: { account: 'admin', password: 'admin123' },
  operator: { account: 'operator', password: 'operator123' },
} as const;

export interface Harness {
  /** Gateway base URL, no trailing slash. */
  url: string;
  sandbox: StartedSandbox;
  /** Uncaught errors of every page opened so far; a test run ends with none. */
  pageErrors: string[];
  newPage(options?: { width?: number; height?: number; locale?: string }): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

/**
 * Sandbox backend on its own port, the gateway in front of it serving dist/web, and a headless
 * Chromium. The UI must have been built (`node build.mjs`) beforehand.
 */
export async function startHarness(): Promise<Harness> {
  if (!existsSync(path.join(UI_DIR, 'index.html'))) {
    throw new Error('dist/web/index.html is missing: run `node build.mjs` before the browser tests');
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'console-e2e-data-'));
  const profileDir = await mkdtemp(path.join(tmpdir(), 'console-e2e-chromium-'));
  const sandbox = await startSandbox({ port: 0 });
  const config = loadConfig({
    CHAT_BACKEND_URL: sandbox.url,
    RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT,
    DATA_DIR: dataDir,
    UI_DIR,
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({ config, logger: false, sandbox: true });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];
  return {
    url,
    sandbox,
    pageErrors,
    /**
     * Each page gets its own browser with a fresh profile directory: Playwright only accepts a
     * user data directory through a persistent context, which also isolates cookies per test.
     */
    async newPage({ width = 1280, height = 800, locale = 'en-US' } = {}) {
      const dir = await mkdtemp(path.join(profileDir, 'profile-'));
      const context = await chromium.launchPersistentContext(dir, {
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: CHROMIUM_ARGS,
        viewport: { width, height },
        locale,
        baseURL: url,
      });
      contexts.push(context);
      const page = context.pages()[0] ?? (await context.newPage());
      page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
      return { context, page };
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await app.close();
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
      await rm(profileDir, { recursive: true, force: true });
    },
  };
}

/** Logs in through the form; `next` is the URL expected after the login. */
export async function loginAs(page: Page, who: keyof typeof ACCOUNTS, startPath = '/login'): Promise<void> {
  const { account, password } = ACCOUNTS[who];
  await page.goto(startPath);
  await page.getByLabel('Account').fill(account);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByTestId('layout').waitFor();
}
