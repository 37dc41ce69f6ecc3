import { DecodeError } from './errors.js';

const WHITESPACE = [0x20, 0x09, 0x0a, 0x0d];
const QUOTE = 0x22;
const PAD = 0x3d;

/**
 * Strict, incremental base64 for answer bodies that arrive in chunks, so a large body is never
 * held as text and bytes at once. Surrounding white space and one pair of JSON quotes are
 * tolerated, as some backends wrap the body as a JSON string; so is white space inside, as MIME-style line breaks.
 *
 * Node's decoder is fast but silently skips characters outside the alphabet. Instead of checking
 * every byte in JavaScript, each decoded slice's length is compared with what its text length
 * promises: any skipped character makes it shorter.
 */
export class Base64Stream {
  private carry: Buffer = Buffer.alloc(0);
  private opened = false;
  private quoted = false;
  private closed = false;
  private padded = false;

  /** Decodes what can be decoded of the next chunk; keeps the rest for the next call. */
  push(chunk: Buffer): Buffer {
    const text = this.significant(chunk);
    if (text.length === 0) return EMPTY;
    if (this.padded) throw new DecodeError('bad_base64');
    const data = this.carry.length ? Buffer.concat([this.carry, text]) : text;
    const padAt = data.indexOf(PAD);
    if (padAt !== -1) {
      // Padding ends the text: at most two '=' and nothing after them.
      for (let i = padAt; i < data.length; i++) if (data[i] !== PAD) throw new DecodeError('bad_base64');
      if (data.length - padAt > 2 || data.length % 4 !== 0) throw new DecodeError('bad_base64');
      this.padded = true;
      this.carry = EMPTY;
      return decodeExact(data, data.length - padAt);
    }
    const usable = data.length - (data.length % 4);
    this.carry = Buffer.from(data.subarray(usable));
    return usable === 0 ? EMPTY : decodeExact(data.subarray(0, usable), 0);
  }

  /** The stream is over: whatever is left must have been a whole base64 text. */
  end(): void {
    if (this.carry.length !== 0 || (this.quoted && !this.closed) || !this.opened) throw new DecodeError('bad_base64');
  }

  /** The chunk without white space and the surrounding quotes. */
  private significant(chunk: Buffer): Buffer {
    let data = chunk;
    // Fast path: native scans find nothing to remove in a well-formed body.
    if (WHITESPACE.every((b) => data.indexOf(b) === -1) && data.indexOf(QUOTE) === -1) {
      if (data.length && this.closed) throw new DecodeError('bad_base64');
      if (data.length) this.opened = true;
      return data;
    }
    const out = Buffer.allocUnsafe(data.length);
    let n = 0;
    for (const byte of data) {
      if (WHITESPACE.includes(byte)) continue;
      if (this.closed) throw new DecodeError('bad_base64');
      if (byte === QUOTE) {
        if (!this.opened && !this.quoted) this.quoted = true;
        else if (this.quoted) this.closed = true;
        else throw new DecodeError('bad_base64');
        continue;
      }
      this.opened = true;
      out[n++] = byte;
    }
    data = out.subarray(0, n);
    return data;
  }
}

const EMPTY = Buffer.alloc(0);

function decodeExact(text: Buffer, padding: number): Buffer {
  const decoded = Buffer.from(text.toString('latin1'), 'base64');
  if (decoded.length !== (text.length / 4) * 3 - padding) throw new DecodeError('bad_base64');
  return decoded;
}
