import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markUploaded, viewsToUpload } from '../../web/engine/list/saved-views-migration.js';

/** Which of a browser's old saved views go to the gateway: once per list, only when the gateway has none. */

class MemoryStorage {
  private readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage();
  (globalThis as { localStorage?: unknown }).localStorage = storage;
});
afterEach(() => {
  delete (globalThis as { localStorage?: unknown }).localStorage;
});

const OLD = [
  { name: 'Banned', query: 'status=banned' },
  { name: '', query: 'x' },
  'junk',
  { name: 'Rich', query: 'sort=-balance' },
];

describe('uploading the browser’s old views', () => {
  it('offers the valid ones when the gateway has none, and nothing once they are uploaded', () => {
    storage.setItem('console.views.users', JSON.stringify(OLD));
    expect(viewsToUpload('users', [])).toEqual([
      { name: 'Banned', query: 'status=banned' },
      { name: 'Rich', query: 'sort=-balance' },
    ]);
    // Not yet marked: a failed upload asks again next time.
    expect(viewsToUpload('users', [])).toHaveLength(2);
    markUploaded('users');
    expect(storage.getItem('console.views.users')).toBeNull();
    expect(viewsToUpload('users', [])).toEqual([]);
  });

  it('leaves them when the gateway already has views of that list, and never offers them later', () => {
    storage.setItem('console.views.users', JSON.stringify(OLD));
    expect(viewsToUpload('users', [{ name: 'At the gateway', query: '' }])).toEqual([]);
    expect(viewsToUpload('users', [])).toEqual([]);
  });

  it('marks a list with nothing (or nothing readable) in the browser as done', () => {
    storage.setItem('console.views.groups', '{broken');
    expect(viewsToUpload('groups', [])).toEqual([]);
    expect(storage.getItem('console.views-uploaded.groups')).toBe('1');
    expect(viewsToUpload('users', [])).toEqual([]);
    expect(storage.getItem('console.views-uploaded.users')).toBe('1');
  });
});
