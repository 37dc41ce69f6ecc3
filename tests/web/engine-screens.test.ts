import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../server/contract/index.js';
import { LEAF_ROUTES } from '../../web/app/routes.js';
import { resolveScreen } from '../../web/screens/screen-page.js';
import {
  defaultRange,
  parseStatsState,
  serialiseStatsState,
  sumByDate,
} from '../../web/engine/statistics/statistics-data.js';
import { confirmationMatches } from '../../web/engine/operation/operation-screen.js';
import { normaliseParams, resourceKeys } from '../../web/engine/shared/queries.js';
import { CHANNEL_STATISTICS } from '../../server/contract/index.js';

describe('screen declarations', () => {
  it('give every resource of the contract exactly one route', () => {
    const declared = LEAF_ROUTES.flatMap((r) => (r.screen ? [r.screen.id] : [])).sort();
    expect(declared).toEqual(RESOURCES.map((r) => r.id).sort());
  });
  it('name each resource with its kind and permission, as the contract declares them', () => {
    // The route table carries only a resource's id and permission, so the login page loads none
    // of the declarations; the screen resolves the rest when it opens.
    const mismatched = LEAF_ROUTES.flatMap((r) => {
      if (!r.screen) return [];
      const resource = RESOURCES.find((x) => x.id === r.screen!.id);
      const wrong =
        !resource ||
        resource.kind !== r.screen.kind ||
        resource.permission !== r.screen.permission ||
        r.meta.permission?.[0] !== resource.permission;
      return wrong ? [r.path] : [];
    });
    expect(mismatched).toEqual([]);
    for (const r of LEAF_ROUTES) if (r.screen) expect(resolveScreen(r.screen).resource.id).toBe(r.screen.id);
    expect(() => resolveScreen({ kind: 'settings', id: 'users', permission: RESOURCES[0]!.permission })).toThrow(
      /does not declare/,
    );
  });
});

describe('statistics state', () => {
  const now = new Date(2024, 4, 31, 15);
  it('defaults to the last 30 days, today included', () => {
    expect(defaultRange(now)).toEqual({ startDate: '2024-05-02', endDate: '2024-05-31' });
    expect(parseStatsState('', CHANNEL_STATISTICS, now)).toEqual({
      startDate: '2024-05-02',
      endDate: '2024-05-31',
      dimension: '',
    });
  });
  it('keeps a valid range and dimension, refuses a reversed one', () => {
    const state = { startDate: '2024-01-01', endDate: '2024-01-31', dimension: 'huawei' };
    const qs = serialiseStatsState(state, CHANNEL_STATISTICS, now);
    expect(parseStatsState(qs, CHANNEL_STATISTICS, now)).toEqual(state);
    expect(parseStatsState('startDate=2024-02-01&endDate=2024-01-01&channel=nope', CHANNEL_STATISTICS, now)).toEqual({
      ...defaultRange(now),
      dimension: '',
    });
  });
  it('sums the rows of one day for the chart', () => {
    const rows = [
      { date: '2024-01-02', channel: 'web', registrations: 2, rechargeAmount: 150 },
      { date: '2024-01-01', channel: 'web', registrations: 1, rechargeAmount: 100 },
      { date: '2024-01-02', channel: 'huawei', registrations: 3, rechargeAmount: 50 },
    ];
    expect(sumByDate(rows, ['registrations', 'rechargeAmount'])).toEqual({
      dates: ['2024-01-01', '2024-01-02'],
      values: { registrations: [1, 5], rechargeAmount: [100, 200] },
    });
  });
});

describe('engine details', () => {
  it('needs the exact confirmation text', () => {
    expect(confirmationMatches('DELETE', 'DELETE')).toBe(true);
    expect(confirmationMatches('DELETE', 'delete')).toBe(false);
    expect(confirmationMatches('DELETE', ' DELETE')).toBe(false);
    expect(confirmationMatches(undefined, '')).toBe(true);
  });
  it('gives equal query keys to equal parameters in any order, empty ones left out', () => {
    const r = { id: 'users', path: '/manage/user/userProfile' };
    expect(resourceKeys.list(r, { pageNum: 1, keyword: '', sort: 'id' })).toEqual(
      resourceKeys.list(r, { sort: 'id', pageNum: 1 }),
    );
    expect(normaliseParams({ b: 1, a: null, c: 'x' })).toEqual({ b: 1, c: 'x' });
    expect(resourceKeys.list(r, {}).slice(0, 2)).toEqual(resourceKeys.all(r));
  });
});
