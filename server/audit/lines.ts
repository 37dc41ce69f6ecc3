import { open, type FileHandle } from 'node:fs/promises';

const NEWLINE = 0x0a;

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

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
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
      const buffer = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      let start = 0;
      for (;;) {
        const newline = buffer.indexOf(NEWLINE, start);
        if (newline === -1) break;
        number++;
        yield { text: buffer.toString('utf8', start, newline), offset: carryOffset + start, length: newline - start, number, ended: true };
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
