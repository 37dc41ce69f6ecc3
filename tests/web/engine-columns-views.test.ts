import { describe, expect, it } from 'vitest';
import { USERS } from '../../server/contract/index.js';
import {
  choiceFromVisible,
  currentChoice,
  defaultColumns,
  isColumnChoice,
  moveColumn,
  parseColumns,
  resolveChoice,
  serialiseColumns,
  toggleColumn,
  visibleOf,
} from '../../web/engine/list/column-choice.js';
import { normalisedQuery, sanitiseViews, viewQuery, viewState, withView } from '../../web/engine/list/saved-views.js';
import { parseListState, serialiseListState } from '../../web/engine/list/url-state.js';

const ALL = ['id', 'account', 'status', 'balance'];

describe('column choice', () => {
  it('reads cols forgivingly: unknown keys, repeats and blanks are dropped, nothing usable is no choice', () => {
    expect(parseColumns('balance, id,ghost,id,,status', ALL)).toEqual(['balance', 'id', 'status']);
    expect(parseColumns('ghost,,', ALL)).toBeUndefined();
    expect(parseColumns('', ALL)).toBeUndefined();
    expect(parseColumns(null, ALL)).toBeUndefined();
  });

  it('writes cols only when they differ from the default', () => {
    expect(serialiseColumns(ALL, ALL)).toBe('');
    expect(serialiseColumns(ALL, ['account', 'id', 'status', 'balance'])).toBe('account,id,status,balance');
    expect(serialiseColumns(ALL, ['id', 'balance'])).toBe('id,balance');
  });

  it('makes a stored choice whole: removed columns ignored, new ones at the end, one always visible', () => {
    expect(resolveChoice(ALL, null)).toEqual({ order: ALL, hidden: [] });
    expect(resolveChoice(ALL, { order: ['balance', 'gone', 'id', 'balance'], hidden: ['gone', 'id'] })).toEqual({
      order: ['balance', 'id', 'account', 'status'],
      hidden: ['id'],
    });
    const none = resolveChoice(ALL, { order: ALL, hidden: ALL });
    expect(visibleOf(none)).toEqual(['id']);
  });

  it('keeps only well-formed stored choices', () => {
    expect(isColumnChoice({ order: ['a'], hidden: [] })).toBe(true);
    expect(isColumnChoice({ order: 'a', hidden: [] })).toBe(false);
    expect(isColumnChoice({ order: [1], hidden: [] })).toBe(false);
    expect(isColumnChoice(null)).toBe(false);
    expect(isColumnChoice(['a'])).toBe(false);
  });

  it('moves within bounds and refuses to hide the last visible column', () => {
    const start = resolveChoice(ALL, null);
    expect(moveColumn(start, 'status', -1).order).toEqual(['id', 'status', 'account', 'balance']);
    expect(moveColumn(start, 'id', -1)).toBe(start);
    expect(moveColumn(start, 'balance', 1)).toBe(start);
    let choice = start;
    for (const key of ALL) choice = toggleColumn(choice, key, false);
    expect(visibleOf(choice)).toEqual(['balance']);
    expect(visibleOf(toggleColumn(choice, 'id', true))).toEqual(['id', 'balance']);
  });

  it('turns a URL list back into a choice with the hidden columns after it', () => {
    expect(choiceFromVisible(ALL, ['status', 'id'])).toEqual({
      order: ['status', 'id', 'account', 'balance'],
      hidden: ['account', 'balance'],
    });
  });

  it('follows the URL over the browser, but keeps the browser’s place for hidden columns when they agree', () => {
    const stored = { order: ['status', 'id', 'account', 'balance'], hidden: ['id'] };
    expect(currentChoice(ALL, undefined, stored)).toEqual(stored);
    expect(currentChoice(ALL, ['status', 'account', 'balance'], stored)).toEqual(stored);
    expect(currentChoice(ALL, ['balance', 'id'], stored)).toEqual({
      order: ['balance', 'id', 'account', 'status'],
      hidden: ['account', 'status'],
    });
    expect(currentChoice(ALL, undefined, null)).toEqual({ order: ALL, hidden: [] });
  });

  it('round-trips cols through the list URL, with readable commas', () => {
    const all = defaultColumns(USERS);
    const state = parseListState('status=normal&cols=balance,account,ghost', USERS);
    expect(state.columns).toEqual(['balance', 'account']);
    const qs = serialiseListState(state, USERS);
    expect(qs).toBe('status=normal&cols=balance,account');
    expect(parseListState(qs, USERS)).toEqual(state);
    expect(serialiseListState({ ...state, columns: all }, USERS)).toBe('status=normal');
    expect(parseListState('cols=%2C%2C', USERS).columns).toBeUndefined();
  });
});

describe('saved views', () => {
  it('keeps the valid stored views and drops the broken ones, not the whole list', () => {
    const raw = [
      { name: ' Banned ', query: 'status=banned' },
      { name: 'Banned', query: 'other' },
      { name: '', query: 'x' },
      { name: 'No query' },
      'junk',
      null,
      { name: 'Long', query: 'x'.repeat(5000) },
      { name: 'Plain', query: '' },
    ];
    expect(sanitiseViews(raw)).toEqual([
      { name: 'Banned', query: 'status=banned' },
      { name: 'Plain', query: '' },
    ]);
    expect(sanitiseViews({ name: 'x', query: '' })).toEqual([]);
    expect(sanitiseViews(null)).toEqual([]);
  });

  it('saves the state from its first page with the columns on screen; a known name is replaced in place', () => {
    const state = parseListState('pageNum=4&pageSize=50&sort=balance&status=banned', USERS);
    const query = viewQuery(state, ['account', 'balance'], USERS);
    expect(query).toBe('pageSize=50&sort=balance&status=banned&cols=account,balance');
    const views = withView(
      [
        { name: 'A', query: '' },
        { name: 'B', query: 'x' },
      ],
      { name: ' A ', query },
    );
    expect(views).toEqual([
      { name: 'A', query },
      { name: 'B', query: 'x' },
    ]);
    expect(withView(views, { name: '   ', query: '' })).toEqual(views);
  });

  it('applies a stored query through the URL parser, so what the resource lost is left out', () => {
    const view = { name: 'Old', query: 'pageNum=9&sort=nickname&status=deleted&channel=huawei&cols=gone,balance' };
    expect(viewState(view, USERS)).toMatchObject({
      pageNum: 1,
      sort: '-registerTime',
      filters: { channel: 'huawei' },
      columns: ['balance'],
    });
    expect(normalisedQuery(view, USERS)).toBe('channel=huawei&cols=balance');
  });
});
