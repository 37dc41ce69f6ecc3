import { FILE_SERVER_PREFIX } from '#contract/calls';

/** Where the browser fetches a file-server path (/plate/...); null for nothing or another origin. */
export function fileUrl(path: string | undefined | null): string | null {
  if (!path) return null;
  if (/^(https?:)?\/\//.test(path) || path.startsWith('data:')) return null;
  return FILE_SERVER_PREFIX + path.replace(/^\/+/, '');
}
