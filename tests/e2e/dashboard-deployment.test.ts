import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { RunnerSwitch } from '../../server/contract/index.js';
import { CALLS } from '../../server/contract/index.js';
import { SandboxError } from '../../sandbox/errors.js';
import { errorToasts, storePreference, useHarness } from './harness.js';

/** The monitor's refresh period (MONITOR_REFRESH_MS of web/deployment/queries.ts). */
const MONITOR_REFRESH_MS = 5_000;

const h = useHarness();

const deployment = () => h.sandbox.app.sandbox.deployment;

/** A chart is drawn once uPlot has put its canvas (its first panel's) in the figure, with height to read. */
async function chartDrawn(page: Page, testId: string): Promise<{ points: number; height: number }> {
  const canvas = page.getByTestId(testId).locator('canvas').first();
  await canvas.waitFor();
  const box = await canvas.boundingBox();
  return { points: Number(await page.getByTestId(testId).getAttribute('data-points')), height: box?.height ?? 0 };
}

/**
 * Makes the sandbox refuse one start switch the way the backend refuses a call: an envelope
 * with an error code. Returns the undo.
 */
function refuseSwitch(name: RunnerSwitch, msg: string): () => void {
  const switches = deployment().switches;
  const value = switches[name];
  Object.defineProperty(switches, name, {
    configurable: true,
    enumerable: true,
    get: () => value,
    set: () => {
      throw new SandboxError(500, msg);
    },
  });
  return () => Object.defineProperty(switches, name, { configurable: true, enumerable: true, writable: true, value });
}

describe('dashboard', () => {
  it('shows the KPI cards, both daily charts and the finance panel without an error', async () => {
    const { page } = await h.pageAs('admin');
    await page.getByTestId('dashboard-page').waitFor();
    for (const key of [
      'userCount',
      'newUsersToday',
      'activeUsersToday',
      'onlineUsers',
      'groupCount',
      'messagesToday',
      'pendingWithdrawals',
      'rechargeToday',
    ]) {
      // The figure is the card's first dd; today's cards add yesterday's in a second.
      await expect.poll(() => page.getByTestId(`kpi-${key}`).locator('dd').first().textContent()).toMatch(/\d/);
    }
    // Money is shown with its currency, in units with cents, or shortened with a suffix.
    expect(
      await page
        .getByTestId('kpi-rechargeToday')
        .locator('dd [data-figure]')
        .evaluate((el) => el.firstChild!.textContent),
    ).toMatch(/^-?¥[\d,]+(\.\d{2}|(\.\d)?[kMGTPE])$/);
    const daily = await chartDrawn(page, 'daily-chart');
    expect(daily.points).toBe(30);
    expect(daily.height).toBeGreaterThan(100);
    expect((await chartDrawn(page, 'money-chart')).points).toBe(30);
    expect((await page.getByTestId('daily-chart').locator('.u-legend').allTextContents()).join(' ')).toContain(
      'Registrations',
    );
    await expect.poll(() => page.getByTestId('finance-totalRecharge').locator('dd').textContent()).toMatch(/\d/);
    expect(await page.getByTestId('finance-panel').locator('dt').count()).toBe(10);
    expect(await errorToasts(page)).toEqual([]);

    // A shorter range asks the backend again and redraws.
    await page.getByRole('button', { name: 'Last 7 days' }).click();
    await expect.poll(() => page.getByTestId('daily-chart').getAttribute('data-points')).toBe('7');
    expect(await page.getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('keeps the other panels when one call fails, and retries it', async () => {
    const { page } = await h.pageAs('admin');
    // The backend being unreachable for this one call only.
    const isCount = (url: URL) => url.pathname === CALLS.count;
    await page.route(isCount, (route) => route.abort('connectionrefused'));
    await page.reload();
    await page.getByTestId('kpi-panel').getByTestId('panel-error').waitFor();
    await chartDrawn(page, 'daily-chart');
    await expect.poll(() => page.getByTestId('finance-totalBalance').locator('dd').textContent()).toMatch(/\d/);
    await page.unroute(isCount);
    await page.getByTestId('kpi-panel').getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => page.getByTestId('kpi-userCount').locator('dd').textContent()).toMatch(/\d/);
    expect(await page.getByTestId('kpi-panel').getByTestId('panel-error').count()).toBe(0);
  });

  it('draws the chart in the smallest and the largest size setting', async () => {
    const { page } = await h.pageAs('admin', { width: 1024, height: 768 });
    const heights: number[] = [];
    for (const size of ['mini', 'default']) {
      await storePreference(page, 'size', size);
      await page.reload();
      const drawn = await chartDrawn(page, 'daily-chart');
      expect(drawn.points).toBe(30);
      heights.push(drawn.height);
    }
    expect(heights[1]).toBeGreaterThan(heights[0]!);
  });
});

describe('deployment screens', () => {
  it('monitors the host and services with a refreshing, pausable history', async () => {
    const { page } = await h.pageAs('admin');
    // The page's timers run on a clock of the test's: time flows as usual, and the refresh period
    // passes at once when the test says so instead of in real seconds.
    await page.clock.install();
    await page.goto('/deployconfig/monitor');
    await expect.poll(() => page.getByTestId('host-cpu').locator('dd').textContent()).toMatch(/%/);
    expect(await page.getByTestId('host-panel').locator('h2').textContent()).toContain('chat-prod-01');
    expect(await page.getByTestId('service-table').locator('tbody tr').count()).toBe(8);
    expect(await page.getByTestId('service-im-gateway').locator('[data-status]').textContent()).toMatch(
      /Running|Degraded/,
    );
    await chartDrawn(page, 'history-chart');
    // The 5-second refresh adds a second sample.
    await page.clock.runFor(MONITOR_REFRESH_MS);
    await expect.poll(() => page.getByTestId('history-chart').getAttribute('data-points')).toBe('2');

    await page.getByTestId('monitor-pause').click();
    expect(await page.getByTestId('monitor-pause').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('refresh-state').textContent()).toBe('Auto-refresh paused');
    let polled = 0;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === CALLS.monitoring) polled++;
    });
    // Two refresh periods pass, and every timer due in them fires: a refresh would ask now. The
    // page's requests reach the test before the answer of a call into the page made after them.
    await page.clock.runFor(2 * MONITOR_REFRESH_MS + 1_000);
    await page.evaluate(() => document.readyState);
    expect(polled).toBe(0);
    expect(await errorToasts(page)).toEqual([]);
    // Resumed, the next period asks again: the count above would have seen a refresh.
    await page.getByTestId('monitor-pause').click();
    expect(await page.getByTestId('monitor-pause').getAttribute('aria-pressed')).toBe('false');
    await page.clock.runFor(MONITOR_REFRESH_MS);
    await expect.poll(() => polled).toBeGreaterThan(0);
  });

  it('flips a start switch, and rolls one back when the backend refuses it', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/deployconfig/switch');
    const moment = page.getByTestId('switch-moment');
    await moment.waitFor();
    expect(await page.getByRole('switch', { name: 'Moments', exact: true }).count()).toBe(1);
    const momentBefore = deployment().switches.moment;
    expect(await moment.getAttribute('aria-checked')).toBe(String(momentBefore));
    await moment.click();
    await expect.poll(() => deployment().switches.moment).toBe(!momentBefore);
    // The backend has the change; the page shows it once the answer is drawn.
    await expect.poll(() => moment.getAttribute('aria-checked')).toBe(String(!momentBefore));
    await page.locator('[data-toast="success"]', { hasText: 'Moments turned' }).waitFor();

    const wallet = page.getByTestId('switch-wallet');
    const walletBefore = deployment().switches.wallet;
    const undo = refuseSwitch('wallet', 'wallet switch refused');
    try {
      // Keyboard: the switch is reachable and toggles with Space.
      await wallet.focus();
      await page.keyboard.press('Space');
      await page.locator('[data-toast="error"]', { hasText: 'wallet switch refused' }).waitFor();
      await expect.poll(() => wallet.getAttribute('aria-checked')).toBe(String(walletBefore));
      expect(deployment().switches.wallet).toBe(walletBefore);
      expect(await wallet.isEnabled()).toBe(true);
    } finally {
      undo();
    }
    // The refused switch works again once the backend does.
    await wallet.click();
    await expect.poll(() => deployment().switches.wallet).toBe(!walletBefore);
    // The backend has it before the answer reaches the page: the switch follows once it does.
    await expect.poll(() => wallet.getAttribute('aria-checked')).toBe(String(!walletBefore));
  });

  it('validates and saves the runner config, warning about unsaved changes', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/deployconfig/switch');
    const ws = page.getByLabel('WebSocket address');
    await ws.waitFor();
    expect(await ws.inputValue()).toBe(deployment().config.websocketUrl);

    await ws.fill('im.chat.example.com/ws');
    await page.getByTestId('runner-save').click();
    expect(await page.getByTestId('error-websocketUrl').textContent()).toBe('Link format error');
    expect(await ws.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('runner-websocketUrl');

    await ws.fill('wss://im2.chat.example.com/ws');
    await page.getByLabel('Worker processes').fill('6');
    // Leaving through the menu with unsaved changes asks first.
    await page.locator('[data-menu-path="/deployconfig/monitor"]').click();
    await page.getByTestId('leave-dialog').waitFor();
    await page.getByTestId('leave-dialog').getByRole('button', { name: 'Stay' }).click();
    expect(new URL(page.url()).pathname).toBe('/deployconfig/switch');

    await page.getByTestId('runner-save').click();
    await page.locator('[data-toast="success"]', { hasText: 'Runner configuration saved' }).waitFor();
    expect(deployment().config.websocketUrl).toBe('wss://im2.chat.example.com/ws');
    expect(deployment().config.workerCount).toBe(6);
    expect(await page.getByTestId('runner-config-form').getAttribute('data-dirty')).toBe('false');
    expect(await errorToasts(page)).toEqual([]);
  });

  it('refuses a bad migration link in Chinese without calling the backend', async () => {
    const { page } = await h.pageAs('admin');
    await storePreference(page, 'language', 'zh');
    await page.goto('/deployconfig/migration');
    let sent = 0;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === CALLS.importDatabase) sent++;
    });
    await page.getByLabel('数据库备份链接').fill('backup.example.com/chat.sql.gz');
    await page.getByTestId('migration-submit').click();
    expect(await page.getByTestId('migration-url-error').textContent()).toBe('链接格式错误');
    expect(sent).toBe(0);
  });

  it('imports a database from a valid link after confirmation and shows the outcome', async () => {
    const { page } = await h.pageAs('admin');
    await page.goto('/deployconfig/migration');
    const url = page.getByLabel('Database dump link');
    await url.fill('ftp:/backup');
    await page.getByTestId('migration-submit').click();
    expect(await page.getByTestId('migration-url-error').textContent()).toBe('Link format error');

    await url.fill('https://backup.example.com/chat.sql.gz');
    await page.getByTestId('migration-submit').click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('https://backup.example.com/chat.sql.gz');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByTestId('migration-result').waitFor();
    const expected = deployment().importDatabase('https://backup.example.com/chat.sql.gz', Date.now());
    expect(await page.getByTestId('result-importedUsers').locator('dd').textContent()).toBe(
      expected.importedUsers.toLocaleString('en-US'),
    );
    expect(await page.getByTestId('result-importedMessages').locator('dd').textContent()).toBe(
      expected.importedMessages.toLocaleString('en-US'),
    );
    expect(await errorToasts(page)).toEqual([]);
  });
});
