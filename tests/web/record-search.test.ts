import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  GROUPS,
  PERMISSIONS as P,
  USERS,
  WITHDRAWAL_REVIEW,
  type ListResource,
} from '../../server/contract/index.js';
import en from '../../web/i18n/resources/en.js';
import { labelT } from '../../web/i18n/resources/index.js';
import { groupResults, searchSources, settled, SEARCH_MAX_PAGES, type SearchGroup } from '../../web/app/search.js';
import {
  RECORD_SEARCH_DEBOUNCE_MS,
  rankHits,
  recordKeyword,
  searchDelay,
} from '../../web/engine/record/record-search.js';

/** The pure parts of the header search's records: what is searched, where, how hits rank and group. */

const operator = [P.userProfile, P.groupProfile, P.sensitiveWord, P.onlineStatistics, P.billRecord];
const resolve = (id: string) => id;

beforeAll(async () => {
  await i18next.init({ lng: 'en', fallbackLng: 'en', resources: { en: { translation: en } } });
});

describe('what the header search sends', () => {
  it('waits out a burst of keys while a search is under way, and answers a key after a pause at once', () => {
    expect(searchDelay(1000, Number.NEGATIVE_INFINITY, false)).toBe(0);
    expect(searchDelay(1000, 800, true)).toBe(0);
    expect(searchDelay(1000, 1000 - RECORD_SEARCH_DEBOUNCE_MS + 1, true)).toBe(RECORD_SEARCH_DEBOUNCE_MS);
    expect(searchDelay(1000, 990, true)).toBe(RECORD_SEARCH_DEBOUNCE_MS);
  });

  it('answers a quick key at once when the last search is already answered', () => {
    expect(searchDelay(1000, 990, false)).toBe(0);
    expect(searchDelay(1000, 1000 - RECORD_SEARCH_DEBOUNCE_MS + 1, false)).toBe(0);
  });

  it('searches records from two characters, or from one digit', () => {
    expect(recordKeyword('')).toBeNull();
    expect(recordKeyword('  a ')).toBeNull();
    expect(recordKeyword('7')).toBe('7');
    expect(recordKeyword(' 13800 ')).toBe('13800');
    expect(recordKeyword('sa')).toBe('sa');
    expect(recordKeyword('+86 138')).toBe('+86 138');
  });
});

describe('where it searches', () => {
  it('in users, groups and withdrawals, in menu order, for an administrator holding them all', () => {
    expect(searchSources(ALL_PERMISSIONS, resolve)).toEqual([
      { source: 'users', listPath: '/userpage/userset' },
      { source: 'groups', listPath: '/groupset' },
      { source: 'withdrawalReview', listPath: '/WithDrawMoneyCheck' },
    ]);
  });

  it('never in a list the administrator may not open, or the backend does not offer', () => {
    expect(searchSources(operator, resolve).map((s) => s.source)).toEqual(['users', 'groups']);
    expect(searchSources([P.cashWithdrawalCheck], resolve).map((s) => s.source)).toEqual(['withdrawalReview']);
    expect(searchSources(ALL_PERMISSIONS, resolve, undefined, new Set(['groups'])).map((s) => s.source)).toEqual([
      'users',
      'withdrawalReview',
    ]);
    expect(searchSources([], resolve)).toEqual([]);
  });
});

describe('ranked hits', () => {
  const rows = [
    { id: 103001, account: 'li13800', nickname: 'Li', phone: '+8613800000001' },
    { id: 13800, account: 'wang', nickname: 'Wang', phone: '+8613900000000' },
    { id: 103002, account: '13800abc', nickname: 'Abc', phone: '' },
  ];

  it('put a field equal to the text first, then one starting with it, then the backend order', () => {
    const hits = rankHits(rows, USERS as ListResource, '/userpage/userset', '13800', labelT);
    expect(hits.map((h) => h.id)).toEqual(['13800', '103002', '103001']);
  });

  it('name the record, show its other searched values and open its page', () => {
    const [hit] = rankHits([rows[1]!], USERS as ListResource, '/userpage/userset', 'wang', labelT);
    expect(hit).toEqual({
      id: '13800',
      path: '/userpage/userset/13800',
      name: 'wang',
      detail: '#13800 · Wang · +8613900000000',
      row: rows[1],
    });
  });

  it('show a withdrawal by its applicant, with its id and payee account', () => {
    const [hit] = rankHits(
      [{ id: 459, userAccount: 'kaito1', accountInfo: 'みずほ銀行 6215012512055065', amount: 100 }],
      WITHDRAWAL_REVIEW as ListResource,
      '/WithDrawMoneyCheck',
      '459',
      labelT,
    );
    expect(hit).toMatchObject({
      path: '/WithDrawMoneyCheck/459',
      name: 'kaito1',
      detail: '#459 · みずほ銀行 6215012512055065',
    });
  });

  it('leave out a row whose id no page can carry', () => {
    expect(rankHits([{ id: 'a.b', name: 'x' }], GROUPS as ListResource, '/groupset', 'x', labelT)).toEqual([]);
  });
});

describe('grouped results', () => {
  const pages = Array.from({ length: 12 }, (_, i) => ({ title: `Page ${i}`, path: `/p${i}` }));
  const users: SearchGroup = {
    key: 'users',
    title: 'Users',
    status: 'done',
    options: [{ key: 'users:1', path: '/u/1', title: 'a', kind: 'record' }],
  };
  const groups: SearchGroup = { key: 'groups', title: 'Groups', status: 'done', options: [] };
  const withdrawals: SearchGroup = { key: 'withdrawalReview', title: 'Withdrawals', status: 'loading', options: [] };

  it('come pages first, then each resource in order; one that found nothing is left out', () => {
    const grouped = groupResults('Pages', pages, [users, groups, withdrawals]);
    expect(grouped.map((g) => g.key)).toEqual(['pages', 'users', 'withdrawalReview']);
    expect(grouped[0]!.options).toHaveLength(SEARCH_MAX_PAGES);
    expect(grouped[0]!.options[0]).toEqual({
      key: 'page:/p0',
      path: '/p0',
      title: 'Page 0',
      detail: '/p0',
      kind: 'page',
    });
  });

  it('are settled once no resource is still searching', () => {
    expect(settled(groupResults('Pages', [], [users, groups, withdrawals]))).toBe(false);
    expect(settled(groupResults('Pages', [], [users, groups, { ...withdrawals, status: 'error' }]))).toBe(true);
    // Nothing anywhere, and every answer in: the panel says "No matches".
    expect(groupResults('Pages', [], [groups])).toEqual([]);
  });
});
