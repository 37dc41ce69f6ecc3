import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, PERMISSIONS as P } from '../../server/contract/index.js';
import en from '../../web/i18n/en.js';
import { createSearch, searchEntries, SEARCH_MAX_QUERY } from '../../web/app/search.js';
import type { TFunction } from '../../web/i18n/index.js';

const t: TFunction = (key) => (en as Record<string, string>)[key] ?? key;

describe('header search', () => {
  it('indexes only permitted screens, with group and screen titles', () => {
    const entries = searchEntries([P.billRecord], t);
    expect(entries.map((e) => e.path)).toContain('/BillingRecords');
    expect(entries.map((e) => e.path)).not.toContain('/finance/OnlineRecharge');
    expect(entries.find((e) => e.path === '/BillingRecords')?.title).toBe('Finance > Billing records');
    expect(searchEntries([P.push], t).find((e) => e.path === '/push/pushconfig')?.title).toBe('Push config');
    expect(searchEntries(ALL_PERMISSIONS, t).find((e) => e.path === '/WithDrawMoneyCheck')?.title).toBe(
      'Finance > Withdrawal review',
    );
  });
  it('finds by title with typos and by path', () => {
    const search = createSearch(searchEntries(ALL_PERMISSIONS, t));
    expect(search('withdrawal review')[0]?.path).toBe('/WithDrawMoneyCheck');
    expect(search('sensitve words')[0]?.path).toBe('/sensitivewords');
    expect(search('groupset').map((r) => r.path)).toContain('/groupset');
  });
  it('returns nothing for an empty query or nonsense', () => {
    const search = createSearch(searchEntries(ALL_PERMISSIONS, t));
    expect(search('   ')).toEqual([]);
    expect(search('zzzzqqqqxxxx')).toEqual([]);
  });
  it('cuts the query at 32 characters without failing', () => {
    const search = createSearch(searchEntries(ALL_PERMISSIONS, t));
    const long = `billing records${'x'.repeat(100)}`;
    expect(SEARCH_MAX_QUERY).toBe(32);
    expect(() => search(long)).not.toThrow();
  });
});
