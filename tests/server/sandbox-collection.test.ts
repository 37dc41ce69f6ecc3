import { describe, expect, it } from 'vitest';
import { Collection, filterBy, type ListQuery } from '../../sandbox/store/collection.js';

/**
 * The sandbox's table under its list calls: a page with no filter is cut straight from the kept
 * sort order, a filtered one is read row by row; both must give the pages a plain sort gives, and
 * the order must follow values changed in place.
 */

interface Item {
  id: number;
  score: number;
  seen: string;
  kind: 'a' | 'b';
}

function items(count: number): Omit<Item, 'id'>[] {
  // A fixed scramble, so ties and an order unrelated to the ids both occur.
  return Array.from({ length: count }, (_, i) => ({
    score: (i * 7919) % 97,
    seen: new Date(Date.UTC(2026, 0, 1) + ((i * 104729) % 1000) * 60_000).toISOString(),
    kind: i % 3 === 0 ? 'a' : 'b',
  }));
}

function table(count: number): Collection<Item> {
  const collection = new Collection<Item>({
    keywordFields: [],
    sortFields: ['id', 'score', 'seen'],
    defaultSort: { field: 'id', desc: false },
    filters: { kind: filterBy.exact('kind') },
  });
  for (const fields of items(count)) collection.insert(fields);
  return collection;
}

const query = (sort: string, desc: boolean, pageNum: number, pageSize: number, filters = {}): ListQuery => ({
  pageNum,
  pageSize,
  keyword: '',
  sort: { field: sort, desc },
  filters,
});

/** What a page must hold: the rows sorted by the field, ties by id, read from the chosen end. */
function expected(rows: readonly Item[], field: 'id' | 'score' | 'seen', desc: boolean, pageNum: number, size: number) {
  const sorted = [...rows].sort((a, b) => (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : a.id - b.id));
  if (desc) sorted.reverse();
  return sorted.slice((pageNum - 1) * size, pageNum * size).map((r) => r.id);
}

describe('the sandbox table', () => {
  it('answers every page of every sort, either way, as a plain sort would, with the whole count', () => {
    const collection = table(250);
    for (const field of ['id', 'score', 'seen'] as const)
      for (const desc of [false, true])
        for (const pageNum of [1, 2, 3, 7]) {
          const page = collection.query(query(field, desc, pageNum, 40));
          expect(page.total).toBe(250);
          expect(page.list.map((r) => r.id)).toEqual(expected(collection.all(), field, desc, pageNum, 40));
        }
  });

  it('answers a filtered page from the matching rows only', () => {
    const collection = table(250);
    const matching = collection.all().filter((r) => r.kind === 'a');
    const page = collection.query(query('score', true, 2, 20, { kind: 'a' }));
    expect(page.total).toBe(matching.length);
    expect(page.list.map((r) => r.id)).toEqual(expected(matching, 'score', true, 2, 20));
  });

  it('follows a value changed in place, and rows added or removed', () => {
    const collection = table(120);
    collection.query(query('score', false, 1, 10));
    // Changed behind the table's back, as the ledger changes a balance.
    collection.get(50)!.score = -1;
    expect(collection.query(query('score', false, 1, 1)).list[0]!.id).toBe(50);
    collection.remove([50]);
    const added = collection.insert({ score: -5, seen: '2020-01-01T00:00:00.000Z', kind: 'b' });
    const page = collection.query(query('score', false, 1, 3));
    expect(page.total).toBe(120);
    expect(page.list.map((r) => r.id)).toEqual(expected(collection.all(), 'score', false, 1, 3));
    expect(page.list[0]!.id).toBe(added.id);
  });

  it('keeps every page right when a few or many values change in place between calls', () => {
    const collection = table(300);
    for (const changes of [3, 40, 200]) {
      for (const field of ['score', 'seen'] as const) collection.query(query(field, false, 1, 10));
      for (let k = 0; k < changes; k++) {
        const row = collection.get(1 + ((k * 37) % 300))!;
        row.score = (k * 13) % 101;
        row.seen = new Date(Date.UTC(2025, 5, 1) + k * 3_600_000).toISOString();
      }
      for (const field of ['score', 'seen'] as const)
        for (const desc of [false, true])
          for (const pageNum of [1, 4, 8]) {
            const page = collection.query(query(field, desc, pageNum, 40));
            expect(page.list.map((r) => r.id)).toEqual(expected(collection.all(), field, desc, pageNum, 40));
          }
    }
  });

  it('answers an empty page past the last one, still with the whole count', () => {
    const page = table(30).query(query('id', false, 5, 10));
    expect(page).toEqual({ list: [], total: 30 });
  });
});
