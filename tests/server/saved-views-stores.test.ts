import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PrimaryChannel } from '../../server/cluster/ipc.js';
import { FileSavedViewStore } from '../../server/saved-views/file-store.js';
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
    expect(await one.put('11', 'users', { name: 'A', query: 'a=1' }, 2)).toEqual({
      saved: true,
      list: [{ name: 'A', query: 'a=1' }],
    });
    expect(await two.put('11', 'users', { name: 'B', query: 'b=1' }, 2)).toMatchObject({ saved: true });
    expect(await one.put('11', 'users', { name: 'C', query: '' }, 2)).toEqual({ saved: false, reason: 'full' });
    expect(await two.list('11', 'users')).toEqual([
      { name: 'A', query: 'a=1' },
      { name: 'B', query: 'b=1' },
    ]);
    expect(await two.list('12', 'users')).toEqual([]);
    expect(await one.remove('11', 'users', 'A')).toBe(true);
    expect(await two.remove('11', 'users', 'A')).toBe(false);
    await primary.store.close();
    expect(JSON.parse(readFileSync(path.join(dir, 'saved-views.json'), 'utf8'))).toEqual({
      version: 1,
      users: { '11': { users: [{ name: 'B', query: 'b=1' }] } },
    });
  });
});

describe('the file store', () => {
  it('sets an unreadable file aside and starts from no views, and skips broken entries of a readable one', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'saved-views.json'), '{"version": 1, "users": ');
    const told: string[] = [];
    const store = new FileSavedViewStore({ dir, onUnreadable: (_file, aside) => told.push(aside) });
    expect(await store.list('11', 'users')).toEqual([]);
    expect(told).toHaveLength(1);
    expect(readdirSync(dir).some((f) => f.startsWith('saved-views.json.unreadable-'))).toBe(true);
    await store.close();

    const other = tempDir();
    writeFileSync(
      path.join(other, 'saved-views.json'),
      JSON.stringify({
        version: 1,
        users: {
          '11': { users: [{ name: 'ok', query: 'a=1' }, { name: 5 }, 'x', { name: 'long', query: 'q'.repeat(5000) }] },
        },
      }),
    );
    const reread = new FileSavedViewStore({ dir: other });
    expect(await reread.list('11', 'users')).toEqual([{ name: 'ok', query: 'a=1' }]);
    await reread.close();
  });
});
