import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { PERMISSIONS as P, type Permission } from '../../server/contract/index.js';
import type { MessageKey } from '../i18n/index.js';

/**
 * The one route table (SPEC section 2, URLs per DESIGN section 4). The menu, the guards, the
 * breadcrumb, the header search and the tests all read it.
 */

export type IconName =
  | 'dashboard' | 'deploy' | 'monitor' | 'switch' | 'migrate' | 'system' | 'admin' | 'log' | 'key'
  | 'user' | 'users' | 'group' | 'settings' | 'function' | 'friend' | 'avatar' | 'emoji' | 'shield' | 'list'
  | 'announce' | 'ticket' | 'words' | 'star' | 'document' | 'chart' | 'ban' | 'clean' | 'speed' | 'online'
  | 'login' | 'message' | 'link' | 'feedback' | 'money' | 'calendar' | 'wallet' | 'check' | 'redpack'
  | 'bill' | 'interface' | 'push' | 'sms' | 'update' | 'bug' | 'error';

export interface RouteMeta {
  title: MessageKey;
  icon?: IconName;
  /** Allowed when the user holds any of these; none means no requirement. */
  permission?: readonly Permission[];
  /** Fixed in the tab bar. */
  affix?: boolean;
  noCache?: boolean;
  /** false leaves the route out of the breadcrumb. */
  breadcrumb?: boolean;
  /** Not in the menu. */
  hidden?: boolean;
  /** Shows the pending-withdrawal badge. */
  badge?: 'withdrawal';
}

export interface PageProps {
  route: LeafRoute;
}
export type LazyPage = LazyExoticComponent<ComponentType<PageProps>>;

export interface LeafRoute {
  kind: 'leaf';
  path: string;
  name: string;
  meta: RouteMeta;
  page: LazyPage;
  /** Set for children of a group. */
  group?: GroupRoute;
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

// Management screens are declarations on the screen engine (web/screens): one lazy page reads the
// declaration of its route's path, so the engine and its labels load only behind the login.
const ScreenPage: LazyPage = lazy(() => import('../screens/screen-page.js'));
const ErrorLogPage: LazyPage = lazy(() => import('../pages/error-log-page.js'));
const ErrorInLayout: LazyPage = lazy(() => import('../pages/error-page.js'));

function leaf(path: string, name: string, title: MessageKey, icon: IconName, permission?: readonly Permission[], extra: Partial<RouteMeta> & { page?: LazyPage } = {}): LeafRoute {
  const { page, ...meta } = extra;
  return { kind: 'leaf', path, name, meta: { title, icon, permission, ...meta }, page: page ?? ScreenPage };
}

function group(path: string, name: string, title: MessageKey, icon: IconName, children: LeafRoute[], alwaysShow = false): GroupRoute {
  const g: GroupRoute = { kind: 'group', path, name, meta: { title, icon }, children, alwaysShow };
  for (const c of children) c.group = g;
  return g;
}

export const ROUTES: readonly RouteEntry[] = [
  leaf('/dashboard', 'Dashboard', 'route.dashboard', 'dashboard', undefined, { affix: true, page: lazy(() => import('../dashboard/dashboard-page.js')) }),
  group('/deployconfig', 'DeployConfig', 'route.deployconfig', 'deploy', [
    leaf('/deployconfig/monitor', 'SystemMonitor', 'route.monitor', 'monitor', [P.deployment], { page: lazy(() => import('../deployment/monitor-page.js')) }),
    leaf('/deployconfig/switch', 'StartSwitch', 'route.switch', 'switch', [P.deployment], { page: lazy(() => import('../deployment/switch-page.js')) }),
    leaf('/deployconfig/migration', 'DataMigration', 'route.migration', 'migrate', [P.deployment], { page: lazy(() => import('../deployment/migration-page.js')) }),
  ]),
  group('/system', 'System', 'route.system', 'system', [
    leaf('/system/admins', 'AdminList', 'route.admins', 'admin', [P.adminUser]),
    leaf('/system/record', 'OperationLog', 'route.record', 'log', [P.record]),
    leaf('/system/googleverify', 'GoogleVerify', 'route.googleverify', 'key', [P.googleGenerator]),
  ]),
  group('/userpage', 'UserPage', 'route.userpage', 'user', [
    leaf('/userpage/userset', 'UserSet', 'route.userset', 'users', [P.userProfile]),
    leaf('/groupset', 'GroupSet', 'route.groupset', 'group', [P.groupProfile]),
  ]),
  group('/siteconfig', 'SiteConfig', 'route.siteconfig', 'settings', [
    leaf('/siteconfig/function', 'SiteFunction', 'route.function', 'function', [P.stationSystem]),
    leaf('/defaultfriend', 'DefaultFriend', 'route.defaultfriend', 'friend', [P.defaultFriend]),
    leaf('/defaultgroup', 'DefaultGroup', 'route.defaultgroup', 'group', [P.defaultGroup]),
    leaf('/defaultavatar', 'DefaultAvatar', 'route.defaultavatar', 'avatar', [P.defaultAvatar]),
    leaf('/defaultemoji', 'DefaultEmoji', 'route.defaultemoji', 'emoji', [P.defaultEmoticon]),
    leaf('/securityconfig', 'SecurityConfig', 'route.securityconfig', 'shield', [P.secretProtection]),
    leaf('/homelist', 'HomeList', 'route.homelist', 'list', [P.discover]),
    leaf('/siteannouncement', 'SiteAnnouncement', 'route.siteannouncement', 'announce', [P.siteAnnouncement]),
    leaf('/invitationcode', 'InvitationCode', 'route.invitationcode', 'ticket', [P.inviteCode]),
    leaf('/sensitivewords', 'SensitiveWords', 'route.sensitivewords', 'words', [P.sensitiveWord]),
    leaf('/privilegeduser', 'PrivilegedUser', 'route.privilegeduser', 'star', [P.privilegedUser]),
    leaf('/useprotocol', 'UseProtocol', 'route.useprotocol', 'document', [P.privilegedUser]),
  ]),
  group('/operation', 'Operation', 'route.operation', 'chart', [
    leaf('/operation/statistics', 'Statistics', 'route.statistics', 'chart', [P.dailyStatistics]),
    leaf('/operation/channel_statistics', 'ChannelStatistics', 'route.channelStatistics', 'chart', [P.channelStatistics]),
    leaf('/BlackList', 'BlackList', 'route.blacklist', 'ban', [P.onlineStatistics]),
    leaf('/dataclean', 'DataClean', 'route.dataclean', 'clean', [P.dataClean]),
    leaf('/frequency', 'Frequency', 'route.frequency', 'speed', [P.frequencyLimit]),
    leaf('/onlineuser', 'OnlineUser', 'route.onlineuser', 'online', [P.onlineStatistics]),
    leaf('/loginuser', 'LoginUser', 'route.loginuser', 'login', [P.loginStatistics]),
    leaf('/masshelper', 'MassHelper', 'route.masshelper', 'message', [P.massMessage]),
    leaf('/distribution', 'Distribution', 'route.distribution', 'link', [P.distributionAddress]),
    leaf('/suggestion', 'Suggestion', 'route.suggestion', 'feedback', [P.distributionAddress]),
  ]),
  group('/finance', 'Finance', 'route.finance', 'money', [
    leaf('/finance/OnlineRecharge', 'OnlineRecharge', 'route.onlineRecharge', 'wallet', [P.userBalance]),
    leaf('/SignInConfig', 'SignInConfig', 'route.signInConfig', 'calendar', [P.signInConfig]),
    leaf('/WithdrawMoneyConfig', 'WithdrawMoneyConfig', 'route.withdrawConfig', 'money', [P.cashWithdrawalConfig]),
    leaf('/WithDrawMoneyCheck', 'WithDrawMoneyCheck', 'route.withdrawCheck', 'check', [P.cashWithdrawalCheck], { badge: 'withdrawal' }),
    leaf('/PersonalRedEnvelope', 'PersonalRedEnvelope', 'route.personalRedEnvelope', 'redpack', [P.userRedPack]),
    leaf('/GroupRedEnvelope', 'GroupRedEnvelope', 'route.groupRedEnvelope', 'redpack', [P.groupRedPack]),
    leaf('/BillingRecords', 'BillingRecords', 'route.billingRecords', 'bill', [P.billRecord]),
  ]),
  group('/interface', 'Interface', 'route.interface', 'interface', [
    leaf('/interface/interface', 'InterfaceManage', 'route.interface', 'interface', [P.page]),
  ]),
  group('/push', 'Push', 'route.push', 'push', [
    leaf('/push/pushconfig', 'PushConfig', 'route.push', 'push', [P.push]),
  ]),
  group('/shortmessage', 'ShortMessage', 'route.shortmessage', 'sms', [
    leaf('/shortmessage/message', 'ShortMessagePlatform', 'route.shortmessage', 'sms', [P.shortMessage]),
  ]),
  group('/versionupdate', 'VersionUpdate', 'route.versionupdate', 'update', [
    leaf('/versionupdate/appupdate', 'AppUpdate', 'route.versionupdate', 'update', [P.version]),
  ]),
  group('/error', 'ErrorPages', 'route.errorPages', 'error', [
    leaf('/error/401', 'Page401', 'route.page401', 'error', undefined, { page: ErrorInLayout, noCache: true }),
    leaf('/error/404', 'Page404', 'route.page404', 'error', undefined, { page: ErrorInLayout, noCache: true }),
  ], true),
  group('/error-log', 'ErrorLog', 'route.errorLog', 'bug', [
    leaf('/error-log/log', 'ErrorLogList', 'route.errorLog', 'bug', undefined, { page: ErrorLogPage }),
  ]),
];

export const HOME_PATH = '/dashboard';

/** Every screen, flattened in menu order. */
export const LEAF_ROUTES: readonly LeafRoute[] = ROUTES.flatMap((r) => (r.kind === 'leaf' ? [r] : r.children));
export const GROUP_ROUTES: readonly GroupRoute[] = ROUTES.filter((r): r is GroupRoute => r.kind === 'group');

const byPath = new Map<string, RouteEntry>();
const byFoldedPath = new Map<string, RouteEntry>();
for (const r of [...LEAF_ROUTES, ...GROUP_ROUTES]) {
  byPath.set(r.path, r);
  byFoldedPath.set(r.path.toLowerCase(), r);
}

export function findRoute(path: string): RouteEntry | undefined {
  return byPath.get(path);
}

/** A known path written in another case, for the redirect to its canonical spelling. */
export function findRouteIgnoringCase(path: string): RouteEntry | undefined {
  return byFoldedPath.get(path.toLowerCase());
}
