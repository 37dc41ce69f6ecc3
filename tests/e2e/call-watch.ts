import type { Page } from 'playwright-core';

/** What a page asked of the gateway, and what the gateway refused because the backend map leaves it out. */
export interface CallWatch {
  /** `METHOD /path` of every request the page made to the gateway's API. */
  asked: string[];
  /** The console's error messages (a failed resource load shows there as one). */
  consoleErrors: string[];
  /** `METHOD /path` of each call answered 404 UNSUPPORTED_BY_BACKEND; waits for the answers seen so far. */
  refused(): Promise<string[]>;
}

/** The gateway's calls: its own (/api) and the backend's (/manage, the site configuration under /api). */
const isCall = (pathname: string) => pathname.startsWith('/api/') || pathname.startsWith('/manage/');

/**
 * Records a page's calls from now on. A refusal is told by its answer's body, read as it arrives;
 * `refused()` waits for every answer seen so far to be read, so nothing is missed by timing.
 */
export function watchCalls(page: Page): CallWatch {
  const asked: string[] = [];
  const consoleErrors: string[] = [];
  const reads: Promise<string | null>[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (isCall(pathname)) asked.push(`${request.method()} ${pathname}`);
  });
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    // Files (a picture the file server lacks) are not calls the map binds.
    if (response.status() !== 404 || !isCall(pathname)) return;
    const call = `${response.request().method()} ${pathname}`;
    reads.push(
      response.text().then(
        (body) => (body.includes('UNSUPPORTED_BY_BACKEND') ? call : null),
        // The page went on before its body was read: the call still counts as made.
        () => `${call} (answer unread)`,
      ),
    );
  });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  return {
    asked,
    consoleErrors,
    refused: async () => (await Promise.all(reads)).filter((call): call is string => call !== null),
  };
}
