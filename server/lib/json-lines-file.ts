import { open, rename, rm, type FileHandle } from 'node:fs/promises';

// What the append-only JSON-lines files (the audit trail, the error log) have in common: one
// promise queue per file, whole-line appends through one handle, files rewritten through a
// temporary file, and reading lines in chunks either way. What each line means stays with its store.

const NEWLINE = 0x0a;

export function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

/**
 * Runs a store's operations one after the other, in the order they come: appends stay whole and
 * in order, and a page is never read while trimming moves the file under it. A failed operation
 * fails its own call, never the ones queued after it.
 */
export class OperationQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;

  /** `closedMessage`: what a call made after close() rejects with. */
  constructor(private readonly closedMessage: string) {}

  run<T>(operation: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error(this.closedMessage));
    const result = this.tail.then(operation);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Waits for every operation queued so far. */
  async flush(): Promise<void> {
    await this.run(async () => undefined);
  }

  /** Runs `last` after everything queued, then refuses further calls. Safe to call twice. */
  async close(last: () => Promise<void>): Promise<void> {
    if (this.closed) {
      await this.tail;
      return;
    }
    const done = this.run(last);
    this.closed = true;
    await done;
  }
}

/**
 * The file a store appends to: one handle opened 'a+' (appends land at the end whatever the
 * position, and lines can still be read at their offsets) and the file's size, kept so that
 * neither an append nor a rotation needs a stat.
 */
export class AppendFile {
  /** Bytes in the file as this process wrote or found it. */
  bytes = 0;
  private handle: FileHandle | null = null;

  /** `name`: how errors call the file ("the audit trail"). */
  constructor(
    readonly path: string,
    private readonly name: string,
  ) {}

  /** Opens the file (created when missing); a reopen releases the earlier handle first, so none leaks. */
  async open(): Promise<void> {
    await this.close();
    this.handle = await open(this.path, 'a+');
    this.bytes = (await this.handle.stat()).size;
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    if (handle) await handle.close();
  }

  /**
   * Writes data with one write call, so a crash leaves at most that one line torn; a short write
   * (disk full) is retried for the rest. `bytes` counts it once it is written. On a failure,
   * `recover` gets the bytes that did reach the file before the error is thrown on.
   */
  async append(data: Buffer, recover: (written: number) => Promise<void>): Promise<void> {
    const handle = this.opened();
    let written = 0;
    try {
      while (written < data.length) {
        const { bytesWritten } = await handle.write(data, written, data.length - written);
        written += bytesWritten;
      }
    } catch (error) {
      await recover(written);
      throw error;
    }
    this.bytes += data.length;
  }

  /** Up to `length` bytes from `offset` (fewer at the end of the file). */
  async read(offset: number, length: number): Promise<Buffer> {
    const buffer = Buffer.allocUnsafe(length);
    const { bytesRead } = await this.opened().read(buffer, 0, length, offset);
    return buffer.subarray(0, bytesRead);
  }

  async truncate(size: number): Promise<void> {
    await this.opened().truncate(size);
    this.bytes = size;
  }

  /** The size on disk, for a store that lost count after a failed write. */
  async size(): Promise<number> {
    return (await this.opened().stat()).size;
  }

  private opened(): FileHandle {
    if (!this.handle) throw new Error(`${this.name} is not open`);
    return this.handle;
  }
}

/**
 * Replaces a file with what `fill` writes, through a temporary file beside it that is synced and
 * renamed over it: a crash leaves either the old file or the new one, never a mix.
 */
export async function replaceFile(path: string, fill: (out: FileHandle) => Promise<void>): Promise<void> {
  const temporary = `${path}.tmp`;
  try {
    const out = await open(temporary, 'w');
    try {
      await fill(out);
      await out.sync();
    } finally {
      await out.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

export interface FileLine {
  text: string;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** Length in bytes, without the newline. */
  length: number;
  /** 1-based. */
  number: number;
  /** False for a last line the file does not end (a write a crash cut short). */
  ended: boolean;
}

/**
 * Yields the lines of a file from the first, with their byte offsets, reading it in chunks, so a
 * long trail is indexed or verified without holding it whole. Lines are split on the newline byte
 * before decoding, which is safe in UTF-8 (0x0a never occurs inside a character). Empty lines are
 * yielded too: the verifier must see every byte. A missing file yields nothing.
 */
export async function* readLinesForward(path: string, chunkBytes = 256 * 1024): AsyncGenerator<FileLine> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  try {
    let position = 0;
    let carry: Buffer = Buffer.alloc(0);
    let carryOffset = 0;
    let number = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(chunkBytes);
      const { bytesRead } = await handle.read(chunk, 0, chunkBytes, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const buffer =
        carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      let start = 0;
      for (;;) {
        const newline = buffer.indexOf(NEWLINE, start);
        if (newline === -1) break;
        number++;
        yield {
          text: buffer.toString('utf8', start, newline),
          offset: carryOffset + start,
          length: newline - start,
          number,
          ended: true,
        };
        start = newline + 1;
      }
      carryOffset += start;
      carry = Buffer.from(buffer.subarray(start));
    }
    if (carry.length > 0) {
      number++;
      yield { text: carry.toString('utf8'), offset: carryOffset, length: carry.length, number, ended: false };
    }
  } finally {
    await handle.close();
  }
}

/** Reads up to buffer.length bytes; fewer only when the file was truncated by someone else. */
async function readFully(handle: FileHandle, buffer: Buffer, position: number): Promise<Buffer> {
  let done = 0;
  while (done < buffer.length) {
    const { bytesRead } = await handle.read(buffer, done, buffer.length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return buffer.subarray(0, done);
}

/**
 * Yields the non-empty lines of a file from the last to the first, reading it in chunks from the
 * end, so that the newest entries of a large log cost one small read. A missing file yields
 * nothing. Split on the newline byte before decoding, as readLinesForward.
 */
export async function* readLinesBackward(path: string, chunkBytes = 64 * 1024): AsyncGenerator<string> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if (isNotFound(error)) return;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    let position = size;
    let carry: Buffer = Buffer.alloc(0);
    while (position > 0) {
      const length = Math.min(chunkBytes, position);
      position -= length;
      const chunk = await readFully(handle, Buffer.allocUnsafe(length), position);
      const buffer = carry.length > 0 ? Buffer.concat([chunk, carry]) : chunk;
      let end = buffer.length;
      while (end > 0) {
        const newline = buffer.lastIndexOf(NEWLINE, end - 1);
        if (newline === -1) break;
        if (newline + 1 < end) yield buffer.toString('utf8', newline + 1, end);
        end = newline;
      }
      carry = buffer.subarray(0, end);
    }
    if (carry.length > 0) yield carry.toString('utf8');
  } finally {
    await handle.close();
  }
}
