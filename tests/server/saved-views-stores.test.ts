import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PrimaryChannel } from '../../server/cluster/ipc.js';
import { FileSavedViewStore, adminFileName } from '../../server/saved-views/file-store.js';
import { IpcSavedViewStore, savedViewsPrimary } from '../../server/saved-views/ipc-store.js';

/** The saved-view stores on their own: the cluster workers' (through the primary's file) and a damaged file. */

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'views-store-'));

describe('the cluster workers’ store (WORKERS > 1 without Redis)', () => {
  it('sends every call to the primary’s one file, so each worker lists what another saved', async () => {
    const dir = tempDir();
    const primary = await savedViewsPrimary(dir);
    // What crosses IPC is structured-cloned: a JSON round trip stands for it here.
    const channel = {
      call: async (method: string, params: unknown) =>
        JSON.parse(
          JSON.stringify((await primary.handlers[method]!(JSON.parse(JSON.stringify(params)), null as never)) ?? null),
        ),
    } as unknown as PrimaryChannel;
    const one = new IpcSavedViewStore(channel);
    const two = new IpcSavedViewStore(channel);
    const limits = { perList: 2, perAdmin: 3 };
    expect(await one.put('11', 'users', { name: 'A', query: 'a=1' }, limits)).toEqual({
      saved: true,
      list: [{ name: 'A', query: 'a=1' }],
    });
    expect(await two.put('11', 'users', { name: 'B', query: 'b=1' }, limits)).toMatchObject({ saved: true });
    expect(await one.put('11', 'users', { name: 'C', query: '' }, limits)).toEqual({
      saved: false,
      reason: 'full',
      per: 'list',
    });
    expect(await one.put('11', 'groups', { name: 'C', query: '' }, limits)).toMatchObject({ saved: true });
    expect(await two.put('11', 'groups', { name: 'D', query: '' }, limits)).toEqual({
      saved: false,
      reason: 'full',
      per: 'administrator',
    });
    expect(await two.list('11', 'users')).toEqual([
      { name: 'A', query: 'a=1' },
      { name: 'B', query: 'b=1' },
    ]);
    expect(await two.list('12', 'users')).toEqual([]);
    expect(await one.remove('11', 'users', 'A')).toBe(true);
    expect(await two.remove('11', 'users', 'A')).toBe(false);
    await primary.store.close();
    expect(JSON.parse(readFileSync(path.join(dir, 'saved-views', adminFileName('11')), 'utf8'))).toEqual({
      version: 2,
      userId: '11',
      lists: { users: [{ name: 'B', query: 'b=1' }], groups: [{ name: 'C', query: '' }] },
    });
  });
});

describe('the file store', () => {
  it('sets an unreadable file aside and starts that administrator from no views, and skips broken entries', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'saved-views'));
    writeFileSync(path.join(dir, 'saved-views', adminFileName('11')), '{"version": 2, "users": ');
    const told: string[] = [];
    const store = new FileSavedViewStore({ dir, onUnreadable: (_file, aside) => told.push(aside) });
    await store.open();
    expect(await store.list('11', 'users')).toEqual([]);
    expect(told).toHaveLength(1);
    expect(readdirSync(path.join(dir, 'saved-views')).some((f) => f.includes('.unreadable-'))).toBe(true);
    await store.close();

    const other = tempDir();
    mkdirSync(path.join(other, 'saved-views'));
    writeFileSync(
      path.join(other, 'saved-views', adminFileName('11')),
      JSON.stringify({
        version: 2,
        userId: '11',
        lists: { users: [{ name: 'ok', query: 'a=1' }, { name: 5 }, 'x', { name: 'long', query: 'q'.repeat(5000) }] },
      }),
    );
    const reread = new FileSavedViewStore({ dir: other });
    await reread.open();
    expect(await reread.list('11', 'users')).toEqual([{ name: 'ok', query: 'a=1' }]);
    // A file moved to another administrator's name is not theirs.
    expect(await reread.list('12', 'users')).toEqual([]);
    await reread.close();
  });

  it('splits the single file of an older version into one file per administrator, `__proto__` included, once', async () => {
    const dir = tempDir();
    // Written as text: an object literal would take "__proto__" as its prototype, as the old store did.
    writeFileSync(
      path.join(dir, 'saved-views.json'),
      '{"version":1,"users":{"11":{"users":[{"name":"A","query":"a=1"}],"__proto__":[{"name":"P","query":""}]},' +
        '"__proto__":{"groups":[{"name":"G","query":"g=1"}]},"12":"broken"}}',
    );
    const store = new FileSavedViewStore({ dir });
    await store.open();
    expect(await store.list('11', 'users')).toEqual([{ name: 'A', query: 'a=1' }]);
    expect(await store.list('11', '__proto__')).toEqual([{ name: 'P', query: '' }]);
    expect(await store.list('__proto__', 'groups')).toEqual([{ name: 'G', query: 'g=1' }]);
    await store.put('__proto__', 'groups', { name: 'H', query: '' }, { perList: 50, perAdmin: 200 });
    await store.close();
    expect(existsSync(path.join(dir, 'saved-views.json'))).toBe(false);
    expect(existsSync(path.join(dir, 'saved-views.json.migrated'))).toBe(true);

    // A restart finds them from the new files alone.
    const again = new FileSavedViewStore({ dir });
    await again.open();
    expect(await again.list('__proto__', 'groups')).toEqual([
      { name: 'G', query: 'g=1' },
      { name: 'H', query: '' },
    ]);
    expect(await again.list('11', '__proto__')).toEqual([{ name: 'P', query: '' }]);
    await again.close();
  });
});
