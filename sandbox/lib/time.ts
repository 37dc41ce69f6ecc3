/** Calendar days are UTC 'YYYY-MM-DD' throughout the sandbox, so results do not depend on the machine's zone. */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export function dayKey(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

export function startOfDay(time: number): number {
  return Math.floor(time / DAY) * DAY;
}

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Start of the given UTC day, or null when the text is not a real calendar date. */
export function parseDayKey(text: string): number | null {
  const match = DAY_PATTERN.exec(text);
  if (!match) return null;
  const time = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return dayKey(time) === text ? time : null;
}

/** ISO 8601 in UTC, always 24 characters, so comparing the text compares the times. */
export function iso(time: number): string {
  return new Date(time).toISOString();
}
