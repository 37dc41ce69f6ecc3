import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { PERMISSIONS as P } from '#contract/permissions';
import type { OwnCallName } from '#contract/calls';
import { ownCallKey } from '../api/session.js';
import type { MessageKey } from '../i18n/index.js';
import { listScreen, operationScreen, settingsScreen, statisticsScreen, type ScreenDecl } from '../screens/declare.js';
import type { IconName } from '../ui/icons.js';
import type { PageProps, PageRoute, RouteMeta } from '../ui/page.js';

/**
 * The one route table: every screen of the console, its URL, menu entry and permission, and what
 * it shows. The menu, the guards, the breadcrumb, the header search and the tests all read it.
 * A management screen is a declaration on the screen engine: `listScreen('users', P.userProfile)`
 * names the contract's resource and the permission it needs. The resource itself (its fields and
 * actions), the engine, the views and the screen labels load only behind the login, with the first
 * screen that shows them: the login page carries none of the 41 declarations. A test holds each
 * screen's kind and permission to its resource's.
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

const ErrorLogPage: LazyPage = lazy(() => import('../pages/error-log-page.js'));
const AuditPage: LazyPage = lazy(() => import('../pages/audit-page.js'));
const ErrorInLayout: LazyPage = lazy(() => import('../pages/error-page.js'));

/** A management screen: allowed to whoever holds its resource's permission. */
function screen(path: string, name: string, title: MessageKey, icon: IconName, decl: ScreenDecl, meta: Partial<RouteMeta> = {}): LeafRoute {
  return { kind: 'leaf', path, name, meta: { title, icon, permission: [decl.permission], ...meta }, screen: decl };
}

/** A page of its own; without a permission it is open to every logged-in user. */
function page(
  path: string,
  name: string,
  title: MessageKey,
  icon: IconName,
  component: LazyPage,
  meta: Partial<RouteMeta> = {},
  needs?: readonly OwnCallName[],
): LeafRoute {
  return { kind: 'leaf', path, name, meta: { title, icon, ...meta }, page: component, ...(needs ? { needs } : {}) };
}

function group(path: string, name: string, title: MessageKey, icon: IconName, children: LeafRoute[], alwaysShow = false): GroupRoute {
  const g: GroupRoute = { kind: 'group', path, name, meta: { title, icon }, children, alwaysShow };
  for (const c of children) c.group = g;
  return g;
}

const deployment = [P.deployment];

export const ROUTES: readonly RouteEntry[] = [
  page(
    '/dashboard',
    'Dashboard',
    'route.dashboard',
    'dashboard',
    lazy(() => import('../dashboard/dashboard-page.js')),
    { affix: true },
  ),
  group('/deployconfig', 'DeployConfig', 'route.deployconfig', 'deploy', [
    page(
      '/deployconfig/monitor',
      'SystemMonitor',
      'route.monitor',
      'monitor',
      lazy(() => import('../deployment/monitor-page.js')),
      { permission: deployment },
      ['monitoring'],
    ),
    page(
      '/deployconfig/switch',
      'StartSwitch',
      'route.switch',
      'switch',
      lazy(() => import('../deployment/switch-page.js')),
      { permission: deployment },
      ['runner'],
    ),
    page(
      '/deployconfig/migration',
      'DataMigration',
      'route.migration',
      'migrate',
      lazy(() => import('../deployment/migration-page.js')),
      { permission: deployment },
      ['importDatabase'],
    ),
  ]),
  group('/system', 'System', 'route.system', 'system', [
    screen('/system/admins', 'AdminList', 'route.admins', 'admin', listScreen('admins', P.adminUser)),
    screen('/system/record', 'OperationLog', 'route.record', 'log', listScreen('operationLog', P.record)),
    // The gateway's own trail of every change made through the console, beside the backend's log
    // (the path is AUDIT_TRAIL_PATH of api/audit.ts, which this table does not load with the login page).
    page('/system/audit', 'AuditTrail', 'route.audit', 'log', AuditPage, { permission: [P.record] }),
    screen(
      '/system/googleverify',
      'GoogleVerify',
      'route.googleverify',
      'key',
      listScreen('googleVerify', P.googleGenerator, { results: { bind: 'authenticator', reset: 'authenticator' } }),
    ),
  ]),
  group('/userpage', 'UserPage', 'route.userpage', 'user', [
    screen(
      '/userpage/userset',
      'UserSet',
      'route.userset',
      'users',
      listScreen('users', P.userProfile, {
        detail: 'user',
        results: { resetPassword: 'secret' },
        // Bans from a list of accounts (a moderation team's, another system's).
        import: { columns: ['account', 'reason'], key: 'account', action: 'ban' },
        search: true,
        related: 'user',
      }),
    ),
    screen('/groupset', 'GroupSet', 'route.groupset', 'group', listScreen('groups', P.groupProfile, { detail: 'group', search: true })),
  ]),
  group('/siteconfig', 'SiteConfig', 'route.siteconfig', 'settings', [
    screen('/siteconfig/function', 'SiteFunction', 'route.function', 'function', settingsScreen('siteFunctions', P.stationSystem)),
    screen('/defaultfriend', 'DefaultFriend', 'route.defaultfriend', 'friend', listScreen('defaultFriends', P.defaultFriend)),
    screen('/defaultgroup', 'DefaultGroup', 'route.defaultgroup', 'group', listScreen('defaultGroups', P.defaultGroup)),
    screen('/defaultavatar', 'DefaultAvatar', 'route.defaultavatar', 'avatar', listScreen('defaultAvatars', P.defaultAvatar)),
    screen('/defaultemoji', 'DefaultEmoji', 'route.defaultemoji', 'emoji', listScreen('defaultEmoji', P.defaultEmoticon)),
    screen('/securityconfig', 'SecurityConfig', 'route.securityconfig', 'shield', listScreen('securityQuestions', P.secretProtection)),
    screen('/homelist', 'HomeList', 'route.homelist', 'list', listScreen('discover', P.discover)),
    screen('/siteannouncement', 'SiteAnnouncement', 'route.siteannouncement', 'announce', listScreen('announcements', P.siteAnnouncement)),
    screen(
      '/invitationcode',
      'InvitationCode',
      'route.invitationcode',
      'ticket',
      listScreen('inviteCodes', P.inviteCode, { results: { generate: 'codes' }, import: { columns: ['code', 'maxUses', 'expireTime'], key: 'code' } }),
    ),
    screen(
      '/sensitivewords',
      'SensitiveWords',
      'route.sensitivewords',
      'words',
      listScreen('sensitiveWords', P.sensitiveWord, { results: { test: 'sensitiveHits' }, import: { columns: ['word', 'category'], key: 'word' } }),
    ),
    screen('/privilegeduser', 'PrivilegedUser', 'route.privilegeduser', 'star', listScreen('privilegedUsers', P.privilegedUser)),
    screen('/useprotocol', 'UseProtocol', 'route.useprotocol', 'document', settingsScreen('termsOfUse', P.privilegedUser)),
  ]),
  group('/operation', 'Operation', 'route.operation', 'chart', [
    screen('/operation/statistics', 'Statistics', 'route.statistics', 'chart', statisticsScreen('dailyStatistics', P.dailyStatistics)),
    screen(
      '/operation/channel_statistics',
      'ChannelStatistics',
      'route.channelStatistics',
      'chart',
      statisticsScreen('channelStatistics', P.channelStatistics),
    ),
    screen(
      '/BlackList',
      'BlackList',
      'route.blacklist',
      'ban',
      listScreen('ipBlacklist', P.onlineStatistics, { import: { columns: ['ip', 'reason', 'expireTime'], key: 'ip' } }),
    ),
    screen('/dataclean', 'DataClean', 'route.dataclean', 'clean', operationScreen('dataClean', P.dataClean)),
    screen('/frequency', 'Frequency', 'route.frequency', 'speed', listScreen('frequencyLimits', P.frequencyLimit)),
    screen('/onlineuser', 'OnlineUser', 'route.onlineuser', 'online', listScreen('onlineUsers', P.onlineStatistics)),
    screen('/loginuser', 'LoginUser', 'route.loginuser', 'login', listScreen('loginRecords', P.loginStatistics)),
    screen('/masshelper', 'MassHelper', 'route.masshelper', 'message', listScreen('massMessages', P.massMessage)),
    screen('/distribution', 'Distribution', 'route.distribution', 'link', listScreen('distributionAddresses', P.distributionAddress)),
    screen('/suggestion', 'Suggestion', 'route.suggestion', 'feedback', listScreen('suggestions', P.distributionAddress)),
  ]),
  group('/finance', 'Finance', 'route.finance', 'money', [
    screen('/finance/OnlineRecharge', 'OnlineRecharge', 'route.onlineRecharge', 'wallet', listScreen('rechargeChannels', P.userBalance)),
    screen('/SignInConfig', 'SignInConfig', 'route.signInConfig', 'calendar', settingsScreen('signInConfig', P.signInConfig)),
    screen('/WithdrawMoneyConfig', 'WithdrawMoneyConfig', 'route.withdrawConfig', 'money', settingsScreen('withdrawalConfig', P.cashWithdrawalConfig)),
    screen(
      '/WithDrawMoneyCheck',
      'WithDrawMoneyCheck',
      'route.withdrawCheck',
      'check',
      listScreen('withdrawalReview', P.cashWithdrawalCheck, {
        afterAction: 'withdrawalReviewed',
        watch: 'withdrawalCount',
        search: true,
        related: 'applicant',
        context: 'withdrawal',
        // A review queue opens on what still waits; "All" is one choice away and kept in the address.
        filters: { state: 'pending' },
        keys: { a: 'approve', r: 'reject' },
      }),
      {
        badge: 'withdrawal',
      },
    ),
    screen('/PersonalRedEnvelope', 'PersonalRedEnvelope', 'route.personalRedEnvelope', 'redpack', listScreen('personalRedEnvelopes', P.userRedPack)),
    screen('/GroupRedEnvelope', 'GroupRedEnvelope', 'route.groupRedEnvelope', 'redpack', listScreen('groupRedEnvelopes', P.groupRedPack)),
    screen('/BillingRecords', 'BillingRecords', 'route.billingRecords', 'bill', listScreen('billingRecords', P.billRecord)),
  ]),
  group('/interface', 'Interface', 'route.interface', 'interface', [
    screen('/interface/interface', 'InterfaceManage', 'route.interface', 'interface', settingsScreen('appInterface', P.page)),
  ]),
  group('/push', 'Push', 'route.push', 'push', [screen('/push/pushconfig', 'PushConfig', 'route.push', 'push', settingsScreen('pushConfig', P.push))]),
  group('/shortmessage', 'ShortMessage', 'route.shortmessage', 'sms', [
    screen('/shortmessage/message', 'ShortMessagePlatform', 'route.shortmessage', 'sms', settingsScreen('smsConfig', P.shortMessage)),
  ]),
  group('/versionupdate', 'VersionUpdate', 'route.versionupdate', 'update', [
    screen('/versionupdate/appupdate', 'AppUpdate', 'route.versionupdate', 'update', listScreen('appVersions', P.version)),
  ]),
  group(
    '/error',
    'ErrorPages',
    'route.errorPages',
    'error',
    [
      // Reached by address (a link, a redirect), never a destination anyone picks from the menu.
      page('/error/401', 'Page401', 'route.page401', 'error', ErrorInLayout, { noCache: true, hidden: true }),
      page('/error/404', 'Page404', 'route.page404', 'error', ErrorInLayout, { noCache: true, hidden: true }),
    ],
    true,
  ),
  group('/error-log', 'ErrorLog', 'route.errorLog', 'bug', [page('/error-log/log', 'ErrorLogList', 'route.errorLog', 'bug', ErrorLogPage)]),
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

/** Resource ids of the screens the backend does not offer, and ownCallKey of the own calls it lacks (from the gateway's backend map). */
export type Unoffered = ReadonlySet<string>;
export const ALL_OFFERED: Unoffered = new Set();

/** A screen whose resource (or a page whose needed call) the backend lacks: treated everywhere as if its permission were missing. */
export function isUnoffered(route: RouteEntry, unoffered: Unoffered): boolean {
  if (route.kind !== 'leaf') return false;
  if (route.screen !== undefined) return unoffered.has(route.screen.id);
  return route.needs?.some((name) => unoffered.has(ownCallKey(name))) ?? false;
}

export function findRoute(path: string): RouteEntry | undefined {
  return byPath.get(path);
}

/** A known path written in another case, for the redirect to its canonical spelling. */
export function findRouteIgnoringCase(path: string): RouteEntry | undefined {
  return byFoldedPath.get(path.toLowerCase());
}
