import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's Chromium; CHROMIUM_PATH points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless, no sandbox, no GPU, and quiet: nothing of its own on the network. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

type ContextOptions = NonNullable<Parameters<typeof chromium.launchPersistentContext>[1]>;

/**
 * A Chromium of its own on a fresh profile folder: Playwright takes a user data directory only
 * through a persistent context, which also keeps cookies apart per browser.
 */
export function launchChromium(
  userDataDir: string,
  options: Omit<ContextOptions, 'executablePath' | 'headless' | 'args'> = {},
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    ...options,
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
}
