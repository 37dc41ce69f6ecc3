import { isAllowed } from '#contract/permissions';
import type { TitleKey } from '../i18n/index.js';
import type { IconName } from '../ui/icons.js';
import type { RecordLinks } from '../engine/record/record-links.js';
import { recordRoute } from './navigation.js';
import {
  ALL_OFFERED,
  HOME_PATH,
  LEAF_ROUTES,
  ROUTES,
  findRoute,
  isUnoffered,
  type LeafRoute,
  type RouteEntry,
  type Unoffered,
} from './routes.js';

export interface MenuItem {
  key: string;
  title: TitleKey;
  icon?: IconName;
  /** Leaves navigate; groups open. */
  path?: string;
  children?: MenuItem[];
  badge?: 'withdrawal';
}

function leafItem(route: LeafRoute, fallbackIcon?: IconName): MenuItem {
  return {
    key: route.path,
    title: route.meta.title,
    icon: route.meta.icon ?? fallbackIcon,
    path: route.path,
    badge: route.meta.badge,
  };
}

/**
 * The sidebar menu from the permitted routes (a screen the backend does not offer counts as not
 * permitted): a group with no permitted child disappears, and a
 * group with one permitted child shows that child directly unless it asks to stay a group.
 */
export function buildMenu(
  held: readonly string[],
  routes: readonly RouteEntry[] = ROUTES,
  unoffered: Unoffered = ALL_OFFERED,
): MenuItem[] {
  const items: MenuItem[] = [];
  for (const r of routes) {
    if (r.meta.hidden) continue;
    if (r.kind === 'leaf') {
      if (isAllowed(r.meta.permission, held) && !isUnoffered(r, unoffered)) items.push(leafItem(r));
      continue;
    }
    const visible = r.children.filter(
      (c) => !c.meta.hidden && isAllowed(c.meta.permission, held) && !isUnoffered(c, unoffered),
    );
    if (visible.length === 0) continue;
    if (visible.length === 1 && !r.alwaysShow) {
      items.push(leafItem(visible[0]!, r.meta.icon));
      continue;
    }
    const children = visible.map((c) => leafItem(c));
    items.push({
      key: r.path,
      title: r.meta.title,
      icon: r.meta.icon,
      children,
      badge: children.some((c) => c.badge) ? 'withdrawal' : undefined,
    });
  }
  return items;
}

/** The group key of the submenu holding `path`, to open it on arrival. */
export function openGroupFor(menu: readonly MenuItem[], path: string): string | null {
  for (const item of menu) if (item.children?.some((c) => c.path === path)) return item.key;
  return null;
}

export interface Crumb {
  title: TitleKey;
  /** Absent on the last crumb and on crumbs that cannot be opened. */
  path?: string;
  /** A record's page: this crumb is the record (id `record`), the one before it the list it belongs to. */
  record?: string;
  /** The list a record's page belongs to: its link returns to the list as it was left. */
  list?: true;
}

/** Home first except on the dashboard itself; the last crumb is never a link; a record's page ends list > record. */
export function breadcrumbFor(path: string): Crumb[] {
  const record = findRoute(path) ? undefined : recordRoute(path);
  const route = record?.route ?? findRoute(path);
  const crumbs: Crumb[] = [];
  if (path !== HOME_PATH) crumbs.push({ title: 'route.dashboard', path: HOME_PATH });
  if (route) {
    if (route.kind === 'leaf' && route.group && route.group.meta.breadcrumb !== false) {
      // A one-child group repeats its child's title; showing it twice says nothing.
      if (route.group.children.length > 1) crumbs.push({ title: route.group.meta.title, path: route.group.path });
    }
    if (route.meta.breadcrumb !== false)
      crumbs.push({ title: route.meta.title, path: route.path, ...(record ? { list: true } : {}) });
    if (record) crumbs.push({ title: route.meta.title, record: record.id });
  }
  if (crumbs.length > 0) {
    const last = crumbs[crumbs.length - 1]!;
    crumbs[crumbs.length - 1] = { title: last.title, ...(last.record ? { record: last.record } : {}) };
  }
  return crumbs;
}

/**
 * Where each resource's records have their pages: the list screen showing it, when the
 * administrator may open it and the backend offers it (else its records get no links).
 */
export function recordLinks(
  held: readonly string[],
  unoffered: Unoffered = ALL_OFFERED,
  routes: readonly LeafRoute[] = LEAF_ROUTES,
): RecordLinks {
  const paths = new Map<string, string>();
  for (const r of routes) {
    if (r.screen?.kind === 'list' && isAllowed(r.meta.permission, held) && !isUnoffered(r, unoffered))
      paths.set(r.screen.id, r.path);
  }
  return { listPath: (id) => paths.get(id) };
}
