import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Download, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { GATEWAY_PATHS } from '../../server/contract/index.js';
import type { EventsOptions } from '../../server/events/plugin.js';
import type { SandboxOptions } from '../../sandbox/app.js';
import { SANDBOX_AES_KEY_TEXT } from '../../sandbox/key.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { withSandboxServices } from '../../server/backend-map/services.js';
import { openBrowser } from '../support/browser.js';
import { postLogin, submitLogin, type Account } from '../support/login.js';

export const UI_DIR = path.resolve('dist/web');
/** How many of a page's last gateway calls a failed test's dump shows. */
const RECENT_CALLS = 15;

export interface HarnessOptions {
  /** The gateway's withdrawal poll period (WITHDRAWAL_POLL_MS); the gateway's default (10 s) when absent. */
  pollMs?: number;
  /** Heartbeat and retry periods of /api/events; the gateway's defaults when absent. */
  events?: EventsOptions;
  /** The sandbox backend's options; `withdrawalTickMs: 0` leaves every new withdrawal to the test. */
  sandbox?: SandboxOptions;
  /** More of the gateway's environment (FILE_SERVER_URL, LOGIN_MAX_FAILURES...). */
  env?: Record<string, string>;
}

export interface NewPageOptions {
  width?: number;
  height?: number;
  locale?: string;
  /** Runs in every document of the page before the app's own scripts (context.addInitScript). */
  initScript?: () => void;
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
}

export interface Harness {
  /** Gateway base URL, no trailing slash; the same across stopGateway()/startGateway(). */
  url: string;
  sandbox: StartedSandbox;
  /** Uncaught errors of every page opened so far; a test run ends with none. */
  pageErrors: string[];
  newPage(options?: NewPageOptions): Promise<OpenedPage>;
  /** A new page, logged in through the form as `who`; `loginPath` as for loginAs(). */
  pageAs(who: Account, options?: NewPageOptions & { loginPath?: string }): Promise<OpenedPage>;
  /** Stops the gateway; the sandbox and the open pages stay. */
  stopGateway(): Promise<void>;
  /** Starts the gateway again on the same port, with the same configuration and data folder. */
  startGateway(): Promise<void>;
  close(): Promise<void>;
}

/** What useHarness needs beside the Harness: the pages a test opened close when it ends. */
interface ScopedHarness extends Harness {
  /** From now on, new pages belong to the running test. */
  beginTest(): void;
  /** Closes the pages the test opened; pages opened outside a test (in beforeAll) stay open. */
  endTest(): Promise<void>;
  /** What each page the test opened shows: its address, open dialogs, toasts and first words. */
  describeTestPages(): Promise<string>;
}

/**
 * Sandbox backend on its own port, the gateway in front of it serving dist/web, and a headless
 * Chromium. The UI must have been built (`node build.mjs`) beforehand.
 */
export async function startHarness(options: HarnessOptions = {}): Promise<ScopedHarness> {
  if (!existsSync(path.join(UI_DIR, 'index.html'))) {
    throw new Error('dist/web/index.html is missing: run `node build.mjs` before the browser tests');
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'console-e2e-data-'));
  const sandbox = await startSandbox({ ...options.sandbox, port: 0 });
  const config = loadConfig({
    CHAT_BACKEND_URL: sandbox.url,
    RESPONSE_AES_KEY: SANDBOX_AES_KEY_TEXT,
    DATA_DIR: dataDir,
    UI_DIR,
    LOG_LEVEL: 'silent',
    ...(options.pollMs === undefined ? {} : { WITHDRAWAL_POLL_MS: String(options.pollMs) }),
    ...options.env,
  });
  // As in sandbox mode: a map's service without its variable is the sandbox's service of that name.
  if (config.backendMap)
    config.backendMap = {
      ...config.backendMap,
      services: withSandboxServices(config.backendMap.services, sandbox.services),
    };
  let gateway: FastifyInstance | null = null;
  let port = 0;
  const startGateway = async () => {
    if (gateway) throw new Error('the gateway is already running');
    const app = await buildApp({
      config,
      logger: false,
      sandbox: true,
      ...(options.events ? { events: options.events } : {}),
    });
    await app.listen({ port, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
    gateway = app;
  };
  const stopGateway = async () => {
    const app = gateway;
    gateway = null;
    await app?.close();
  };
  await startGateway();
  const url = `http://127.0.0.1:${port}`;

  // One Chromium for the file (the run's shared one when there is one), a context per page.
  let browser: Promise<Browser> | null = null;
  const contexts: BrowserContext[] = [];
  // A page left open keeps its timers, polls and event stream going for the rest of the file,
  // and a long file then starves the tests at its end on 2 cores: a test's pages close with it.
  let testContexts: BrowserContext[] | null = null;
  const pageErrors: string[] = [];
  const recentCalls = new WeakMap<Page, string[]>();
  /**
   * Each page gets a context of its own (cookies, storage, cache), as a browser with a fresh
   * profile would have, without a Chromium start per page.
   */
  const newPage = async ({
    width = 1280,
    height = 800,
    locale = 'en-US',
    initScript,
  }: NewPageOptions = {}): Promise<OpenedPage> => {
    browser ??= openBrowser();
    const context = await (await browser).newContext({ viewport: { width, height }, locale, baseURL: url });
    contexts.push(context);
    testContexts?.push(context);
    if (initScript) await context.addInitScript(initScript);
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    // The page's last calls to the gateway, for a failure's dump: whether a call a step waited on
    // was sent, and what came back.
    const calls: string[] = [];
    const noteCall = (line: string) => {
      calls.push(line);
      if (calls.length > RECENT_CALLS) calls.shift();
    };
    const since = Date.now();
    page.on('response', (r) => {
      const { pathname } = new URL(r.url());
      if (pathname.startsWith('/manage/') || pathname.startsWith('/api/'))
        noteCall(`+${Date.now() - since}ms ${r.request().method()} ${pathname} ${r.status()}`);
    });
    page.on('requestfailed', (r) =>
      noteCall(`+${Date.now() - since}ms ${r.method()} ${new URL(r.url()).pathname} failed: ${r.failure()?.errorText}`),
    );
    recentCalls.set(page, calls);
    return { context, page };
  };
  return {
    url,
    sandbox,
    pageErrors,
    newPage,
    async pageAs(who, { loginPath, ...pageOptions } = {}) {
      const opened = await newPage(pageOptions);
      await loginAs(opened.page, who, loginPath);
      return opened;
    },
    stopGateway,
    startGateway,
    beginTest() {
      testContexts = [];
    },
    async endTest() {
      const opened = testContexts ?? [];
      testContexts = null;
      for (const c of opened) {
        await c.close().catch(() => {});
        contexts.splice(contexts.indexOf(c), 1);
      }
    },
    async describeTestPages() {
      const lines: string[] = [];
      for (const context of testContexts ?? []) {
        for (const page of context.pages()) {
          const look = page
            .evaluate(() => {
              const text = (el: Element) => (el as HTMLElement).innerText.replace(/\s+/g, ' ').trim().slice(0, 300);
              return {
                dialogs: [...document.querySelectorAll('dialog[open], [role="dialog"], [role="alertdialog"]')].map(
                  text,
                ),
                toasts: [...document.querySelectorAll('[data-toast]')].map(text),
                // A dialog's text is cut short: its buttons, and whether each waits, say what it was doing.
                buttons: [...document.querySelectorAll('[role="dialog"] button, [role="alertdialog"] button')].map(
                  (b) => `${text(b)}${(b as HTMLButtonElement).disabled ? ' (disabled)' : ''}`,
                ),
                body: text(document.body),
              };
            })
            .catch((error: unknown) => ({ unreadable: String(error) }));
          // A page too busy to answer is itself the clue; it must not hold the next test.
          const seen = await Promise.race([
            look,
            new Promise((resolve) => setTimeout(resolve, 5_000, { unreadable: 'no answer in 5 s' })),
          ]);
          lines.push(`${page.url()}: ${JSON.stringify(seen)}`);
          lines.push(`  last calls: ${(recentCalls.get(page) ?? []).join(' | ') || 'none'}`);
        }
      }
      return lines.join('\n');
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      // The shared Chromium only disconnects; a file's own one ends.
      if (browser) await (await browser).close();
      await stopGateway();
      await sandbox.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SuiteOptions extends HarnessOptions {
  /** Parts of the uncaught page errors the suite raises on purpose; any other one fails the run. */
  plantedErrors?: readonly string[];
  /** false: the suite's page errors are kept in pageErrors but not checked at its end. */
  checkPageErrors?: boolean;
}

/**
 * The harness of one test file: started before its first test, closed after its last, and then
 * no page may have had an uncaught error (but for `plantedErrors`). Use it inside tests and in
 * hooks registered after this call. A page opened inside a test closes when that test ends; one
 * opened in a `beforeAll` stays open for the whole file (a shared logged-in page).
 */
export function useHarness(options: SuiteOptions = {}): Harness {
  const { plantedErrors = [], checkPageErrors = true, ...harnessOptions } = options;
  // A browser walk is a few dozen steps, each with Playwright's own 30 s wait: at the suite's 30 s
  // a walk that is merely slow on a busy machine fails as a whole, and a step that never comes
  // fails as "timed out" instead of naming what it waited for. Longer walks say so themselves.
  vi.setConfig({ testTimeout: 90_000 });
  let started: ScopedHarness | undefined;
  beforeAll(async () => {
    started = await startHarness(harnessOptions);
  });
  beforeEach(() => started?.beginTest());
  afterEach(async (context) => {
    // A failure on a busy CI machine is seldom reproduced here: what the pages showed is the clue.
    if (context.task.result?.state === 'fail' && started) {
      console.error(`The test's pages when it failed:\n${await started.describeTestPages()}`);
    }
    await started?.endTest();
  });
  afterAll(async () => {
    const errors = (started?.pageErrors ?? []).filter((e) => !plantedErrors.some((p) => e.includes(p)));
    await started?.close();
    if (checkPageErrors) expect(errors).toEqual([]);
  });
  const h = () => {
    if (!started) throw new Error('the harness is not running: use it inside a test');
    return started;
  };
  return {
    get url() {
      return h().url;
    },
    get sandbox() {
      return h().sandbox;
    },
    get pageErrors() {
      return h().pageErrors;
    },
    newPage: (pageOptions) => h().newPage(pageOptions),
    pageAs: (who, pageOptions) => h().pageAs(who, pageOptions),
    stopGateway: () => h().stopGateway(),
    startGateway: () => h().startGateway(),
    close: () => h().close(),
  };
}

/**
 * Opens `path` inside the page, as the app's own links do (history entry and popstate, no reload):
 * the console keeps its session, its state and the screens it has kept.
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** Logs in through the form, starting at `startPath` (a /login URL with a redirect, say), and waits for the console frame. */
export async function loginAs(page: Page, who: Account, startPath = '/login'): Promise<void> {
  await page.goto(startPath);
  await submitLogin(page, who);
  await page.getByTestId('layout').waitFor();
}

/**
 * Logs `who` in again from outside the browser, as another device would: the sandbox keeps one
 * token per account, so the browser's session dies. Returns the envelope code of the answer.
 */
export async function loginElsewhere(url: string, who: Account): Promise<number> {
  return ((await (await postLogin(url, who)).json()) as { code: number }).code;
}

/** Whether the gateway sees the page's cookies as a session, asked from inside the page. */
export function sessionLoggedIn(page: Page): Promise<boolean> {
  return page.evaluate(
    async (sessionPath) => ((await (await fetch(sessionPath)).json()) as { loggedIn: boolean }).loggedIn,
    GATEWAY_PATHS.session,
  );
}

/** The texts of the error toasts shown now. */
export function errorToasts(page: Page): Promise<string[]> {
  return page.locator('[data-toast="error"]').allTextContents();
}

/** Saves a view preference as the console does (`console.<name>` in localStorage); it applies from the next load. */
export async function storePreference(
  page: Page,
  name: 'language' | 'size' | 'colorScheme',
  value: string,
): Promise<void> {
  await page.evaluate(([key, text]) => localStorage.setItem(key, text), [
    `console.${name}`,
    JSON.stringify(value),
  ] as const);
}

/**
 * Clicks one of a list row's commands: a table shows a row's first two as buttons and the others
 * in its "⋯" menu, so a command not among the buttons is looked for in the menu. A command that
 * follows another (unmute after mute) appears only once the list has read the row again: until
 * then the menu is closed and looked at again, up to `timeout`.
 */
export async function rowCommand(row: Locator, selector: string, timeout = 30_000): Promise<void> {
  // The row's commands must be drawn before asking which of them are buttons.
  await row.locator('[data-command], [data-testid="row-more"]').first().waitFor();
  const page = row.page();
  const deadline = Date.now() + timeout;
  for (;;) {
    const button = row.locator(selector);
    if ((await button.count()) > 0) return button.click();
    await row.getByTestId('row-more').click();
    const menu = page.getByTestId('row-menu');
    await menu.waitFor();
    const item = menu.locator(selector);
    if ((await item.count()) > 0) return item.click();
    if (Date.now() > deadline) throw new Error(`the row never offered ${selector}`);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await page.waitForTimeout(200);
  }
}

/** Whether a row offers a command, as a button or in its "⋯" menu (which it closes again). */
export async function rowOffers(row: Locator, selector: string): Promise<boolean> {
  await row.locator('[data-command], [data-testid="row-more"]').first().waitFor();
  if ((await row.locator(selector).count()) > 0) return true;
  if ((await row.getByTestId('row-more').count()) === 0) return false;
  await row.getByTestId('row-more').click();
  const menu = row.page().getByTestId('row-menu');
  await menu.waitFor();
  const offered = (await menu.locator(selector).count()) > 0;
  await row.page().keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  return offered;
}

/**
 * With DOCS_SCREENSHOTS=1, saves what the page shows as docs/images/<name> for the documents;
 * otherwise does nothing (the tests' checks are the same either way).
 */
export async function docsScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.DOCS_SCREENSHOTS === '1') await page.screenshot({ path: path.resolve('docs/images', name) });
}

/**
 * A download's text. The shared browser is connected remotely, where `download.path()` is not
 * available: the file is saved to a temp folder and read back.
 */
export async function downloadedText(download: Download): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'console-e2e-download-'));
  const file = path.join(dir, download.suggestedFilename() || 'download');
  await download.saveAs(file);
  try {
    return await readFile(file, 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
