import { describe, expect, it } from 'vitest';
import { isBenignWarning, toEntry } from '../../web/app/error-reporter.js';

describe('the error reporter', () => {
  it("leaves the browser's benign ResizeObserver warnings out, and nothing else", () => {
    expect(isBenignWarning('ResizeObserver loop completed with undelivered notifications.')).toBe(true);
    expect(isBenignWarning('ResizeObserver loop limit exceeded')).toBe(true);
    expect(isBenignWarning('TypeError: ResizeObserver is not a constructor')).toBe(false);
    expect(isBenignWarning('Uncaught Error: ResizeObserver loop completed')).toBe(false);
  });

  it('names the error and cuts what is too long', () => {
    const entry = toEntry(new TypeError('x'.repeat(10_000)), 'info', 'http://console/page');
    expect(entry.message.startsWith('TypeError: x')).toBe(true);
    expect(entry.message.length).toBeLessThan(10_000);
    expect(entry.url).toBe('http://console/page');
    expect(toEntry('plain text', undefined, '/').message).toBe('plain text');
  });
});
