import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { logIn } from '../support/login.js';
import { SseClient } from '../support/sse-client.js';
import { loginElsewhere, sessionLoggedIn, useHarness } from './harness.js';

/*
 * The finance badge end to end: sandbox backend -> gateway poll -> /api/events -> badge. Unlike
 * the other browser suites, this one polls every 300 ms, has no sandbox timer (every rise is one
 * the test made), and stops and starts the gateway again on the same port.
 */
const POLL_MS = 300;
/** A few poll periods plus the browser's work; generous so a loaded machine does not flake. */
const RISE_TIMEOUT_MS = 10_000;

const h = useHarness({
  pollMs: POLL_MS,
  events: { heartbeatMs: 1_000, retryMs: 500 },
  sandbox: { withdrawalTickMs: 0 },
});
const sandbox = () => h.sandbox.app.sandbox;

/**
 * Counts the chime's oscillators from outside the app: the shell keeps no counter of its own,
 * and wrapping the Web Audio API shows the attempt whether or not autoplay lets it be heard.
 */
function countOscillators(): void {
  const w = window as unknown as { __chimeOscillators: number };
  w.__chimeOscillators = 0;
  const original = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function (this: AudioContext) {
    w.__chimeOscillators++;
    return original.call(this);
  };
}

const pageAs = async (who: 'admin' | 'operator') => (await h.pageAs(who, { initScript: countOscillators })).page;
const badge = (page: Page) => page.getByTestId('withdrawal-badge').first();
const shownCount = async (page: Page) =>
  Number(await badge(page).getAttribute('data-count', { timeout: RISE_TIMEOUT_MS }));
const oscillators = (page: Page) =>
  page.evaluate(() => (window as unknown as { __chimeOscillators: number }).__chimeOscillators);

describe('finance badge fed by the event stream', () => {
  it('shows the pending count, rises with a chime when a withdrawal arrives, and carries its tooltip', async () => {
    const page = await pageAs('admin');
    const seeded = sandbox().pendingWithdrawalCount();
    expect(seeded).toBeGreaterThan(0);
    await expect.poll(() => shownCount(page), { timeout: RISE_TIMEOUT_MS }).toBe(seeded);
    // The first value of a stream is no rise: no chime yet.
    expect(await oscillators(page)).toBe(0);

    sandbox().addPendingWithdrawal();
    sandbox().addPendingWithdrawal();
    await expect.poll(() => shownCount(page), { timeout: RISE_TIMEOUT_MS }).toBe(seeded + 2);
    // The visible number follows the count (the sandbox seeds well under the 99+ cap).
    expect(await badge(page).textContent()).toContain(String(seeded + 2));
    await expect.poll(() => oscillators(page), { timeout: RISE_TIMEOUT_MS }).toBeGreaterThan(0);

    // Hidden until hover or focus, so the role query must be told to look at hidden elements.
    const tooltip = badge(page).getByRole('tooltip', { includeHidden: true });
    expect(await tooltip.textContent()).toBe('Withdrawal reviews need handling');
    expect(await tooltip.isVisible()).toBe(false);
    await badge(page).hover();
    await tooltip.waitFor({ state: 'visible' });
    expect(await badge(page).locator('[aria-label]').getAttribute('aria-label')).toBe(
      `Withdrawal reviews need handling: ${seeded + 2}`,
    );
  });

  it('shows no badge to the operator, who does not review withdrawals', async () => {
    const page = await pageAs('operator');
    sandbox().addPendingWithdrawal();
    const pending = sandbox().pendingWithdrawalCount();
    // The gateway has published the new count once a reviewer's stream carries it; a badge this
    // page were going to show would come from that same count.
    const reviewer = await SseClient.open(Number(new URL(h.url).port), await logIn(h.url, 'admin'));
    try {
      await reviewer.waitFor(() => reviewer.counts().includes(pending), `the count ${pending} on a reviewer's stream`);
    } finally {
      reviewer.close();
    }
    expect(await page.getByTestId('withdrawal-badge').count()).toBe(0);
    const status = await page.evaluate(
      async () => (await fetch('/api/events', { headers: { accept: 'text/event-stream' } })).status,
    );
    expect(status).toBe(403);
  });

  it('reconnects by itself after the gateway restarts on the same port', async () => {
    const page = await pageAs('admin');
    const before = sandbox().pendingWithdrawalCount();
    await expect.poll(() => shownCount(page), { timeout: RISE_TIMEOUT_MS }).toBe(before);
    const marker = await page.evaluate(() => {
      const w = window as unknown as { __sameDocument: string };
      w.__sameDocument = Math.random().toString(36);
      return w.__sameDocument;
    });

    await h.stopGateway();
    // A request while the gateway is down must fail, or the restart below proves nothing.
    const down = await page.evaluate(() =>
      fetch('/healthz').then(
        () => 'up',
        () => 'down',
      ),
    );
    expect(down).toBe('down');
    await h.startGateway();

    sandbox().addPendingWithdrawal();
    const after = sandbox().pendingWithdrawalCount();
    expect(after).toBe(before + 1);
    // The browser's retry and the shell's own back-off both run on seconds, so wait generously.
    await expect.poll(() => shownCount(page), { timeout: 45_000, interval: 250 }).toBe(after);
    // Same document: the count arrived without a reload.
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: string }).__sameDocument)).toBe(marker);
  }, 60_000);

  // Last in the file: the second login replaces the admin token that earlier tests' pages hold.
  it("opens the 'logged in elsewhere' dialog when another login replaces the session, then goes to login", async () => {
    const page = await pageAs('admin');
    await badge(page).waitFor({ timeout: RISE_TIMEOUT_MS });

    // The same account logs in again from elsewhere; the sandbox keeps one token per account.
    expect(await loginElsewhere(h.url, 'admin')).toBe(200);

    // The admin stays idle on the dashboard: the gateway's next poll meets the dead token.
    const dialog = page.getByRole('dialog', { name: 'Logged out' });
    await dialog.waitFor({ timeout: RISE_TIMEOUT_MS });
    expect(await dialog.textContent()).toContain('Your account has logged in elsewhere. Please log in again.');
    // Closing it, or logging in again in place (relogin-in-place.test.ts); Escape does not dismiss it.
    const buttons = await dialog.getByRole('button').allTextContents();
    expect(buttons).toContain('Close');
    await dialog.getByRole('button', { name: 'Log in and continue' }).waitFor();
    await page.keyboard.press('Escape');
    expect(await dialog.isVisible()).toBe(true);

    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL((u) => u.pathname === '/login', { timeout: RISE_TIMEOUT_MS });
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/dashboard');
    await page.getByLabel('Account').waitFor();
    expect(await sessionLoggedIn(page)).toBe(false);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });
});
