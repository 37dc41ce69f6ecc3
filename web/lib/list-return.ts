import { signal } from '@preact/signals-react';
import { navigate } from 'wouter/use-browser-location';

/**
 * The way from a record's page back to its list as it was left: the list's last query (page,
 * filters, sort) is remembered per list, and a record opened from the list carries that list's
 * address in its history entry, so going back is the browser's own back (which also brings the
 * list's scroll position back, see the list screen) rather than a fresh visit.
 */

const lastQuery = new Map<string, string>();

/** The list screen at `path` now shows `search` (without "?"). */
export function rememberListQuery(path: string, search: string): void {
  lastQuery.set(path, search);
}

/** The list at `path` as it was last shown in this tab. */
export function listUrl(path: string): string {
  const search = lastQuery.get(path);
  return search ? `${path}?${search}` : path;
}

/** What a record's history entry says it was opened from. */
interface FromState {
  from?: unknown;
}

/** Opens a page from the list now at `fromUrl`, so a return to that list can be a step back. */
export function openFromList(to: string, fromUrl: string): void {
  navigate(to, { state: { from: fromUrl } satisfies FromState });
}

/** Back to the list at `path` as it was: a step back when this page was opened from it, else a visit. */
export function returnToList(path: string): void {
  const url = listUrl(path);
  if ((history.state as FromState | null)?.from === url) history.back();
  else navigate(url);
}

/** The record page's own name for its record (an account, a group's name), for the breadcrumb. */
export const recordTitle = signal<{ path: string; name: string } | null>(null);
