import type { Page, Request } from 'playwright-core';

/**
 * How long the page must have had no request under way before the next measured interaction:
 * a page's pictures come in batches after its rows (each batch waits up to 300 ms for its
 * slowest), so a shorter quiet could fall between two batches.
 */
export const SETTLE_QUIET_MS = 400;

/** Requests that never end while the page is open: the withdrawal event stream. */
const LONG_LIVED = /\/api\/events(?:[?#]|$)/;

/**
 * Tracks the page's requests so a bench can wait, before its next click, until what the last
 * interaction started (its pictures, a refetch) is over, as an administrator reading the page
 * would. Without this, the next change overlapped the previous page's picture fetches, which on
 * two cores compete for the processor with the change being measured.
 */
export function trackRequests(page: Page): { settled(timeoutMs: number): Promise<void> } {
  const pending = new Set<Request>();
  let lastActivity = performance.now();
  const start = (request: Request) => {
    if (LONG_LIVED.test(request.url())) return;
    pending.add(request);
    lastActivity = performance.now();
  };
  const end = (request: Request) => {
    if (!pending.delete(request)) return;
    lastActivity = performance.now();
  };
  page.on('request', start);
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  return {
    async settled(timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      while (!(pending.size === 0 && performance.now() - lastActivity >= SETTLE_QUIET_MS)) {
        if (performance.now() > deadline)
          throw new Error(
            `the page kept ${pending.size} request(s) under way for ${timeoutMs} ms: ${[...pending]
              .map((r) => r.url())
              .join(', ')}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}
