/**
 * Readers of the two backend answers the event stream depends on. Both are lenient about shape
 * (the backend promises only "a list" and "a number") and strict about meaning.
 */

/** The permission list: entries are `{permission: "/manage/..."}` objects or plain strings. */
export function heldPermissions(data: unknown): string[] {
  if (!Array.isArray(data)) return [];
  const held: string[] = [];
  for (const entry of data) {
    if (typeof entry === 'string') held.push(entry);
    else if (typeof entry === 'object' && entry !== null) {
      const permission = (entry as { permission?: unknown }).permission;
      if (typeof permission === 'string') held.push(permission);
    }
  }
  return held;
}

/** The pending-review count: a number, a numeric string, or `{count: N}`; null when it is none. */
export function readCount(data: unknown): number | null {
  let raw: unknown = data;
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) raw = (raw as { count?: unknown }).count;
  if (typeof raw === 'string' && /^\s*\d+\s*$/.test(raw)) raw = Number(raw);
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0) return null;
  return Math.floor(raw);
}
