import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's one Chromium (a Playwright browser server); null when there is none to share. */
    chromiumEndpoint: string | null;
  }
}

/**
 * Global setup of the browser tests (vitest.config.ts): one Chromium for the whole run, which
 * every test file connects to and opens a fresh context in per page. Starting a Chromium costs
 * seconds on the 2-core machine; a context costs a tenth of that and keeps its cookies and
 * storage apart just the same. Without Chromium here, each file starts its own and fails as
 * it always did (tests/support/browser.ts).
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!existsSync(CHROMIUM_PATH)) {
    project.provide('chromiumEndpoint', null);
    return undefined;
  }
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
