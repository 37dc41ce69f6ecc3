import { describe, expect, it } from 'vitest';
import { BILLING_RECORDS, USERS, WITHDRAWAL_REVIEW } from '../../server/contract/index.js';
import {
  DEFAULT_PAGE_SIZE,
  defaultListState,
  filterKeys,
  filtersAreDefault,
  listQueryParams,
  nextSort,
  parseListState,
  serialiseListState,
  withChange,
} from '../../web/engine/list/url-state.js';

describe('list URL state', () => {
  it('starts from the defaults on a plain URL and writes nothing back', () => {
    const state = parseListState('', USERS);
    expect(state).toEqual({ pageNum: 1, pageSize: DEFAULT_PAGE_SIZE, keyword: '', sort: '-registerTime', filters: {} });
    expect(serialiseListState(state, USERS)).toBe('');
  });

  it('round-trips page, size, keyword, sort and filters', () => {
    const state = {
      pageNum: 3,
      pageSize: 50,
      keyword: '张 三',
      sort: 'balance',
      filters: { status: 'banned', channel: 'huawei', registerTimeFrom: '2024-01-01', registerTimeTo: '2024-02-29' },
    };
    const qs = serialiseListState(state, USERS);
    expect(qs).toBe(
      'pageNum=3&pageSize=50&keyword=%E5%BC%A0+%E4%B8%89&sort=balance&status=banned&channel=huawei&registerTimeFrom=2024-01-01&registerTimeTo=2024-02-29',
    );
    expect(parseListState(`?${qs}`, USERS)).toEqual(state);
  });

  it('drops what the resource does not allow', () => {
    const state = parseListState(
      'pageNum=-2&pageSize=7&sort=nickname&status=deleted&registerTimeFrom=yesterday&evil=1&privileged=true',
      USERS,
    );
    expect(state.pageNum).toBe(1);
    expect(state.pageSize).toBe(DEFAULT_PAGE_SIZE);
    // nickname is a column but not sortable.
    expect(state.sort).toBe('-registerTime');
    expect(state.filters).toEqual({});
  });

  it('accepts a descending sort on a sortable field and a switch filter', () => {
    const groupsLike = {
      fields: [
        { key: 'muted', kind: 'switch', filter: true },
        { key: 'memberCount', kind: 'number', sortable: true },
      ],
      defaultSort: '-createTime',
    } as const;
    const state = parseListState('sort=-memberCount&muted=false', groupsLike);
    expect(state.sort).toBe('-memberCount');
    expect(state.filters).toEqual({ muted: 'false' });
  });

  it('names range filters <key>From and <key>To', () => {
    expect(filterKeys(BILLING_RECORDS)).toEqual(['userAccount', 'type', 'createTimeFrom', 'createTimeTo']);
  });

  it('sends every key to the backend, defaults included, empty filters left out', () => {
    const state = { ...defaultListState(USERS), filters: { status: 'normal', channel: '' } };
    expect(listQueryParams(state)).toEqual({ pageNum: 1, pageSize: 20, sort: '-registerTime', status: 'normal' });
  });

  it('cycles a header: ascending, descending, back to the default', () => {
    expect(nextSort('-registerTime', 'balance', '-registerTime')).toBe('balance');
    expect(nextSort('balance', 'balance', '-registerTime')).toBe('-balance');
    expect(nextSort('-balance', 'balance', '-registerTime')).toBe('-registerTime');
    // On the default sort's own column the cycle stays on that column.
    expect(nextSort('-registerTime', 'registerTime', '-registerTime')).toBe('registerTime');
  });

  it('goes back to page 1 on any change but paging', () => {
    const state = { ...defaultListState(USERS), pageNum: 4 };
    expect(withChange(state, { keyword: 'x' }).pageNum).toBe(1);
    expect(withChange(state, { filters: { status: 'banned' } }).pageNum).toBe(1);
    expect(withChange(state, { pageNum: 5 }).pageNum).toBe(5);
  });
});

describe('a screen that opens on default filters', () => {
  const queue = { ...WITHDRAWAL_REVIEW, defaultFilters: { state: 'pending' } };

  it('applies them on the plain address and writes nothing back for them', () => {
    const state = parseListState('', queue);
    expect(state.filters).toEqual({ state: 'pending' });
    expect(listQueryParams(state)).toMatchObject({ state: 'pending' });
    expect(serialiseListState(state, queue)).toBe('');
    expect(filtersAreDefault(queue, state.filters)).toBe(true);
  });

  it('keeps "All" instead of the default in the address, as an empty value', () => {
    const all = withChange(parseListState('', queue), { filters: { state: '' } });
    expect(serialiseListState(all, queue)).toBe('state=');
    const back = parseListState('state=', queue);
    expect(back.filters).toEqual({ state: '' });
    expect(listQueryParams(back)).not.toHaveProperty('state');
    expect(filtersAreDefault(queue, back.filters)).toBe(false);
  });

  it('drops them for an address naming another filter (a user’s applications, whatever their state)', () => {
    const state = parseListState('userAccount=u1', queue);
    expect(state.filters).toEqual({ userAccount: 'u1' });
    expect(listQueryParams(state)).not.toHaveProperty('state');
    expect(serialiseListState(state, queue)).toBe('userAccount=u1&state=');
    expect(parseListState(serialiseListState(state, queue), queue).filters).toEqual({ userAccount: 'u1', state: '' });
  });

  it('writes another choice as usual, and a reset goes back to the default', () => {
    const approved = withChange(parseListState('', queue), { filters: { state: 'approved', method: 'usdt' } });
    expect(serialiseListState(approved, queue)).toBe('method=usdt&state=approved');
    // Another filter beside the default keeps the default, said out loud.
    const pendingUsdt = withChange(parseListState('', queue), { filters: { state: 'pending', method: 'usdt' } });
    expect(serialiseListState(pendingUsdt, queue)).toBe('method=usdt&state=pending');
    expect(parseListState('method=usdt&state=pending', queue).filters).toEqual({ method: 'usdt', state: 'pending' });
    expect(parseListState(serialiseListState(withChange(approved, { filters: {} }), queue), queue).filters).toEqual({
      state: 'pending',
    });
  });
});
