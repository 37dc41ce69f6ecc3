import { describe, expect, it } from 'vitest';
import { KEPT_SCREENS, keptEntries, type KeptEntry } from '../../web/app/layout/kept-entries.js';
import type { LeafRoute } from '../../web/app/route-entry.js';

const route = (path: string): LeafRoute =>
  ({ kind: 'leaf', path, name: path, meta: { title: 'route.userset' } }) as LeafRoute;
const users = route('/userpage/userset');
const groups = route('/groupset');
const words = route('/sensitive');
const paths = (entries: readonly KeptEntry[]) => entries.map((e) => e.path);

describe('kept list screens', () => {
  it('adds the screen shown, last, and keeps the ones left', () => {
    const one = keptEntries([], users, null);
    const two = keptEntries(one, groups, null);
    expect(paths(two)).toEqual(['/userpage/userset', '/groupset']);
    // Back to the users: the same mount (key), now the most recent.
    const back = keptEntries(two, users, null);
    expect(paths(back)).toEqual(['/groupset', '/userpage/userset']);
    expect(back[1]!.key).toBe(one[0]!.key);
  });

  it('returns the same array when nothing changes, so the host settles after one adjustment', () => {
    const one = keptEntries(keptEntries([], users, null), groups, null);
    expect(keptEntries(one, groups, null)).toBe(one);
    // A page that is not a kept screen (a record's page) keeps them all, hidden.
    expect(keptEntries(one, null, null)).toBe(one);
  });

  it('drops the screen being refreshed, so it mounts afresh with a new key', () => {
    const one = keptEntries(keptEntries([], users, null), groups, null);
    const refreshing = keptEntries(one, null, '/userpage/userset');
    expect(paths(refreshing)).toEqual(['/groupset']);
    const again = keptEntries(refreshing, users, null);
    expect(again[1]!.key).not.toBe(one[0]!.key);
  });

  it('drops the least recently shown past the limit', () => {
    let entries: readonly KeptEntry[] = [];
    const many = Array.from({ length: KEPT_SCREENS + 1 }, (_, i) => route(`/screen-${i}`));
    for (const r of many) entries = keptEntries(entries, r, null);
    expect(paths(entries)).toEqual(many.slice(1).map((r) => r.path));
    // Showing the oldest kept one again makes it the newest: the next one in is dropped instead.
    entries = keptEntries(entries, many[1]!, null);
    entries = keptEntries(entries, words, null);
    expect(paths(entries)).toEqual([...many.slice(3).map((r) => r.path), '/screen-1', '/sensitive']);
  });
});
