import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBackend, type FakeBackend } from '../support/fake-backend.js';
import { useHarness } from './harness.js';

/*
 * /plate/* is the file server on the console's own origin, and the console's CSP admits scripts
 * of that origin. Proven in Chromium: whatever the file server answers, a console page cannot
 * run it as a script, an uploaded SVG runs no script when opened, and an uploaded HTML page is
 * downloaded, never rendered as the console.
 */

const EVIL_JS = 'window.pwned = true; fetch("/plate/beacon?js");';
const FILES: Record<string, { type: string; body: string }> = {
  '/plate/evil.js': { type: 'application/javascript', body: EVIL_JS },
  '/plate/evil-as-image.png': { type: 'image/png', body: EVIL_JS },
  '/plate/evil.svg': {
    type: 'image/svg+xml',
    body: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>fetch("/plate/beacon?svg")</script></svg>',
  },
  '/plate/evil.html': {
    type: 'text/html',
    body: '<!doctype html><script>fetch("/plate/beacon?html")</script><p>evil</p>',
  },
};

const env: Record<string, string> = {};
let files: FakeBackend;

// Registered before the harness, so the file server's address is in its environment.
beforeAll(async () => {
  files = await startFakeBackend();
  for (const [path, file] of Object.entries(FILES)) {
    files.route(`GET ${path}`, (_call, res) => {
      res.writeHead(200, { 'content-type': file.type });
      res.end(file.body);
    });
  }
  files.route('GET /plate/beacon', (_call, res) => {
    res.writeHead(204);
    res.end();
  });
  env.FILE_SERVER_URL = files.url;
});
afterAll(async () => {
  await files?.close();
});

const h = useHarness({ env });

const beacons = () => files.calls.filter((c) => c.url.startsWith('/plate/beacon')).map((c) => c.url);

/** The paths the page asks for from now on, as the page's own request events tell them. */
function pageRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => paths.push(new URL(request.url()).pathname));
  return paths;
}

/** Runs in the page: adds <script src> and resolves with which of load and error it fired. */
function addScript(path: string): Promise<string> {
  return new Promise<string>((resolve) => {
    const script = document.createElement('script');
    script.src = path;
    script.onload = () => resolve('load');
    script.onerror = () => resolve('error');
    document.head.append(script);
  });
}

describe('a /plate answer in a console page', () => {
  it.each(['/plate/evil.js', '/plate/evil-as-image.png'])('cannot run %s as a script', async (path) => {
    const { page } = await h.newPage();
    const messages: string[] = [];
    page.on('console', (message) => messages.push(message.text()));
    // A page of the console's origin, under the console's own CSP (script-src 'self').
    await page.goto('/login');
    await page.getByLabel('Account').waitFor();

    const outcome = await page.evaluate(addScript, path);
    expect(outcome).toBe('error');
    expect(await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned)).toBeUndefined();
    // It was fetched: the browser refused it for its type, with nosniff in force.
    expect(files.calls.some((c) => c.url === path)).toBe(true);
    await expect.poll(() => messages.join('\n')).toMatch(/Refused to execute script .*MIME type/);
    // The bytes themselves are reachable, so it is the answer's type, not a missing file, that stopped it.
    expect(await page.evaluate(async (p) => (await fetch(p)).status, path)).toBe(200);
    expect(beacons()).toEqual([]);
  });

  it('an SVG opened on its own runs no script', async () => {
    const { page } = await h.newPage();
    const asked = pageRequests(page);
    const answer = await page.goto('/plate/evil.svg');
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()['content-security-policy']).toContain('sandbox');
    // The document has loaded, so its inline script ran or never will; a beacon it sent is a
    // request of the page's, told to the test before the load that ends goto().
    expect(asked.filter((p) => p.startsWith('/plate/beacon'))).toEqual([]);
    expect(beacons()).toEqual([]);
  });

  it('an HTML page is downloaded, never rendered on the console origin', async () => {
    const { page } = await h.newPage();
    const asked = pageRequests(page);
    const download = page.waitForEvent('download');
    await page.goto('/plate/evil.html').catch(() => undefined); // "Download is starting" aborts the navigation
    expect((await download).suggestedFilename()).toBe('evil.html');
    // Nothing was rendered: the page is still the blank one it started as, and sent no beacon.
    expect(await page.evaluate(() => location.href)).toBe('about:blank');
    expect(asked.filter((p) => p.startsWith('/plate/beacon'))).toEqual([]);
    expect(beacons()).toEqual([]);
  });
});
