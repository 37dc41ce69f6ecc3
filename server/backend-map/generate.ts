import { randomInt, randomUUID } from 'node:crypto';
import type { GeneratedValue } from './types.js';
import { formatTime } from './values.js';

/**
 * Values a call makes for itself (`generate`): a backend that wants the administrator to choose a
 * user's new password gets one the gateway chose, an id it wants the caller to invent gets a UUID,
 * a figure "of today" gets today's date as its range. They join the console's parameters before
 * those are mapped, so renames, date formats and templates treat them as the console's own.
 */

/** Letters and digits a person copies without mistaking one for another (no 0/O, 1/l/I). */
const LETTERS = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const PASSWORD_LENGTH = 12;

/** A new password: twelve letters and digits, at least one of each (the console's own rule for passwords). */
function newPassword(): string {
  const all = LETTERS + DIGITS;
  const chars = [LETTERS[randomInt(LETTERS.length)]!, DIGITS[randomInt(DIGITS.length)]!];
  while (chars.length < PASSWORD_LENGTH) chars.push(all[randomInt(all.length)]!);
  // Where the guaranteed letter and digit stand must not be guessable either.
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/** One generated value; `offset` is the map's time zone in minutes east of UTC (today is the backend's day). */
export function generatedValue(kind: GeneratedValue, now: number, offset: number): string | number {
  switch (kind) {
    case 'uuid':
      return randomUUID();
    case 'password':
      return newPassword();
    case 'today':
      return formatTime(now, 'yyyy-MM-dd', offset);
    case 'epoch-seconds':
      return Math.floor(now / 1000);
    case 'epoch-millis':
      return now;
  }
}
