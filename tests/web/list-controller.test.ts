import { describe, expect, it } from 'vitest';
import { USERS, WITHDRAWAL_REVIEW } from '../../server/contract/index.js';
import type { ListResource } from '../../server/contract/index.js';
import {
  annotatedRows,
  bulkPlan,
  isSelectable,
  keyedAction,
  pageCount,
  pageToMoveTo,
  rowsKeyOf,
  sameRows,
  selectionOf,
  toggled,
  withAnnotation,
} from '../../web/engine/list/list-controller-parts.js';
import { filledFilters, readAddress, writeAddress } from '../../web/engine/list/address-filters.js';
import { heldMarks, runningOn } from '../../web/engine/actions/row-commands.js';
import { bulkActions } from '../../web/engine/actions/actions.js';
import { parseListState } from '../../web/engine/list/url-state.js';
import type { RowAnnotation } from '../../web/engine/shared/types.js';

const byName = (resource: ListResource, name: string) => resource.actions!.find((a) => a.name === name)!;

describe('list controller: selection', () => {
  const rows = [
    { id: 1, status: 'normal' },
    { id: 2, status: 'banned' },
    { id: 3, status: 'normal' },
  ];
  const bulk = bulkActions(USERS);

  it('puts ids in and takes them out without touching the set it was given', () => {
    const before = new Set(['1']);
    const after = toggled(before, ['2', '3'], true);
    expect([...after].sort()).toEqual(['1', '2', '3']);
    expect([...toggled(after, ['1', '3'], false)]).toEqual(['2']);
    expect([...before]).toEqual(['1']);
  });

  it('offers the bulk actions that fit the rows selected, none that fit none of them', () => {
    const normal = selectionOf(rows, new Set(['1', '3']), false, 3, bulk);
    expect(normal.selectedRows.map((r) => r.id)).toEqual([1, 3]);
    expect(normal.offeredBulk.map((a) => a.name)).not.toContain('unban');
    const mixed = selectionOf(rows, new Set(['1', '2']), false, 3, bulk);
    expect(mixed.offeredBulk.map((a) => a.name)).toContain('unban');
  });

  it('stands for every matching record only while the whole page is selected and more match', () => {
    const all = new Set(['1', '2', '3']);
    expect(selectionOf(rows, all, true, 40, bulk).allMatching).toBe(true);
    expect(selectionOf(rows, all, true, 40, bulk).offeredBulk).toEqual(bulk);
    expect(selectionOf(rows, new Set(['1', '2']), true, 40, bulk).allMatching).toBe(false);
    expect(selectionOf(rows, all, true, 3, bulk).allMatching).toBe(false);
    expect(selectionOf(rows, all, false, 40, bulk).allMatching).toBe(false);
  });

  it('runs a bulk action over the rows it applies to and counts the others, or over every match', () => {
    const unban = byName(USERS, 'unban');
    const plan = bulkPlan(unban, rows, false);
    expect(plan).toEqual({ kind: 'rows', targets: [rows[1]], skipped: 2 });
    expect(bulkPlan(unban, rows, true)).toEqual({ kind: 'matching' });
  });

  it('lets rows be selected only where something can be done to several', () => {
    expect(isSelectable(USERS)).toBe(true);
    expect(isSelectable({ ...USERS, actions: [], remove: false } as ListResource)).toBe(false);
  });
});

describe('list controller: address and rows', () => {
  it('keeps the selection when only the columns change, not when the rows do', () => {
    const state = parseListState('', USERS);
    expect(sameRows(state, { ...state, columns: ['id', 'nickName'] }, USERS)).toBe(true);
    expect(sameRows(state, { ...state, pageNum: 2 }, USERS)).toBe(false);
    expect(sameRows(state, { ...state, filters: { status: 'banned' } }, USERS)).toBe(false);
    expect(rowsKeyOf({ ...state, columns: ['id'] }, USERS)).toBe(rowsKeyOf(state, USERS));
  });

  it('moves a link past the last page back to it, once the answer is the page asked for', () => {
    const state = { pageNum: 5, pageSize: 20 };
    expect(pageToMoveTo(state, { total: 41 }, false)).toBe(3);
    expect(pageToMoveTo(state, { total: 41 }, true)).toBeNull();
    expect(pageToMoveTo(state, undefined, false)).toBeNull();
    expect(pageToMoveTo(state, { total: 100 }, false)).toBeNull();
    expect(pageToMoveTo(state, { total: 0 }, false)).toBe(1);
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(21, 20)).toBe(2);
  });

  it('adds an annotation as a column of the resource and its values to the rows', () => {
    const annotation = { field: { key: 'note', kind: 'text' }, useValues: () => new Map() } as unknown as RowAnnotation;
    expect(withAnnotation(USERS, undefined)).toBe(USERS);
    expect(withAnnotation(USERS, annotation).fields.at(-1)?.key).toBe('note');
    const rows = [{ id: 1 }, { id: 2 }];
    expect(annotatedRows(rows, undefined, new Map())).toBe(rows);
    expect(annotatedRows(rows, annotation, new Map([['2', 'vip']]))).toEqual([
      { id: 1, note: '' },
      { id: 2, note: 'vip' },
    ]);
  });

  it('runs a key only as an action the row offers', () => {
    const keys = { a: 'approve', x: 'nothing' };
    const row = { id: 7, state: 'pending' };
    expect(keyedAction(WITHDRAWAL_REVIEW, keys, 'a', row)?.name).toBe('approve');
    expect(keyedAction(WITHDRAWAL_REVIEW, keys, 'x', row)).toBeUndefined();
    expect(keyedAction(WITHDRAWAL_REVIEW, keys, 'a', { id: 8, state: 'approved' })).toBeUndefined();
    expect(keyedAction(WITHDRAWAL_REVIEW, keys, 'a', undefined)).toBeUndefined();
    expect(keyedAction(WITHDRAWAL_REVIEW, undefined, 'a', row)).toBeUndefined();
  });
});

describe('row wiring shared by the table and the cards', () => {
  it('names the actions under way on one row only, not on a row whose id ends the same', () => {
    const running = new Set(['approve:12', 'reject:2', 'approve:2']);
    expect(runningOn(running, '2')).toBe('reject,approve');
    expect(runningOn(running, '12')).toBe('approve');
    expect(runningOn(running, '3')).toBe('');
  });

  it('marks held rows by who made the hold', () => {
    const marks = heldMarks(
      new Map([
        ['1', { mine: true, action: 'approve' }],
        ['2', { mine: false, action: 'reject' }],
        ['3', { mine: false, action: null }],
      ]),
    );
    expect([...marks]).toEqual([
      ['1', 'mine:approve'],
      ['2', 'other:reject'],
      ['3', ''],
    ]);
  });
});

describe('log pages: filters and page in the address', () => {
  const names = ['actor', 'kind'] as const;
  const sizes = [20, 50, 100];

  it('reads filters, page and size, falling back where the address asks for what is not offered', () => {
    expect(readAddress('actor=ann&pageNum=3&pageSize=50', names, sizes)).toEqual({
      filters: { actor: 'ann', kind: '' },
      pageNum: 3,
      pageSize: 50,
    });
    expect(readAddress('pageNum=-2&pageSize=7', names, sizes)).toEqual({
      filters: { actor: '', kind: '' },
      pageNum: 1,
      pageSize: 20,
    });
  });

  it('writes the filled filters trimmed and in order, the first page and size left out', () => {
    const page = { filters: { actor: ' ann ', kind: 'action' }, pageNum: 1, pageSize: 20 };
    expect(writeAddress(page, names, sizes)).toBe('actor=ann&kind=action');
    expect(writeAddress({ ...page, filters: { actor: '', kind: '' }, pageNum: 2, pageSize: 100 }, names, sizes)).toBe(
      'pageNum=2&pageSize=100',
    );
    expect(filledFilters({ actor: '  ', kind: 'x' }, names)).toEqual({ kind: 'x' });
  });

  it('round-trips what it writes', () => {
    const page = { filters: { actor: 'a b&c', kind: '' }, pageNum: 4, pageSize: 50 };
    expect(readAddress(writeAddress(page, names, sizes), names, sizes)).toEqual(page);
  });
});
