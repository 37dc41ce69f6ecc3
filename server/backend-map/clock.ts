import type { ClockMap } from './types.js';
import { parsePointer, readPointer } from './pointer.js';
import { parseTime } from './values.js';

/**
 * A clock correction against the backend's (`auth.clock`), as Shiku's own console makes one: it
 * asks `/getCurrentTime` at login and signs every call with its clock plus the difference.
 */

/** The session's kept value holding the difference (ms); no name a map keeps can start with "~". */
export const CLOCK_KEPT = '~clock';

/** The backend's clock minus ours (ms), halfway through the call; 0 when the answer holds no time. */
export async function backendClockSkew(
  clock: ClockMap,
  ask: (method: 'GET' | 'POST', path: string) => Promise<unknown>,
  now: () => number = Date.now,
): Promise<number> {
  const sent = now();
  const json = await ask(clock.method ?? 'GET', clock.path);
  const answered = now();
  const theirs = parseTime(readPointer(json, parsePointer(clock.at)), clock.format, 0);
  return theirs === null ? 0 : Math.round(theirs - (sent + answered) / 2);
}

/** A login's outcome with the difference kept in its session (nothing when there is none). */
export function withSkew<T extends { ok: boolean }>(outcome: T, skew: number): T {
  if (!('credentials' in outcome) || skew === 0) return outcome;
  const credentials = outcome.credentials as { kept?: Readonly<Record<string, string>> };
  return { ...outcome, credentials: { ...credentials, kept: { ...credentials.kept, [CLOCK_KEPT]: String(skew) } } };
}

/** The difference a session holds (ms). */
export function skewOf(kept: Readonly<Record<string, string>> | undefined): number {
  const value = Number(kept?.[CLOCK_KEPT] ?? 0);
  return Number.isFinite(value) ? value : 0;
}
