/**
 * A record's page lives at its list's path plus its id (`/userpage/userset/10023`), so a list row,
 * the header search and a pasted link all name the same page. Ids are limited to letters, digits,
 * `_` and `-`: anything else could be read as a file (a dot) or a deeper path by the gateway.
 */

const RECORD_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function isRecordId(id: string): boolean {
  return RECORD_ID.test(id);
}

/** The page of record `id` of the list at `listPath`; null when the id cannot be written in a path. */
export function recordPath(listPath: string, id: unknown): string | null {
  const text = typeof id === 'number' || typeof id === 'string' ? String(id) : '';
  return isRecordId(text) ? `${listPath}/${text}` : null;
}

/** A path split into the list it may belong to and the record id after it; null when its last segment is no id. */
export function splitRecordPath(path: string): { listPath: string; id: string } | null {
  const at = path.lastIndexOf('/');
  if (at <= 0) return null;
  const id = path.slice(at + 1);
  return isRecordId(id) ? { listPath: path.slice(0, at), id } : null;
}
