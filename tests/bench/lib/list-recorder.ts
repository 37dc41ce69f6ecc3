import type { Page } from 'playwright-core';
import { DRAWN_WHOLE_UP_TO } from '../../../web/engine/list/row-window.js';

/** How long one change (a page, a sort, a screen switch) may take before the bench gives up. */
export const STEP_TIMEOUT_MS = 15_000;

/**
 * Runs in the page before the app: wraps fetch so that each list answer, once the app has parsed
 * it, is recorded (its row ids, count, total), and offers wait(), which resolves when the rows the
 * table draws are all rows of the latest answer recorded since arm(), each at its place, and a
 * frame has been painted. A page of up to DRAWN_WHOLE_UP_TO rows draws them all; a longer one
 * (100 rows) draws those in and near the view, so there "drawn" means at least a view's worth of
 * its rows. A plain string, so nothing of the bundler's output reaches the page.
 */
export const PAGE_SCRIPT = `(() => {
  // Any management list call: the users list, and the other list a screen switch lands on.
  const LIST = /\\/manage\\/.+\\/list(\\?|$)/;
  // Rows of a windowed page that fill a 720 px view at the smallest row height.
  const MIN_DRAWN = 12;
  try { performance.setResourceTimingBufferSize(20000); } catch (e) {}
  const state = { records: [], armed: 0, clickAt: null, list: null };
  // The last click's time, in the page clock: where a sort or a screen switch starts.
  document.addEventListener('click', (event) => { state.clickAt = event.timeStamp; }, true);
  const realFetch = window.fetch.bind(window);
  window.fetch = function (input, init) {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const sent = realFetch(input, init);
    if (!LIST.test(new URL(String(url), location.href).pathname + '?')) return sent;
    const sentAt = performance.now();
    return sent.then((response) => {
      const json = response.json.bind(response);
      response.json = () => json().then((body) => {
        const data = body && body.data;
        const list = data && Array.isArray(data.list) ? data.list : [];
        state.records.push({
          url: response.url, sentAt, parsedAt: performance.now(), status: response.status,
          total: data && typeof data.total === 'number' ? data.total : null, count: list.length,
          ids: list.map((row) => String(row.id)),
        });
        return body;
      });
      return response;
    });
  };
  const timingOf = (record) => {
    const entries = performance.getEntriesByType('resource').filter((e) => e.name === record.url && e.startTime >= record.sentAt - 5);
    const e = entries[0];
    return e ? { requestStart: e.requestStart, responseStart: e.responseStart, responseEnd: e.responseEnd, startTime: e.startTime, transferSize: e.transferSize, encodedBodySize: e.encodedBodySize } : null;
  };
  // A screen switch: watched from before the click (armScreen), so the rows are seen in the task
  // that puts them in (a MutationObserver runs at its end) and the frame waited for is the one
  // that paints them. Looked for only after the click, rows already in would be timed to a later
  // frame than the one that showed them.
  const watchScreen = (resource, timeoutMs) => new Promise((resolve) => {
    const selector = '[data-testid="list-screen"][data-resource="' + resource + '"] [data-testid="list-table"] tbody tr[data-row-id]';
    let done = false;
    const finish = (value) => { done = true; observer.disconnect(); clearTimeout(timer); resolve(value); };
    const check = () => {
      if (done || !document.querySelector(selector)) return;
      const inDomAt = performance.now();
      done = true;
      observer.disconnect();
      clearTimeout(timer);
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          channel.port1.close();
          resolve({ ok: true, clickAt: state.clickAt, inDomAt, paintedAt: performance.now() });
        };
        channel.port2.postMessage(0);
      });
    };
    const observer = new MutationObserver(check);
    observer.observe(document.documentElement, { childList: true, subtree: true });
    const timer = setTimeout(() => { if (!done) finish({ ok: false, reason: 'timeout' }); }, timeoutMs);
    check();
  });
  // A page or sort change: watched from arm(), before the click, for the same reason as a screen
  // switch. Started only once the click had returned to the bench (and its answer had come), the
  // watch found rows the click's answer had already put in, and timed them to a later frame.
  const watchList = (timeoutMs) => new Promise((resolve) => {
    const deadline = performance.now() + timeoutMs;
    let done = false;
    let observer = null;
    let timer = null;
    const finish = (value) => {
      done = true;
      if (observer) observer.disconnect();
      if (timer) clearInterval(timer);
      resolve(value);
    };
    const check = () => {
      if (done) return;
      if (performance.now() > deadline) {
        const rows = document.querySelectorAll('[data-testid="list-table"] tbody tr[data-row-id]').length;
        return finish({ ok: false, reason: 'timeout', answers: state.records.length - state.armed, rows });
      }
      if (state.records.length <= state.armed) return;
      const record = state.records[state.records.length - 1];
      const rows = document.querySelectorAll('[data-testid="list-table"] tbody tr[data-row-id]');
      // A longer page draws the rows in and near the view only: every row drawn must be the
      // answer's row at its place, and as many as the view holds must be drawn.
      if (rows.length === 0 || rows.length < Math.min(record.count, MIN_DRAWN)) return;
      if (record.count <= ${DRAWN_WHOLE_UP_TO} && rows.length !== record.count) return;
      for (const row of rows) {
        const at = Number(row.getAttribute('data-row-index'));
        if (record.ids[at] !== row.getAttribute('data-row-id')) return;
      }
      const inDomAt = performance.now();
      if (observer) observer.disconnect();
      if (timer) clearInterval(timer);
      done = true;
      requestAnimationFrame(() => {
        const frameAt = performance.now();
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          const paintedAt = performance.now();
          channel.port1.close();
          // The resource entry can be queued after the paint on a busy machine: look again
          // for up to a second (the stamps above are already taken).
          let tries = 0;
          const answer = () => {
            const timing = timingOf(record);
            if (!timing && tries++ < 20) return void setTimeout(answer, 50);
            resolve({ ok: true, record, answers: state.records.length - state.armed, inDomAt, frameAt, paintedAt, timing, clickAt: state.clickAt, url: location.pathname + location.search });
          };
          answer();
        };
        channel.port2.postMessage(0);
      });
    };
    observer = new MutationObserver(check);
    observer.observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-row-id'] });
    timer = setInterval(check, 50);
    check();
  });
  window.__benchList = {
    armScreen(resource, timeoutMs) { state.clickAt = null; state.screen = watchScreen(resource, timeoutMs); },
    waitScreen() { return state.screen; },
    arm(timeoutMs) { state.armed = state.records.length; state.clickAt = null; state.list = watchList(timeoutMs); },
    // Unarmed (a page's first load), the watch starts here.
    wait(timeoutMs) {
      const watched = state.list || watchList(timeoutMs);
      state.list = null;
      return watched;
    },
  };
})();`;

export interface ListRecord {
  url: string;
  sentAt: number;
  parsedAt: number;
  status: number;
  total: number | null;
  count: number;
  /** The answer's row ids in order. */
  ids: string[];
}

export type WaitAnswer =
  | { ok: false; reason: string; answers: number; rows: number }
  | {
      ok: true;
      record: ListRecord;
      answers: number;
      inDomAt: number;
      frameAt: number;
      paintedAt: number;
      /** The click that started the change (event timeStamp, page clock); null when none was seen. */
      clickAt: number | null;
      url: string;
      timing: {
        requestStart: number;
        responseStart: number;
        responseEnd: number;
        startTime: number;
        transferSize: number;
        encodedBodySize: number;
      } | null;
    };

export async function waitForList(page: Page): Promise<Extract<WaitAnswer, { ok: true }>> {
  const answer = await page.evaluate(
    (timeoutMs) =>
      (window as unknown as { __benchList: { wait(ms: number): Promise<WaitAnswer> } }).__benchList.wait(timeoutMs),
    STEP_TIMEOUT_MS,
  );
  if (!answer.ok)
    throw new Error(
      `the list did not show its answer within ${STEP_TIMEOUT_MS} ms (answers seen: ${answer.answers}, rows: ${answer.rows})`,
    );
  if (answer.record.status !== 200) throw new Error(`the list call answered HTTP ${answer.record.status}`);
  return answer;
}

/** Starts watching for the next list answer's rows, before the click that asks for them. */
export async function arm(page: Page): Promise<void> {
  await page.evaluate(
    (timeoutMs) => (window as unknown as { __benchList: { arm(ms: number): void } }).__benchList.arm(timeoutMs),
    STEP_TIMEOUT_MS,
  );
}

export type ScreenAnswer =
  { ok: false; reason: string } | { ok: true; clickAt: number | null; inDomAt: number; paintedAt: number };

/**
 * Starts watching for a list screen of `resource` with rows, before the click that switches to it:
 * a screen drawn in the click's own task is then timed to the frame that paints it.
 */
export async function armScreen(page: Page, resource: string): Promise<void> {
  await page.evaluate(
    ([id, timeoutMs]) =>
      (window as unknown as { __benchList: { armScreen(r: string, ms: number): void } }).__benchList.armScreen(
        id,
        timeoutMs,
      ),
    [resource, STEP_TIMEOUT_MS] as const,
  );
}

/** Waits for the screen armScreen watches for to show its rows, painted; then the click-to-painted time. */
export async function waitForScreen(page: Page, resource: string): Promise<number> {
  const answer = await page.evaluate(() =>
    (window as unknown as { __benchList: { waitScreen(): Promise<ScreenAnswer> } }).__benchList.waitScreen(),
  );
  if (!answer.ok) throw new Error(`the ${resource} list screen did not show rows within ${STEP_TIMEOUT_MS} ms`);
  if (answer.clickAt === null) throw new Error('no click was seen before the screen switch');
  return answer.paintedAt - answer.clickAt;
}
