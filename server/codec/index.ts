import { AesStream, aesEncrypt, type CodecKey } from './aes.js';
import { Base64Stream } from './base64-stream.js';
import { checkJson } from './body.js';
import { compress, inflate, type CompressionFormat } from './compression.js';
import { DecodeError } from './errors.js';

export { DecodeError, type DecodeErrorReason } from './errors.js';
export { detectCompression, type CompressionFormat } from './compression.js';
export type { CodecKey } from './aes.js';

export type EncodedMode = 1 | 3;

/** `w-enable-mode` 1 and 3 mean an encoded body; any other value passes through untouched. */
export function parseEnableMode(header: string | string[] | undefined): EncodedMode | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (trimmed === '1') return 1;
  if (trimmed === '3') return 3;
  return null;
}

/**
 * Decodes an answer body as its chunks arrive: base64 and AES run per chunk, so a large body is
 * held once, as decrypted bytes, instead of as text, bytes and plain text together. Throws only
 * DecodeError. Never holds more than maxBytes of plain text: mode 1 stops as soon as the
 * decrypted size passes the cap, mode 3 is capped while inflating.
 */
export class BodyDecoder {
  private readonly base64 = new Base64Stream();
  private readonly aes: AesStream;
  private readonly parts: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly mode: EncodedMode,
    key: CodecKey | null,
    private readonly options: { maxBytes: number },
  ) {
    if (!key) throw new DecodeError('no_key');
    this.aes = new AesStream(key);
  }

  push(chunk: Buffer): void {
    const cipherText = this.base64.push(chunk);
    if (cipherText.length) this.keep(this.aes.push(cipherText));
  }

  async end(): Promise<Buffer> {
    this.base64.end();
    this.keep(this.aes.end());
    const decrypted = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    this.parts.length = 0;
    const plain = this.mode === 3 ? await inflate(decrypted, this.options.maxBytes) : decrypted;
    return checkJson(plain);
  }

  private keep(part: Buffer): void {
    if (part.length === 0) return;
    this.size += part.length;
    // A compressed body may legitimately be larger than nothing but still far under the cap.
    if (this.size > this.options.maxBytes) throw new DecodeError('too_large');
    this.parts.push(part);
  }
}

/** Turns a whole encoded answer body into the JSON bytes it carries. Throws only DecodeError. */
export async function decodeBody(
  body: Buffer,
  mode: EncodedMode,
  key: CodecKey | null,
  options: { maxBytes: number },
): Promise<Buffer> {
  const decoder = new BodyDecoder(mode, key, options);
  decoder.push(body);
  return decoder.end();
}

/** The backend's side: JSON to base64 text of AES (mode 1) or AES over compressed JSON (mode 3). */
export function encodeBody(
  json: string | Buffer,
  mode: EncodedMode,
  key: CodecKey,
  format: CompressionFormat = 'gzip',
): string {
  const plain = typeof json === 'string' ? Buffer.from(json, 'utf8') : json;
  const payload = mode === 3 ? compress(plain, format) : plain;
  return aesEncrypt(payload, key).toString('base64');
}
