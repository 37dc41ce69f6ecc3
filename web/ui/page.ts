import type { Permission } from '#contract';
import type { TitleKey } from '../i18n/index.js';
import type { IconName } from './icons.js';

/** What the route table says about a screen, read by the menu, the guards, the breadcrumb and the search. */
export interface RouteMeta {
  title: TitleKey;
  icon?: IconName;
  /** Allowed when the user holds any of these; none means no requirement. */
  permission?: readonly Permission[];
  /**
   * Fixed in the tab bar, which cannot close its tab (the dashboard); and not kept once left (the
   * error pages), whose tab closes when another page opens. The bar is the `tagsView` setting.
   */
  affix?: boolean;
  noCache?: boolean;
  /** false leaves the route out of the breadcrumb. */
  breadcrumb?: boolean;
  /** Not in the menu. */
  hidden?: boolean;
  /** Shows the pending-withdrawal badge. */
  badge?: 'withdrawal';
}

/** The route a page is shown for. */
export interface PageRoute {
  path: string;
  meta: RouteMeta;
}

export interface PageProps {
  route: PageRoute;
}
