import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ErrorLogEntry } from '../../server/contract/error-log.js';
import { readLinesBackward } from '../../server/lib/json-lines-file.js';
import { ErrorLogStore, parseEntry } from '../../server/error-log/store.js';

function entry(i: number, overrides: Partial<ErrorLogEntry> = {}): ErrorLogEntry {
  return {
    id: `e${i}`,
    time: new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString(),
    message: `message ${i}`,
    url: `/page/${i}`,
    userId: null,
    userAgent: null,
    ...overrides,
  };
}

async function fileLines(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text.slice(0, -1).split('\n');
}

let dir: string;
let stores: ErrorLogStore[];

function makeStore(options: { maxFileBytes?: number; generations?: number } = {}): ErrorLogStore {
  const store = new ErrorLogStore({ dir, ...options });
  stores.push(store);
  return store;
}

beforeEach(async () => {
  dir = join(await mkdtemp(join(tmpdir(), 'error-log-store-')), 'nested', 'data');
  stores = [];
});

afterEach(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await rm(join(dir, '..', '..'), { recursive: true, force: true });
});

describe('ErrorLogStore', () => {
  it('creates its directory and lists newest first with paging', async () => {
    const store = makeStore();
    for (let i = 0; i < 25; i++) await store.append(entry(i));

    const first = await store.list({ pageNum: 1, pageSize: 10 });
    expect(first.total).toBe(25);
    expect(first.list.map((e) => e.id)).toEqual(['e24', 'e23', 'e22', 'e21', 'e20', 'e19', 'e18', 'e17', 'e16', 'e15']);
    expect(first.list[0]).toEqual(entry(24));

    const last = await store.list({ pageNum: 3, pageSize: 10 });
    expect(last).toEqual({ total: 25, list: [4, 3, 2, 1, 0].map((i) => entry(i)) });

    const beyond = await store.list({ pageNum: 4, pageSize: 10 });
    expect(beyond).toEqual({ total: 25, list: [] });
    expect(await fileLines(store.pathOf(0))).toHaveLength(25);
  });

  it('filters by keyword over message and URL and by time, counting only matches', async () => {
    const store = makeStore();
    for (let i = 0; i < 12; i++) {
      await store.append(entry(i, i % 3 === 0 ? { message: `TypeError in chart ${i}` } : {}));
    }
    await store.append(entry(12, { url: '/finance/Chart-page' }));

    const byKeyword = await store.list({ pageNum: 1, pageSize: 3, keyword: 'chart' });
    expect(byKeyword.total).toBe(5);
    expect(byKeyword.list.map((e) => e.id)).toEqual(['e12', 'e9', 'e6']);
    const secondPage = await store.list({ pageNum: 2, pageSize: 3, keyword: 'CHART' });
    expect(secondPage.list.map((e) => e.id)).toEqual(['e3', 'e0']);

    const since = Date.UTC(2024, 0, 1, 0, 0, 5);
    const until = Date.UTC(2024, 0, 1, 0, 0, 8);
    const byTime = await store.list({ pageNum: 1, pageSize: 10, since, until });
    expect(byTime).toEqual({
      total: 4,
      list: [8, 7, 6, 5].map((i) => entry(i, i % 3 === 0 ? { message: `TypeError in chart ${i}` } : {})),
    });

    const both = await store.list({ pageNum: 1, pageSize: 10, keyword: 'chart', since });
    expect(both.list.map((e) => e.id)).toEqual(['e12', 'e9', 'e6']);
  });

  it('skips a torn last line and starts the next entry on a line of its own', async () => {
    const first = makeStore();
    await first.append(entry(0));
    await first.append(entry(1));
    await first.close();
    const path = first.pathOf(0);
    const whole = await readFile(path, 'utf8');
    // What a crash in the middle of the third write leaves behind.
    await writeFile(path, whole + JSON.stringify(entry(2)).slice(0, 30));

    const second = makeStore();
    expect(await second.list({ pageNum: 1, pageSize: 10 })).toEqual({ total: 2, list: [entry(1), entry(0)] });
    await second.append(entry(3));

    const lines = await fileLines(path);
    expect(lines).toHaveLength(4);
    expect(lines.map((line) => parseEntry(line)?.id ?? null)).toEqual(['e0', 'e1', null, 'e3']);
    expect(await second.list({ pageNum: 1, pageSize: 10 })).toEqual({ total: 3, list: [entry(3), entry(1), entry(0)] });
  });

  it('skips lines that are JSON but not entries', async () => {
    const store = makeStore();
    await store.append(entry(0));
    await store.close();
    await writeFile(store.pathOf(0), '{"hello":1}\n[1,2]\nnot json\n\n' + JSON.stringify(entry(1)) + '\n', {
      flag: 'a',
    });
    const reopened = makeStore();
    expect(await reopened.list({ pageNum: 1, pageSize: 10 })).toEqual({ total: 2, list: [entry(1), entry(0)] });
  });

  it('rotates past the size cap, keeps the configured generations and lists across them', async () => {
    const lineBytes = Buffer.byteLength(JSON.stringify(entry(10)) + '\n');
    const maxFileBytes = lineBytes * 4;
    const store = makeStore({ maxFileBytes, generations: 3 });
    for (let i = 10; i < 40; i++) await store.append(entry(i));

    const files = (await readdir(dir)).sort();
    expect(files).toEqual(['error-log.1.jsonl', 'error-log.2.jsonl', 'error-log.3.jsonl', 'error-log.jsonl']);
    for (const file of files) expect((await stat(join(dir, file))).size).toBeLessThanOrEqual(maxFileBytes);
    // 30 entries, 4 per file: the current file holds the last 2, each rotated one 4, the oldest 12 are gone.
    expect(await fileLines(store.pathOf(0))).toHaveLength(2);
    expect((await fileLines(store.pathOf(3))).map((line) => parseEntry(line)?.id)).toEqual([
      'e26',
      'e27',
      'e28',
      'e29',
    ]);

    const all = await store.list({ pageNum: 1, pageSize: 100 });
    const expected = Array.from({ length: 14 }, (_, k) => `e${39 - k}`);
    expect(all.total).toBe(14);
    expect(all.list.map((e) => e.id)).toEqual(expected);

    // A page that starts inside the second rotated file and ends in the third.
    const page = await store.list({ pageNum: 3, pageSize: 4 });
    expect(page).toEqual({ total: 14, list: [31, 30, 29, 28].map((i) => entry(i)) });

    // A fresh process counts the rotated files from disk and agrees.
    await store.close();
    const reopened = makeStore({ maxFileBytes, generations: 3 });
    expect(await reopened.list({ pageNum: 2, pageSize: 5 })).toEqual({
      total: 14,
      list: [34, 33, 32, 31, 30].map((i) => entry(i)),
    });
    const filtered = await reopened.list({ pageNum: 1, pageSize: 100, keyword: 'message 2' });
    expect(filtered.list.map((e) => e.id)).toEqual(['e29', 'e28', 'e27', 'e26']);
  });

  it('clears every generation', async () => {
    const lineBytes = Buffer.byteLength(JSON.stringify(entry(10)) + '\n');
    const store = makeStore({ maxFileBytes: lineBytes * 2 });
    for (let i = 10; i < 20; i++) await store.append(entry(i));
    expect((await readdir(dir)).length).toBe(4);

    await store.clear();
    expect(await store.list({ pageNum: 1, pageSize: 10 })).toEqual({ total: 0, list: [] });
    expect(await readdir(dir)).toEqual(['error-log.jsonl']);

    await store.append(entry(20));
    expect(await store.list({ pageNum: 1, pageSize: 10 })).toEqual({ total: 1, list: [entry(20)] });
  });

  it('writes 50 concurrent appends as 50 whole lines', async () => {
    const store = makeStore();
    const big = 'x'.repeat(5000);
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.append(entry(i, { stack: `${i}:${big}` }))));

    const lines = await fileLines(store.pathOf(0));
    expect(lines).toHaveLength(50);
    const ids = lines.map((line) => parseEntry(line)?.id);
    expect(new Set(ids).size).toBe(50);
    expect(ids).toEqual(Array.from({ length: 50 }, (_, i) => `e${i}`));
    expect((await store.list({ pageNum: 1, pageSize: 1 })).total).toBe(50);
  });

  it('close waits for queued writes and refuses later ones', async () => {
    const store = makeStore();
    const pending = Array.from({ length: 10 }, (_, i) => store.append(entry(i)));
    await store.close();
    expect(await fileLines(store.pathOf(0))).toHaveLength(10);
    await Promise.all(pending);
    await expect(store.append(entry(10))).rejects.toThrow(/closed/);
    await store.close();
  });
});

describe('readLinesBackward', () => {
  it('yields lines last to first across chunk boundaries without splitting characters', async () => {
    await mkdir(dir, { recursive: true });
    const path = join(dir, 'lines.txt');
    const lines = ['héllo wörld', '', '日本語のテキスト', 'a', 'emoji 😀 here', 'no newline at end'];
    await writeFile(path, lines.join('\n'));
    for (const chunk of [1, 3, 7, 64 * 1024]) {
      const seen: string[] = [];
      for await (const line of readLinesBackward(path, chunk)) seen.push(line);
      expect(seen).toEqual(lines.filter((line) => line !== '').reverse());
    }
  });

  it('yields nothing for a missing file', async () => {
    const seen: string[] = [];
    for await (const line of readLinesBackward(join(dir, 'missing.jsonl'))) seen.push(line);
    expect(seen).toEqual([]);
  });
});
