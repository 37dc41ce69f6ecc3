import type { ComponentType, LazyExoticComponent } from 'react';
import type { OwnCallName } from '#contract/calls';
import type { TitleKey } from '../i18n/index.js';
import type { ScreenDecl } from '../screens/declare.js';
import type { IconName } from '../ui/icons.js';
import type { PageProps, PageRoute, RouteMeta } from '../ui/page.js';

/**
 * The entries of the route table (routes.ts) and the three ways to write one, each an object of
 * named fields: a management screen, a page of its own, a group of either in the menu.
 */

export type LazyPage = LazyExoticComponent<ComponentType<PageProps>>;

export interface LeafRoute extends PageRoute {
  kind: 'leaf';
  name: string;
  /** A management screen, shown by the screen engine; or else `page`. */
  screen?: ScreenDecl;
  /** A page of its own. */
  page?: LazyPage;
  /** Set for children of a group. */
  group?: GroupRoute;
  /** The console's own calls a page cannot work without: one the backend lacks takes the page out as an unoffered screen. */
  needs?: readonly OwnCallName[];
}

export interface GroupRoute {
  kind: 'group';
  path: string;
  name: string;
  meta: RouteMeta;
  children: LeafRoute[];
  /** Show as a submenu even with one visible child. */
  alwaysShow?: boolean;
}

export type RouteEntry = LeafRoute | GroupRoute;

/** What every entry names: its address, its name, and its menu entry's title and icon. */
interface EntryBase {
  path: string;
  name: string;
  title: TitleKey;
  icon: IconName;
}

/** The rest of a leaf's meta, by name (`hidden: true`, `badge: 'withdrawal'`). */
type MetaFields = Omit<RouteMeta, 'title' | 'icon'>;

/**
 * A management screen: allowed to whoever holds its resource's permission. Without a title it is
 * titled by its resource's label (`resource.<id>`, the screens' labels, humanised until written)
 * and named by its resource id, so a new screen's entry is one line:
 * `screen({ path: '/articles', icon: 'document', screen: listScreen('articles', P.article) })`.
 */
export function screen({
  path,
  name,
  title,
  icon,
  screen: decl,
  ...meta
}: Omit<EntryBase, 'name' | 'title'> &
  Partial<Pick<EntryBase, 'name' | 'title'>> &
  MetaFields & { screen: ScreenDecl }): LeafRoute {
  const titled: TitleKey = title ?? `resource.${decl.id}`;
  return {
    kind: 'leaf',
    path,
    name: name ?? decl.id,
    meta: { title: titled, icon, permission: [decl.permission], ...meta },
    screen: decl,
  };
}

/** A page of its own; without a permission it is open to every logged-in user. */
export function page({
  path,
  name,
  title,
  icon,
  page: component,
  needs,
  ...meta
}: EntryBase & MetaFields & { page: LazyPage; needs?: readonly OwnCallName[] }): LeafRoute {
  return { kind: 'leaf', path, name, meta: { title, icon, ...meta }, page: component, ...(needs ? { needs } : {}) };
}

export function group({
  path,
  name,
  title,
  icon,
  children,
  alwaysShow = false,
}: EntryBase & { children: LeafRoute[]; alwaysShow?: boolean }): GroupRoute {
  const g: GroupRoute = { kind: 'group', path, name, meta: { title, icon }, children, alwaysShow };
  for (const c of children) c.group = g;
  return g;
}
