import { createHash } from 'node:crypto';
import { UPLOAD_HEAD_BYTES, UPLOAD_TAIL_BYTES } from '../contract/index.js';

/**
 * The browser's file as it arrives, read once: its start held back until the type can be told,
 * then passed on chunk by chunk while its size, MD5 and last bytes are kept. Nothing but the start
 * (about a kilobyte, plus whatever came in the same chunk) and the last 512 bytes is ever held.
 */

/** The last `size` bytes of everything pushed, kept in a fixed buffer. */
export class TailWindow {
  private readonly buffer: Buffer;
  private filled = 0;

  constructor(readonly size: number) {
    this.buffer = Buffer.alloc(size);
  }

  push(chunk: Uint8Array): void {
    if (chunk.length >= this.size) {
      this.buffer.set(chunk.subarray(chunk.length - this.size));
      this.filled = this.size;
      return;
    }
    const keep = Math.min(this.filled, this.size - chunk.length);
    this.buffer.copyWithin(0, this.filled - keep, this.filled);
    this.buffer.set(chunk, keep);
    this.filled = keep + chunk.length;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.filled);
  }
}

/** A view of the chunk, never a copy. */
const asBuffer = (chunk: Uint8Array): Buffer =>
  Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

export class FileTooLarge extends Error {
  constructor(readonly received: number) {
    super('the file is past its limit');
    this.name = 'FileTooLarge';
  }
}

/** What passed: known in full once the file's last chunk has gone through. */
export interface FileFigures {
  size: number;
  md5: string;
  tail: Buffer;
}

export class IncomingFile {
  private readonly hash = createHash('md5');
  private readonly tailWindow = new TailWindow(UPLOAD_TAIL_BYTES);
  private size = 0;
  private start: Buffer = Buffer.alloc(0);
  private ended = false;

  constructor(
    private readonly source: AsyncIterator<Uint8Array>,
    private readonly maxBytes: number,
  ) {}

  /** Reads until the start holds UPLOAD_HEAD_BYTES or the file ends; its first bytes. */
  async head(): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let length = 0;
    while (length < UPLOAD_HEAD_BYTES) {
      const next = await this.source.next();
      if (next.done) {
        this.ended = true;
        break;
      }
      const chunk = asBuffer(next.value);
      this.count(chunk);
      chunks.push(chunk);
      length += chunk.length;
    }
    this.start = Buffer.concat(chunks, length);
    return this.start.subarray(0, UPLOAD_HEAD_BYTES);
  }

  private count(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) throw new FileTooLarge(this.size);
    this.hash.update(chunk);
    this.tailWindow.push(chunk);
  }

  /** The whole file, start first, each chunk counted as it passes (FileTooLarge past the limit). */
  async *chunks(): AsyncGenerator<Buffer> {
    if (this.start.length > 0) yield this.start;
    while (!this.ended) {
      const next = await this.source.next();
      if (next.done) {
        this.ended = true;
        break;
      }
      const chunk = asBuffer(next.value);
      this.count(chunk);
      yield chunk;
    }
  }

  /** True once the file's last chunk has been read. */
  get complete(): boolean {
    return this.ended;
  }

  /** The last bytes passed so far. */
  tail(): Buffer {
    return this.tailWindow.bytes();
  }

  /** Once chunks() has ended; the digest is taken, so ask once. */
  figures(): FileFigures {
    return { size: this.size, md5: this.hash.digest('hex'), tail: this.tailWindow.bytes() };
  }

  /**
   * Reads and drops what is left of the body, up to `maxBytes` in all, so a refusal can be
   * answered on a connection that stays usable. False when the body went past that (the caller
   * then closes the connection instead of reading on).
   */
  async discard(): Promise<boolean> {
    if (this.ended) return true;
    try {
      for (;;) {
        const next = await this.source.next();
        if (next.done) {
          this.ended = true;
          return true;
        }
        this.size += next.value.length;
        if (this.size > this.maxBytes) return false;
      }
    } catch {
      return false;
    }
  }
}
