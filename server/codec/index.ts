import { aesDecrypt, aesEncrypt, type CodecKey } from './aes.js';
import { checkJson, decodeBase64Body } from './body.js';
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
 * Turns an encoded answer body into the JSON bytes it carries. Throws only DecodeError.
 * Never holds more than maxBytes of plain text: mode 1 is checked after decryption (the
 * ciphertext is no larger than the plain text plus one block), mode 3 is capped while inflating.
 */
export async function decodeBody(
  body: Buffer,
  mode: EncodedMode,
  key: CodecKey | null,
  options: { maxBytes: number },
): Promise<Buffer> {
  if (!key) throw new DecodeError('no_key');
  const cipherText = decodeBase64Body(body);
  if (mode === 1 && cipherText.length > options.maxBytes + 16) throw new DecodeError('too_large');
  const decrypted = aesDecrypt(cipherText, key);
  let plain: Buffer;
  if (mode === 3) {
    plain = await inflate(decrypted, options.maxBytes);
  } else {
    if (decrypted.length > options.maxBytes) throw new DecodeError('too_large');
    plain = decrypted;
  }
  return checkJson(plain);
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
