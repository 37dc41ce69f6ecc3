import { open, type FileHandle } from 'node:fs/promises';

const NEWLINE = 0x0a;

export function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
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
 * nothing. Lines are split on the newline byte before decoding, which is safe in UTF-8 because
 * 0x0a never occurs inside a multi-byte character.
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
