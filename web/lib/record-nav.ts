import { signal } from '@preact/signals-react';
import { navigate } from 'wouter/use-browser-location';

/**
 * The ids a record's page may have: the route guard's RECORD_ID (app/navigation.ts), written again
 * here because shared code may not reach into the frame (a test holds the two equal).
 */
export const LINKABLE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The page of record `id` of the list at `listPath`; null when the id cannot be written in a path. */
export function recordPath(listPath: string, id: unknown): string | null {
  const text = typeof id === 'number' || typeof id === 'string' ? String(id) : '';
  return LINKABLE_ID.test(text) ? `${listPath}/${text}` : null;
}

/**
 * Links between a list and its records' pages, and the way from a record's page back to its list
 * as it was left: the list's last query (page,
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
