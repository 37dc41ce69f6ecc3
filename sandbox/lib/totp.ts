import { createHmac } from 'node:crypto';

/**
 * Time-based one-time codes (RFC 6238 over RFC 4226's HMAC-SHA1), as Google Authenticator and its
 * peers compute them from a base32 secret: what the sandbox checks before it binds an
 * administrator's authenticator, and what tests use to act as the phone.
 */

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const STEP_SECONDS = 30;

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The 6-digit code of `secret` for the 30-second step that holds `timeMs`. */
export function totp(secret: string, timeMs: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(timeMs / 1000 / STEP_SECONDS)));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
}

/** Whether `code` is the secret's code now, or one step either side (a phone's clock drifts). */
export function verifyTotp(secret: string, code: string, nowMs: number): boolean {
  if (!/^\d{6}$/.test(code.trim())) return false;
  return [-1, 0, 1].some((step) => totp(secret, nowMs + step * STEP_SECONDS * 1000) === code.trim());
}
