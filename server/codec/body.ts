import { DecodeError } from './errors.js';

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Bounds of the base64 text inside a body: surrounding white space and one pair of JSON quotes are tolerated. */
function base64Bounds(body: Buffer): [number, number] {
  let start = 0;
  let end = body.length;
  while (start < end && WHITESPACE.has(body[start]!)) start++;
  while (end > start && WHITESPACE.has(body[end - 1]!)) end--;
  if (end - start >= 2 && body[start] === 0x22 && body[end - 1] === 0x22) {
    start++;
    end--;
  }
  return [start, end];
}

function isBase64Byte(byte: number): boolean {
  return (
    (byte >= 0x41 && byte <= 0x5a) || // A-Z
    (byte >= 0x61 && byte <= 0x7a) || // a-z
    (byte >= 0x30 && byte <= 0x39) || // 0-9
    byte === 0x2b || // +
    byte === 0x2f // /
  );
}

/**
 * Strict base64: Buffer.from(…, 'base64') silently skips bad characters, which would turn garbage
 * into a confusing padding error; checking first gives a clear reason.
 */
export function decodeBase64Body(body: Buffer): Buffer {
  const [start, end] = base64Bounds(body);
  let padStart = end;
  while (padStart > start && body[padStart - 1] === 0x3d) padStart--;
  const length = end - start;
  if (length === 0 || length % 4 !== 0 || end - padStart > 2) throw new DecodeError('bad_base64');
  for (let i = start; i < padStart; i++) {
    if (!isBase64Byte(body[i]!)) throw new DecodeError('bad_base64');
  }
  return Buffer.from(body.subarray(start, end).toString('latin1'), 'base64');
}

/** Full parse below this size; above it a shape check, since the gateway only passes the body on. */
const FULL_PARSE_LIMIT = 1024 * 1024;

/** Returns the JSON bytes without a UTF-8 BOM, or throws not_json. */
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
  }
  return data;
}
