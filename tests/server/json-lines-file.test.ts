import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AppendFile,
  OperationQueue,
  readLinesBackward,
  readLinesForward,
  replaceFile,
} from '../../server/lib/json-lines-file.js';
import { streamField } from '../../server/lib/redis-stream-pages.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'json-lines-file-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function collect<T>(lines: AsyncGenerator<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const line of lines) all.push(line);
  return all;
}

describe('the operation queue', () => {
  it('runs operations in the order they come, and a failed one fails only its own call', async () => {
    const queue = new OperationQueue('closed');
    const order: string[] = [];
    const first = queue.run(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      order.push('first');
      return 1;
    });
    const failing = queue.run(async () => {
      order.push('failing');
      throw new Error('no');
    });
    const third = queue.run(async () => {
      order.push('third');
      return 3;
    });
    await expect(first).resolves.toBe(1);
    await expect(failing).rejects.toThrow('no');
    await expect(third).resolves.toBe(3);
    expect(order).toEqual(['first', 'failing', 'third']);
  });

  it('closes after what was queued, then refuses calls with its message; closing twice is safe', async () => {
    const queue = new OperationQueue('The log is closed');
    const done: string[] = [];
    void queue.run(async () => {
      done.push('queued');
    });
    await queue.close(async () => {
      done.push('last');
    });
    await queue.close(async () => {
      done.push('again');
    });
    expect(done).toEqual(['queued', 'last']);
    await expect(queue.run(async () => 1)).rejects.toThrow('The log is closed');
  });
});

describe('the append file', () => {
  it('counts what it writes and reads lines back at their offsets', async () => {
    const file = new AppendFile(join(dir, 'log.jsonl'), 'The log');
    await file.open();
    expect(file.bytes).toBe(0);
    await file.append(Buffer.from('{"a":1}\n'), async () => undefined);
    await file.append(Buffer.from('{"b":2}\n'), async () => undefined);
    expect(file.bytes).toBe(16);
    expect((await file.read(8, 7)).toString('utf8')).toBe('{"b":2}');
    await file.close();
    // A reopen finds the size on disk.
    await file.open();
    expect(file.bytes).toBe(16);
    await file.close();
    await expect(file.read(0, 1)).rejects.toThrow('The log is not open');
  });
});

describe('replacing a file', () => {
  it('leaves the new content and no temporary file', async () => {
    const path = join(dir, 'log.jsonl');
    await writeFile(path, 'old\n');
    await replaceFile(path, async (out) => {
      await out.writeFile('new\n');
    });
    expect(await readFile(path, 'utf8')).toBe('new\n');
    expect(await readdir(dir)).toEqual(['log.jsonl']);
  });

  it('keeps the old file whole when writing the new one fails, and removes the temporary file', async () => {
    const path = join(dir, 'log.jsonl');
    await writeFile(path, 'old\n');
    await expect(
      replaceFile(path, async (out) => {
        await out.writeFile('half');
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(await readFile(path, 'utf8')).toBe('old\n');
    expect(await readdir(dir)).toEqual(['log.jsonl']);
  });
});

describe('reading lines', () => {
  it('reads the same lines either way across chunk boundaries, the last one unended', async () => {
    const path = join(dir, 'log.jsonl');
    await writeFile(path, 'één\ntwo\n\nfour');
    const forward = await collect(readLinesForward(path, 3));
    expect(forward.map((line) => [line.text, line.offset, line.number, line.ended])).toEqual([
      ['één', 0, 1, true],
      ['two', 6, 2, true],
      ['', 10, 3, true],
      ['four', 11, 4, false],
    ]);
    // Backward skips empty lines: the error log has no use for them.
    expect(await collect(readLinesBackward(path, 3))).toEqual(['four', 'two', 'één']);
  });

  it('reads nothing from a missing file', async () => {
    expect(await collect(readLinesForward(join(dir, 'none.jsonl')))).toEqual([]);
    expect(await collect(readLinesBackward(join(dir, 'none.jsonl')))).toEqual([]);
  });
});

describe('stream fields', () => {
  it('finds a field by name, never by a value that reads like one', () => {
    expect(streamField(['seq', 'entry', 'entry', '{"a":1}'], 'entry')).toBe('{"a":1}');
    expect(streamField(['seq', '1'], 'entry')).toBeNull();
  });
});
