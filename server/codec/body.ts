import { isUtf8 } from 'node:buffer';
import { DecodeError } from './errors.js';

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Full parse up to this size; above it a shape check, since the gateway only passes the body on. */
const FULL_PARSE_LIMIT = 16 * 1024;

/**
 * Returns the JSON bytes without a UTF-8 BOM, or throws not_json. Large bodies get a cheap check
 * (an object or array in valid UTF-8) instead of a parse the gateway would throw away
 * (JSON.parse runs at a tenth of the decryption's speed).
 */
export function checkJson(plain: Buffer): Buffer {
  let data = plain;
  if (data.length >= 3 && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) data = data.subarray(3);
  let start = 0;
  let end = data.length;
  while (start < end && WHITESPACE.has(data[start]!)) start++;
  while (end > start && WHITESPACE.has(data[end - 1]!)) end--;
  if (start === end) throw new DecodeError('not_json');
  const first = data[start];
  const last = data[end - 1];
  const shaped = (first === 0x7b && last === 0x7d) || (first === 0x5b && last === 0x5d);
  if (!shaped) throw new DecodeError('not_json');
  if (data.length <= FULL_PARSE_LIMIT) {
    try {
      JSON.parse(data.toString('utf8'));
    } catch {
      throw new DecodeError('not_json');
    }
  } else if (!isUtf8(data)) {
    throw new DecodeError('not_json');
  }
  return data;
}
