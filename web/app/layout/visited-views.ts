import type { TitleKey } from '../../i18n/index.js';

/**
 * The tab bar's model: the pages an administrator has opened in this browser tab, each once, in the
 * order first opened. Pure functions over a plain list, so the rules are tested without a browser.
 */

export interface VisitedView {
  /** The page's address without its query: what makes two visits the same tab. */
  path: string;
  /** Where the tab goes back to: the address as last seen, query included (a list's page, filters). */
  fullPath: string;
  /** The route's title. */
  title: TitleKey;
  /** A record's page: its id, shown until its name is known. */
  record?: string;
  /** The record's name, once its page has read it. */
  name?: string;
  /** Always in the bar and cannot be closed (the dashboard). */
  affix?: boolean;
  /** Not kept once left (the error pages): its tab closes when another page is opened. */
  noCache?: boolean;
}

/**
 * The most tabs kept. Past it the oldest tab that is neither fixed nor current goes: an
 * administrator working through records one by one would otherwise grow the bar without end.
 */
export const MAX_VIEWS = 20;

/** The bar after `view` is opened: its tab updated in place, or added at the end. */
export function visit(views: readonly VisitedView[], view: VisitedView): VisitedView[] {
  // A page that is not kept closes as soon as another one is opened.
  const kept = views.filter((v) => !v.noCache || v.path === view.path);
  const at = kept.findIndex((v) => v.path === view.path);
  if (at >= 0) {
    const known = kept[at]!;
    const next = [...kept];
    // A name already read stays until the page reads it again.
    next[at] = { ...known, ...view, name: view.name ?? (known.record === view.record ? known.name : undefined) };
    return next;
  }
  const next = [...kept, view];
  while (next.length > MAX_VIEWS) {
    const oldest = next.findIndex((v) => !v.affix && v.path !== view.path);
    if (oldest < 0) break;
    next.splice(oldest, 1);
  }
  return next;
}

/** The fixed tabs first, in the order given, then the others as they are. */
export function withAffixed(views: readonly VisitedView[], affixed: readonly VisitedView[]): VisitedView[] {
  const missing = affixed.filter((a) => !views.some((v) => v.path === a.path));
  return [...missing, ...views];
}

/** Records the name a record's page has read, on that record's tab. */
export function named(views: readonly VisitedView[], path: string, name: string): VisitedView[] {
  const at = views.findIndex((v) => v.path === path && v.record !== undefined);
  if (at < 0 || views[at]!.name === name) return views as VisitedView[];
  const next = [...views];
  next[at] = { ...views[at]!, name };
  return next;
}

export function close(views: readonly VisitedView[], path: string): VisitedView[] {
  return views.filter((v) => v.affix || v.path !== path);
}

export function closeOthers(views: readonly VisitedView[], path: string): VisitedView[] {
  return views.filter((v) => v.affix || v.path === path);
}

export function closeAll(views: readonly VisitedView[]): VisitedView[] {
  return views.filter((v) => v.affix);
}

/**
 * Where to go when the current page's tab closes: the tab to its right, else the one to its left,
 * as a browser does with its own tabs; null when no tab is left (the caller goes home).
 */
export function neighbourOf(views: readonly VisitedView[], path: string): VisitedView | null {
  const at = views.findIndex((v) => v.path === path);
  if (at < 0) return views[views.length - 1] ?? null;
  return views[at + 1] ?? views[at - 1] ?? null;
}

const isView = (v: unknown): v is VisitedView => {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return (
    typeof r.path === 'string' &&
    r.path.startsWith('/') &&
    typeof r.fullPath === 'string' &&
    // Only the console's own addresses: a stored tab must never lead off the site.
    r.fullPath.startsWith(r.path) &&
    !r.fullPath.startsWith('//') &&
    typeof r.title === 'string' &&
    (r.record === undefined || typeof r.record === 'string') &&
    (r.name === undefined || typeof r.name === 'string')
  );
};

/** The stored bar of `account`, or none: another administrator's tabs are not shown. */
export function parseStored(text: string | null, account: string): VisitedView[] {
  if (!text) return [];
  try {
    const stored = JSON.parse(text) as { account?: unknown; views?: unknown };
    if (stored.account !== account || !Array.isArray(stored.views)) return [];
    return stored.views.filter(isView).slice(0, MAX_VIEWS);
  } catch {
    return [];
  }
}

export function serialise(views: readonly VisitedView[], account: string): string {
  return JSON.stringify({ account, views });
}
