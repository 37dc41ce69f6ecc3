import { chromium, type Browser } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.js';

/**
 * A Chromium for one test file: the run's shared one (tests/support/chromium-server.ts) when the
 * global setup started it, else one of the file's own. Open a page in a new context of it
 * (`browser.newContext()`): a context has its own cookies, storage and cache, as a browser of
 * its own would, for a fraction of the start-up. `close()` on the shared one only disconnects.
 */
export async function openBrowser(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  if (endpoint) return chromium.connect(endpoint);
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}
