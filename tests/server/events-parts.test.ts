import { afterEach, describe, expect, it } from 'vitest';
import { heldPermissions, readCount } from '../../server/events/answers.js';
import { PermissionCache, type Access } from '../../server/events/permission-cache.js';
import { HEARTBEAT_CHUNK, SseStreams, eventChunk, retryChunk, type SseSink } from '../../server/events/sse-streams.js';
import { waitUntil } from '../support/wait.js';

/** The parts under test run on periods of milliseconds: check every 5 ms, give up after 5 s. */
const waitFor = (condition: () => boolean, what: string) =>
  waitUntil(condition, what, { timeoutMs: 5_000, intervalMs: 5 });

/** Records what a stream was sent; `stuck` simulates a client that stopped reading. */
class FakeSink implements SseSink {
  chunks: string[] = [];
  writableEnded = false;
  destroyed = false;
  writableLength = 0;
  constructor(private readonly stuck = false) {}
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    if (this.stuck) this.writableLength += Buffer.byteLength(chunk);
    return !this.stuck;
  }
  end(chunk?: string): void {
    if (chunk !== undefined) this.chunks.push(chunk);
    this.writableEnded = true;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

describe('answers', () => {
  it('reads permission lists of objects or strings and ignores junk', () => {
    expect(heldPermissions([{ permission: '/manage/a' }, '/manage/b', { id: 3 }, null, 7])).toEqual([
      '/manage/a',
      '/manage/b',
    ]);
    expect(heldPermissions(null)).toEqual([]);
    expect(heldPermissions({ permission: '/manage/a' })).toEqual([]);
  });

  it('reads counts as numbers, numeric strings or {count}', () => {
    expect(readCount(3)).toBe(3);
    expect(readCount(0)).toBe(0);
    expect(readCount('12')).toBe(12);
    expect(readCount({ count: 5 })).toBe(5);
    expect(readCount(-1)).toBeNull();
    expect(readCount(Number.NaN)).toBeNull();
    expect(readCount('many')).toBeNull();
    expect(readCount(null)).toBeNull();
    expect(readCount([4])).toBeNull();
    expect(readCount({})).toBeNull();
  });
});

describe('PermissionCache', () => {
  function counted(answer: () => Promise<Access>) {
    const calls: string[] = [];
    return {
      calls,
      lookUp: (session: string) => {
        calls.push(session);
        return answer();
      },
    };
  }

  it('shares one look-up between concurrent and later callers until it expires', async () => {
    let now = 1_000;
    const { calls, lookUp } = counted(async () => 'allowed');
    const cache = new PermissionCache<string>({ ttlMs: 60_000, lookUp, now: () => now });
    const answers = await Promise.all([cache.get('k', 's'), cache.get('k', 's'), cache.get('k', 's')]);
    expect(answers).toEqual(['allowed', 'allowed', 'allowed']);
    expect(calls).toEqual(['s']);
    now += 59_999;
    expect(await cache.get('k', 's')).toBe('allowed');
    expect(calls).toHaveLength(1);
    now += 2;
    await cache.get('k', 's');
    expect(calls).toHaveLength(2);
  });

  it('forgets a failed look-up so the next caller asks again', async () => {
    let fail = true;
    const { calls, lookUp } = counted(async () => {
      if (fail) throw new Error('backend down');
      return 'forbidden';
    });
    const cache = new PermissionCache<string>({ ttlMs: 60_000, lookUp });
    await expect(cache.get('k', 's')).rejects.toThrow('backend down');
    fail = false;
    expect(await cache.get('k', 's')).toBe('forbidden');
    expect(calls).toHaveLength(2);
  });

  it('takes answers learnt elsewhere and stays within its size bound', async () => {
    const { calls, lookUp } = counted(async () => 'allowed');
    const cache = new PermissionCache<string>({ ttlMs: 60_000, lookUp, maxEntries: 3 });
    cache.set('dead', 'unauthorized');
    expect(await cache.get('dead', 's')).toBe('unauthorized');
    expect(calls).toHaveLength(0);
    for (const key of ['a', 'b', 'c', 'd']) await cache.get(key, key);
    expect(cache.size).toBe(3);
    // The oldest entry went first.
    await cache.get('dead', 'dead');
    expect(calls).toContain('dead');
  });
});

describe('SseStreams', () => {
  const sets: SseStreams<FakeSink>[] = [];
  afterEach(() => {
    for (const set of sets.splice(0)) set.endAll();
  });
  function makeSet(heartbeatMs: number, maxBufferedBytes = 1024) {
    const sizes: number[] = [];
    const set = new SseStreams<FakeSink>({ heartbeatMs, maxBufferedBytes, onSizeChange: (n) => sizes.push(n) });
    sets.push(set);
    return { set, sizes };
  }

  it('formats events, retry hints and heartbeats as SSE lines', () => {
    expect(eventChunk('withdrawal-count', { count: 2 })).toBe('event: withdrawal-count\ndata: {"count":2}\n\n');
    expect(eventChunk('x', { text: 'a\nb' })).toBe('event: x\ndata: {"text":"a\\nb"}\n\n');
    expect(retryChunk(3000)).toBe('retry: 3000\n\n');
    expect(HEARTBEAT_CHUNK.startsWith(':')).toBe(true);
  });

  it('sends heartbeats to every open stream from one timer, and none to closed ones', async () => {
    const { set, sizes } = makeSet(15);
    const a = new FakeSink();
    const b = new FakeSink();
    set.add(a);
    set.add(b);
    await waitFor(() => a.chunks.length >= 2 && b.chunks.length >= 2, 'two heartbeats each');
    expect(new Set([...a.chunks, ...b.chunks])).toEqual(new Set([HEARTBEAT_CHUNK]));
    expect(set.delete(b)).toBe(true);
    expect(set.delete(b)).toBe(false);
    const bHeard = b.chunks.length;
    const aHeard = a.chunks.length;
    await waitFor(() => a.chunks.length >= aHeard + 2, 'more heartbeats for a');
    expect(b.chunks.length).toBe(bHeard);
    expect(sizes).toEqual([1, 2, 1]);
  });

  it('cuts a stream whose client stopped reading instead of buffering without end', () => {
    const { set } = makeSet(60_000, 100);
    const stuck = new FakeSink(true);
    set.add(stuck);
    let sent = 0;
    while (set.send(stuck, eventChunk('withdrawal-count', { count: sent }))) sent += 1;
    expect(stuck.destroyed).toBe(true);
    expect(stuck.writableLength).toBeLessThan(100 + 64);
    expect(sent).toBeGreaterThan(0);
  });

  it('ends every stream with the last chunk and reports none open', () => {
    const { set, sizes } = makeSet(60_000);
    const a = new FakeSink();
    const b = new FakeSink();
    set.add(a);
    set.add(b);
    const ended = set.endAll(retryChunk(3000));
    expect(ended).toHaveLength(2);
    for (const sink of [a, b]) {
      expect(sink.writableEnded).toBe(true);
      expect(sink.chunks.at(-1)).toBe('retry: 3000\n\n');
    }
    expect(set.size).toBe(0);
    expect(sizes.at(-1)).toBe(0);
    expect(set.send(a, HEARTBEAT_CHUNK)).toBe(false);
  });
});
