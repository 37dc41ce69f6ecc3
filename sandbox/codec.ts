import { createCipheriv, createDecipheriv } from 'node:crypto';
import zlib from 'node:zlib';

/**
 * The backend's side of the encoded answers (`w-enable-mode` 1: base64 of AES over the JSON; 3:
 * the same over compressed JSON), written apart from the gateway's decoder so that the sandbox
 * stays a package of its own and the decoder is checked against an encoder it does not share.
 */

export type EncodedMode = 1 | 3;
export type CompressionFormat = 'gzip' | 'zlib' | 'deflate-raw';

export interface CodecKey {
  /** 16, 24 or 32 bytes: AES-128, -192 or -256. */
  key: Buffer;
  /** 16 bytes; ignored in ECB. */
  iv: Buffer;
  mode: 'cbc' | 'ecb';
}

const algorithm = (key: CodecKey) => `aes-${key.key.length * 8}-${key.mode}`;
const ivOf = (key: CodecKey) => (key.mode === 'ecb' ? null : key.iv);

function compress(data: Buffer, format: CompressionFormat): Buffer {
  if (format === 'gzip') return zlib.gzipSync(data);
  if (format === 'zlib') return zlib.deflateSync(data);
  return zlib.deflateRawSync(data);
}

/** JSON to base64 text of AES (mode 1) or of AES over compressed JSON (mode 3). */
export function encodeBody(
  json: string | Buffer,
  mode: EncodedMode,
  key: CodecKey,
  format: CompressionFormat = 'gzip',
): string {
  const plain = typeof json === 'string' ? Buffer.from(json, 'utf8') : json;
  const payload = mode === 3 ? compress(plain, format) : plain;
  const cipher = createCipheriv(algorithm(key), key.key, ivOf(key));
  return Buffer.concat([cipher.update(payload), cipher.final()]).toString('base64');
}

/** `w-enable-mode` 1 and 3 mean an encoded body; any other value passes through untouched. */
export function parseEnableMode(header: string | null | undefined): EncodedMode | null {
  const value = header?.trim();
  return value === '1' ? 1 : value === '3' ? 3 : null;
}

/** The client's side, for a sandbox's own answers: trusted, so no size cap and no careful errors. */
export function decodeBody(body: Buffer, mode: EncodedMode, key: CodecKey): Buffer {
  const decipher = createDecipheriv(algorithm(key), key.key, ivOf(key));
  const cipherText = Buffer.from(body.toString('latin1').trim(), 'base64');
  const plain = Buffer.concat([decipher.update(cipherText), decipher.final()]);
  if (mode === 1) return plain;
  // The first bytes tell the formats apart: gzip's magic, else a zlib header, else raw deflate.
  if (plain[0] === 0x1f && plain[1] === 0x8b) return zlib.gunzipSync(plain);
  if (plain.length >= 2 && (plain[0]! & 0x0f) === 8 && (plain[0]! * 256 + plain[1]!) % 31 === 0) {
    return zlib.inflateSync(plain);
  }
  return zlib.inflateRawSync(plain);
}
