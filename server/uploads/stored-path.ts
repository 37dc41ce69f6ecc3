import { FILE_SERVER_PREFIX } from '../contract/index.js';

/**
 * Where the backend says it stored an upload, as the console keeps file paths: relative to the
 * file server's `/plate/` (as the site configuration's icon paths are), so `/plate/a/b.png` and
 * `a/b.png` are the same file. An absolute address is kept whole (the backend's own file host,
 * which the console cannot reach under /plate/) and is also its `url`. A bare text answer is the
 * path. Null when there is no usable path (none, or one that climbs out with `..`).
 */
export function storedPath(data: unknown): { path: string; url: string | null } | null {
  const record =
    typeof data === 'string'
      ? { path: data }
      : typeof data === 'object' && data !== null
        ? (data as Record<string, unknown>)
        : null;
  if (!record) return null;
  const path = typeof record.path === 'string' ? record.path.trim() : '';
  const url = typeof record.url === 'string' && /^https?:\/\/\S+$/i.test(record.url.trim()) ? record.url.trim() : null;
  if (path === '' || [...path].some((c) => c < ' ' || c === '\u007f')) return null;
  if (/^https?:\/\//i.test(path)) return /^\S+$/.test(path) ? { path, url: url ?? path } : null;
  const relative = path.replace(/^\/+/, '').replace(new RegExp(`^${FILE_SERVER_PREFIX.slice(1)}`), '');
  if (relative === '' || relative.split('/').some((segment) => segment === '..' || segment === '.')) return null;
  return { path: relative, url };
}
