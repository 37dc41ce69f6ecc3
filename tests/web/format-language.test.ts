import { describe, expect, it } from 'vitest';
import {
  dateTimeParts,
  formatBytes,
  formatCount,
  formatDateTime,
  formatDay,
  localInputDateTime,
} from '../../web/lib/format.js';

/*
 * Values written the way each language writes them. Times are built from local parts so the
 * expectations hold in whatever zone the tests run.
 */
const moment = new Date(2026, 4, 27, 9, 5, 7);

describe('date and time per language', () => {
  it('writes the date the language way and the time on a 24-hour clock', () => {
    expect(dateTimeParts(moment, 'en')).toEqual({ date: '05/27/2026', time: '09:05:07' });
    expect(dateTimeParts(moment, 'zh')).toEqual({ date: '2026/05/27', time: '09:05:07' });
    expect(dateTimeParts(moment, 'ja')).toEqual({ date: '2026/05/27', time: '09:05:07' });
    expect(dateTimeParts(moment, 'es')).toEqual({ date: '27/05/2026', time: '09:05:07' });
  });
  it('reads ISO text and never gives back the raw ISO form', () => {
    const iso = moment.toISOString();
    for (const lang of ['en', 'zh', 'ja', 'es'] as const) {
      const text = formatDateTime(iso, lang);
      expect(text).toBe(`${dateTimeParts(moment, lang)!.date} 09:05:07`);
      expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}|T\d{2}:|Z$/);
    }
  });
  it('gives nothing for a missing or bad value', () => {
    expect(formatDateTime(null, 'en')).toBe('');
    expect(formatDateTime('', 'zh')).toBe('');
    expect(formatDateTime('not a time', 'ja')).toBe('');
    expect(dateTimeParts(undefined, 'es')).toBeNull();
  });
  it('writes a calendar day as the same day in every zone', () => {
    expect(formatDay('2026-01-31', 'en')).toBe('01/31/2026');
    expect(formatDay('2026-01-31', 'zh')).toBe('2026/01/31');
    expect(formatDay('2026-01-31', 'ja')).toBe('2026/01/31');
    expect(formatDay('2026-01-31', 'es')).toBe('31/01/2026');
    expect(formatDay('yesterday', 'en')).toBe('yesterday');
  });
  it('keeps the datetime-local input form apart from what people read', () => {
    expect(localInputDateTime(moment.toISOString())).toBe('2026-05-27T09:05');
    expect(localInputDateTime('bad')).toBe('');
  });
});

describe('sizes per language', () => {
  it('uses B, KB, MB and GB with the language decimal mark', () => {
    expect(formatBytes(0, 'en')).toBe('0 B');
    expect(formatBytes(999, 'en')).toBe('999 B');
    expect(formatBytes(1_500, 'en')).toBe('1.5 KB');
    expect(formatBytes(58_350_123, 'en')).toBe('58.4 MB');
    expect(formatBytes(58_350_123, 'zh')).toBe('58.4 MB');
    expect(formatBytes(58_350_123, 'ja')).toBe('58.4 MB');
    expect(formatBytes(58_350_123, 'es')).toBe('58,4 MB');
    expect(formatBytes(112_000_000, 'es')).toBe('112 MB');
    expect(formatBytes(2_340_000_000, 'en')).toBe('2.3 GB');
    expect(formatBytes(2_000_000_000, 'es')).toBe('2 GB');
  });
  it('gives nothing for a size that is no size', () => {
    expect(formatBytes(-1, 'en')).toBe('');
    expect(formatBytes(Number.NaN, 'en')).toBe('');
  });
});

describe('counts per language', () => {
  it('groups digits the language way', () => {
    expect(formatCount(1_234_567, 'en')).toBe('1,234,567');
    expect(formatCount(1_234_567, 'zh')).toBe('1,234,567');
    expect(formatCount(1_234_567, 'ja')).toBe('1,234,567');
    expect(formatCount(1_234_567, 'es')).toBe('1.234.567');
    expect(formatCount(Number.POSITIVE_INFINITY, 'en')).toBe('Infinity');
  });
});
