import { createHash } from 'node:crypto';
import type { HashName } from './types.js';

/**
 * The digests a map may ask of a value it sends (a password a backend stores and compares as md5,
 * never as the text typed): lower-case hex of the UTF-8 text, as the login's `password` does.
 */
export function hexDigest(algorithm: HashName, text: string): string {
  return createHash(algorithm).update(text, 'utf8').digest('hex');
}
