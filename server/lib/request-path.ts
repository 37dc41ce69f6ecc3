import { CALLS } from '../contract/index.js';

/** The parts of the URL space the gateway proxies or answers itself in JSON. */
export type ApiArea = 'manage' | 'api' | 'plate';

const AREAS: readonly ApiArea[] = ['manage', 'api', 'plate'];

/** The path of a request target, without its query. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** The path with every %XX decoded, or null when it holds a malformed escape. */
export function decodedPath(path: string): string | null {
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/**
 * Which area a path belongs to once decoded, as the router or a backend may see it:
 * `/%6danage/x` is under /manage, whatever its spelling.
 */
export function areaOf(path: string): ApiArea | null {
  // Some servers read a backslash as a slash: `/manage\x` counts as under /manage.
  const decoded = (decodedPath(path) ?? path).replace(/\\/g, '/');
  for (const area of AREAS) {
    const prefix = `/${area}`;
    if (decoded === prefix || decoded.startsWith(`${prefix}/`)) return area;
  }
  return null;
}

/** Characters whose escaping changes nothing, plus those that change how a path is split. */
function escapeIsAmbiguous(byte: number): boolean {
  const unreserved =
    (byte >= 0x30 && byte <= 0x39) ||
    (byte >= 0x41 && byte <= 0x5a) ||
    (byte >= 0x61 && byte <= 0x7a) ||
    byte === 0x2d || // -
    byte === 0x2e || // .
    byte === 0x5f || // _
    byte === 0x7e; // ~
  return unreserved || byte === 0x2f || byte === 0x5c || byte === 0x25 || byte === 0x3b || byte < 0x20 || byte === 0x7f;
}

/**
 * Why a path under /manage, /api or /plate is refused, or null when it is in the one plain
 * spelling the backend and the gateway's router must agree on: no dot segments, no empty
 * segments, no `;` parameters or backslashes, no escaped dots, slashes, percent signs or
 * unreserved characters, and no other spelling of the login path. Backends differ in how they
 * normalise such paths (Spring strips `;` parameters and may ignore case or a trailing slash),
 * so a spelling they would read as the login must never slip past the gateway's own login route.
 */
export function ambiguousPathReason(path: string): string | null {
  if (path.includes('\\')) return 'a backslash in the path';
  if (path.includes(';')) return 'a ";" parameter in the path';
  for (const match of path.matchAll(/%([0-9a-fA-F]{2})/g)) {
    if (escapeIsAmbiguous(Number.parseInt(match[1]!, 16))) return `an escaped "${match[0]}" in the path`;
  }
  const segments = path.split('/').slice(1);
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === '.' || segment === '..') return 'a dot segment in the path';
    if (segment === '' && i < segments.length - 1) return 'an empty segment in the path';
  }
  if (path !== CALLS.login && readsAsLogin(path)) return 'another spelling of the login path';
  return null;
}

const LOGIN = CALLS.login.toLowerCase();

/**
 * Whether a lenient backend could route `path` to its login: Spring's suffix-pattern matching
 * takes `/manage/logIn.json` (and `/manage/logIn.`) for it, trailing-slash matching
 * `/manage/logIn/`, servlet path mapping `/manage/logIn/x`, case-insensitive matching any case,
 * and servers that trim `/manage/logIn%20`. Any decoded spelling that starts with the login path
 * (in any case) and does not go on as a longer name (`/manage/logInfo`) counts; only the exact
 * spelling reaches the gateway's own login route, which throttles it.
 */
function readsAsLogin(path: string): boolean {
  const folded = (decodedPath(path) ?? path).toLowerCase();
  return folded.startsWith(LOGIN) && !/^[a-z0-9_-]/.test(folded.slice(LOGIN.length));
}
