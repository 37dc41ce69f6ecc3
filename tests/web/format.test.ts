import { describe, expect, it } from 'vitest';
import {
  badgeText,
  webClientUrl,
  formatAmount,
  shortNumber,
  shortTimeLabel,
  shortTimeParts,
} from '../../web/lib/format.js';

describe('short time label', () => {
  it('uses minutes under an hour', () => {
    expect(shortTimeParts(0)).toEqual({ count: 0, unit: 'minute' });
    expect(shortTimeParts(59)).toEqual({ count: 0, unit: 'minute' });
    expect(shortTimeParts(3599)).toEqual({ count: 59, unit: 'minute' });
    expect(shortTimeLabel(60)).toBe('1 minute');
    expect(shortTimeLabel(300)).toBe('5 minutes');
  });
  it('uses hours under a day', () => {
    expect(shortTimeParts(3600)).toEqual({ count: 1, unit: 'hour' });
    expect(shortTimeParts(86399)).toEqual({ count: 23, unit: 'hour' });
    expect(shortTimeLabel(7200)).toBe('2 hours');
  });
  it('uses days from a day on', () => {
    expect(shortTimeParts(86400)).toEqual({ count: 1, unit: 'day' });
    expect(shortTimeLabel(86400 * 3 + 5)).toBe('3 days');
  });
  it('treats bad input as zero', () => {
    expect(shortTimeParts(-5)).toEqual({ count: 0, unit: 'minute' });
    expect(shortTimeParts(Number.NaN)).toEqual({ count: 0, unit: 'minute' });
  });
});

describe('amount', () => {
  it('divides the smallest unit by 100', () => {
    expect(formatAmount(12345)).toBe('123.45');
    expect(formatAmount(5)).toBe('0.05');
    expect(formatAmount(-250)).toBe('-2.50');
    expect(formatAmount('1000')).toBe('10.00');
    expect(formatAmount(null)).toBe('0.00');
    expect(formatAmount('abc')).toBe('0.00');
  });
});

describe('number shortening', () => {
  it('uses k, M, G, T, P, E', () => {
    expect(shortNumber(999)).toBe('999');
    expect(shortNumber(1000)).toBe('1k');
    expect(shortNumber(1234)).toBe('1.2k');
    expect(shortNumber(2_500_000)).toBe('2.5M');
    expect(shortNumber(3e9)).toBe('3G');
    expect(shortNumber(4.25e12, 2)).toBe('4.25T');
    expect(shortNumber(5e15)).toBe('5P');
    expect(shortNumber(6e18)).toBe('6E');
    expect(shortNumber(-1500)).toBe('-1.5k');
  });
});

describe('badge text', () => {
  it('caps at 99+', () => {
    expect(badgeText(1)).toBe('1');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
  });
});

describe('chat host', () => {
  it('replaces admin with im in the host', () => {
    expect(webClientUrl({ protocol: 'https:', host: 'admin.example.com' }, null)).toBe('https://im.example.com/');
    // No "admin" in the host: the rule gives the console itself, so there is no link.
    expect(webClientUrl({ protocol: 'http:', host: 'localhost:8080' }, null)).toBeNull();
    // WEB_CLIENT_URL wins over the rule.
    expect(webClientUrl({ protocol: 'http:', host: 'localhost:8080' }, 'https://chat.example.com/')).toBe(
      'https://chat.example.com/',
    );
    expect(webClientUrl({ protocol: 'https:', host: 'admin.example.com' }, 'https://web.example.com')).toBe(
      'https://web.example.com',
    );
  });
});
