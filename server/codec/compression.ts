import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { DecodeError } from './errors.js';

export type CompressionFormat = 'gzip' | 'zlib' | 'deflate-raw';

/** Tells the three formats apart by their first bytes (RFC 1952 magic, RFC 1950 header check). */
export function detectCompression(data: Buffer): CompressionFormat {
  if (data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b) return 'gzip';
  if (data.length >= 2) {
    const cmf = data[0]!;
    const flg = data[1]!;
    if ((cmf & 0x0f) === 8 && cmf >> 4 <= 7 && (cmf * 256 + flg) % 31 === 0) return 'zlib';
  }
  return 'deflate-raw';
}

const inflaters = {
  gzip: promisify(zlib.gunzip),
  zlib: promisify(zlib.inflate),
  'deflate-raw': promisify(zlib.inflateRaw),
} as const;

const syncInflaters = {
  gzip: zlib.gunzipSync,
  zlib: zlib.inflateSync,
  'deflate-raw': zlib.inflateRawSync,
} as const;

/** Small answers inflate on the event loop: a thread-pool round trip costs more than the work. */
const SYNC_INPUT_LIMIT = 64 * 1024;
/** ...but never past this much output, so a small bomb blocks the loop for a millisecond at most. */
const SYNC_OUTPUT_LIMIT = 1024 * 1024;

function isTooLarge(error: unknown): boolean {
  return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError;
}

/**
 * Inflates with a hard cap: zlib stops at maxOutputLength instead of growing the buffer, so a
 * compression bomb costs at most the cap.
 */
export async function inflate(data: Buffer, maxBytes: number): Promise<Buffer> {
  const format = detectCompression(data);
  if (data.length <= SYNC_INPUT_LIMIT) {
    try {
      return syncInflaters[format](data, { maxOutputLength: Math.min(maxBytes, SYNC_OUTPUT_LIMIT) });
    } catch (error) {
      if (!isTooLarge(error)) throw new DecodeError('bad_compression');
      if (maxBytes <= SYNC_OUTPUT_LIMIT) throw new DecodeError('too_large');
      // Larger than the synchronous share: inflate again off the event loop, up to the real cap.
    }
  }
  // zlib's 16 KiB default output chunk costs a thread-pool round trip per chunk: on a 10 MB
  // answer a 1 MiB chunk inflates twice as fast. Small answers keep small chunks.
  const chunkSize = Math.min(1024 * 1024, Math.max(16 * 1024, 2 ** Math.ceil(Math.log2(data.length * 4 + 1))));
  try {
    return await inflaters[format](data, { maxOutputLength: maxBytes, chunkSize });
  } catch (error) {
    if (isTooLarge(error)) throw new DecodeError('too_large');
    throw new DecodeError('bad_compression');
  }
}

export function compress(data: Buffer, format: CompressionFormat): Buffer {
  if (format === 'gzip') return zlib.gzipSync(data);
  if (format === 'zlib') return zlib.deflateSync(data);
  return zlib.deflateRawSync(data);
}
