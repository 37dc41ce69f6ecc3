import { lazy } from 'react';
import { PERMISSIONS as P } from '#contract/permissions';
import { ownCallKey } from '../api/session.js';
import { listScreen, operationScreen, settingsScreen, statisticsScreen } from '../screens/declare.js';
import { group, page, screen, type GroupRoute, type LazyPage, type LeafRoute, type RouteEntry } from './route-entry.js';

/**
 * The one route table: every screen of the console, its URL, menu entry and permission, and what
 * it shows. The menu, the guards, the breadcrumb, the header search and the tests all read it.
 * A management screen is a declaration on the screen engine: `listScreen('users', P.userProfile)`
 * names the contract's resource and the permission it needs. The resource itself (its fields and
 * actions), the engine, the views and the screen labels load only behind the login, with the first
 * screen that shows them: the login page carries none of the declarations. A test holds each
 * screen's kind and permission to its resource's. A screen's entry is one line: without a title
 * it is titled by its resource's label (`resource.<id>`), and named by the resource id.
 */

export type { GroupRoute, LazyPage, LeafRoute, RouteEntry } from './route-entry.js';

const ErrorLogPage: LazyPage = lazy(() => import('../pages/error-log-page.js'));
const AuditPage: LazyPage = lazy(() => import('../pages/audit-page.js'));
const ErrorInLayout: LazyPage = lazy(() => import('../pages/error-page.js'));

const deployment = [P.deployment];

export const ROUTES: readonly RouteEntry[] = [
  page({
    path: '/dashboard',
    name: 'Dashboard',
    title: 'route.dashboard',
    icon: 'dashboard',
    page: lazy(() => import('../dashboard/dashboard-page.js')),
    affix: true,
  }),
  group({
    path: '/deployconfig',
    name: 'DeployConfig',
    title: 'route.deployconfig',
    icon: 'deploy',
    children: [
      page({
        path: '/deployconfig/monitor',
        name: 'SystemMonitor',
        title: 'route.monitor',
        icon: 'monitor',
        page: lazy(() => import('../deployment/monitor-page.js')),
        permission: deployment,
        needs: ['monitoring'],
      }),
      page({
        path: '/deployconfig/switch',
        name: 'StartSwitch',
        title: 'route.switch',
        icon: 'switch',
        page: lazy(() => import('../deployment/switch-page.js')),
        permission: deployment,
        needs: ['runner'],
      }),
      page({
        path: '/deployconfig/migration',
        name: 'DataMigration',
        title: 'route.migration',
        icon: 'migrate',
        page: lazy(() => import('../deployment/migration-page.js')),
        permission: deployment,
        needs: ['importDatabase'],
      }),
    ],
  }),
  group({
    path: '/system',
    name: 'System',
    title: 'route.system',
    icon: 'system',
    children: [
      screen({
        path: '/system/admins',
        name: 'AdminList',
        title: 'route.admins',
        icon: 'admin',
        screen: listScreen('admins', P.adminUser),
      }),
      screen({
        path: '/system/record',
        name: 'OperationLog',
        title: 'route.record',
        icon: 'log',
        screen: listScreen('operationLog', P.record),
      }),
      // The gateway's own trail of every change made through the console, beside the backend's log
      // (the path is AUDIT_TRAIL_PATH of api/audit.ts, which this table does not load with the login page).
      page({
        path: '/system/audit',
        name: 'AuditTrail',
        title: 'route.audit',
        icon: 'log',
        page: AuditPage,
        permission: [P.record],
      }),
      screen({
        path: '/system/googleverify',
        name: 'GoogleVerify',
        title: 'route.googleverify',
        icon: 'key',
        screen: listScreen('googleVerify', P.googleGenerator, {
          results: { bind: 'authenticator', reset: 'authenticator' },
        }),
      }),
    ],
  }),
  group({
    path: '/userpage',
    name: 'UserPage',
    title: 'route.userpage',
    icon: 'user',
    children: [
      screen({
        path: '/userpage/userset',
        name: 'UserSet',
        title: 'route.userset',
        icon: 'users',
        screen: listScreen('users', P.userProfile, {
          detail: 'user',
          results: { resetPassword: 'secret' },
          // Bans from a list of accounts (a moderation team's, another system's).
          import: { columns: ['account', 'reason'], key: 'account', action: 'ban' },
          search: true,
          related: 'user',
        }),
      }),
      screen({
        path: '/groupset',
        name: 'GroupSet',
        title: 'route.groupset',
        icon: 'group',
        screen: listScreen('groups', P.groupProfile, { detail: 'group', search: true }),
      }),
    ],
  }),
  group({
    path: '/siteconfig',
    name: 'SiteConfig',
    title: 'route.siteconfig',
    icon: 'settings',
    children: [
      screen({
        path: '/siteconfig/function',
        name: 'SiteFunction',
        title: 'route.function',
        icon: 'function',
        screen: settingsScreen('siteFunctions', P.stationSystem),
      }),
      screen({
        path: '/defaultfriend',
        name: 'DefaultFriend',
        title: 'route.defaultfriend',
        icon: 'friend',
        screen: listScreen('defaultFriends', P.defaultFriend),
      }),
      screen({
        path: '/defaultgroup',
        name: 'DefaultGroup',
        title: 'route.defaultgroup',
        icon: 'group',
        screen: listScreen('defaultGroups', P.defaultGroup),
      }),
      screen({
        path: '/defaultavatar',
        name: 'DefaultAvatar',
        title: 'route.defaultavatar',
        icon: 'avatar',
        screen: listScreen('defaultAvatars', P.defaultAvatar),
      }),
      screen({
        path: '/defaultemoji',
        name: 'DefaultEmoji',
        title: 'route.defaultemoji',
        icon: 'emoji',
        screen: listScreen('defaultEmoji', P.defaultEmoticon),
      }),
      screen({
        path: '/securityconfig',
        name: 'SecurityConfig',
        title: 'route.securityconfig',
        icon: 'shield',
        screen: listScreen('securityQuestions', P.secretProtection),
      }),
      screen({
        path: '/homelist',
        name: 'HomeList',
        title: 'route.homelist',
        icon: 'list',
        screen: listScreen('discover', P.discover),
      }),
      screen({
        path: '/siteannouncement',
        name: 'SiteAnnouncement',
        title: 'route.siteannouncement',
        icon: 'announce',
        screen: listScreen('announcements', P.siteAnnouncement),
      }),
      screen({
        path: '/invitationcode',
        name: 'InvitationCode',
        title: 'route.invitationcode',
        icon: 'ticket',
        screen: listScreen('inviteCodes', P.inviteCode, {
          results: { generate: 'codes' },
          import: { columns: ['code', 'maxUses', 'expireTime'], key: 'code' },
        }),
      }),
      screen({
        path: '/sensitivewords',
        name: 'SensitiveWords',
        title: 'route.sensitivewords',
        icon: 'words',
        screen: listScreen('sensitiveWords', P.sensitiveWord, {
          results: { test: 'sensitiveHits' },
          import: { columns: ['word', 'category'], key: 'word' },
        }),
      }),
      screen({
        path: '/privilegeduser',
        name: 'PrivilegedUser',
        title: 'route.privilegeduser',
        icon: 'star',
        screen: listScreen('privilegedUsers', P.privilegedUser),
      }),
      screen({
        path: '/useprotocol',
        name: 'UseProtocol',
        title: 'route.useprotocol',
        icon: 'document',
        screen: settingsScreen('termsOfUse', P.privilegedUser),
      }),
    ],
  }),
  group({
    path: '/operation',
    name: 'Operation',
    title: 'route.operation',
    icon: 'chart',
    children: [
      screen({
        path: '/operation/statistics',
        name: 'Statistics',
        title: 'route.statistics',
        icon: 'chart',
        screen: statisticsScreen('dailyStatistics', P.dailyStatistics),
      }),
      screen({
        path: '/operation/channel_statistics',
        name: 'ChannelStatistics',
        title: 'route.channelStatistics',
        icon: 'chart',
        screen: statisticsScreen('channelStatistics', P.channelStatistics),
      }),
      screen({
        path: '/BlackList',
        name: 'BlackList',
        title: 'route.blacklist',
        icon: 'ban',
        screen: listScreen('ipBlacklist', P.onlineStatistics, {
          import: { columns: ['ip', 'reason', 'expireTime'], key: 'ip' },
        }),
      }),
      screen({
        path: '/dataclean',
        name: 'DataClean',
        title: 'route.dataclean',
        icon: 'clean',
        screen: operationScreen('dataClean', P.dataClean),
      }),
      screen({
        path: '/frequency',
        name: 'Frequency',
        title: 'route.frequency',
        icon: 'speed',
        screen: listScreen('frequencyLimits', P.frequencyLimit),
      }),
      screen({
        path: '/onlineuser',
        name: 'OnlineUser',
        title: 'route.onlineuser',
        icon: 'online',
        screen: listScreen('onlineUsers', P.onlineStatistics),
      }),
      screen({
        path: '/loginuser',
        name: 'LoginUser',
        title: 'route.loginuser',
        icon: 'login',
        screen: listScreen('loginRecords', P.loginStatistics),
      }),
      screen({
        path: '/masshelper',
        name: 'MassHelper',
        title: 'route.masshelper',
        icon: 'message',
        screen: listScreen('massMessages', P.massMessage),
      }),
      screen({
        path: '/distribution',
        name: 'Distribution',
        title: 'route.distribution',
        icon: 'link',
        screen: listScreen('distributionAddresses', P.distributionAddress),
      }),
      screen({
        path: '/suggestion',
        name: 'Suggestion',
        title: 'route.suggestion',
        icon: 'feedback',
        screen: listScreen('suggestions', P.distributionAddress),
      }),
    ],
  }),
  group({
    path: '/finance',
    name: 'Finance',
    title: 'route.finance',
    icon: 'money',
    children: [
      screen({
        path: '/finance/OnlineRecharge',
        name: 'OnlineRecharge',
        title: 'route.onlineRecharge',
        icon: 'wallet',
        screen: listScreen('rechargeChannels', P.userBalance),
      }),
      screen({
        path: '/SignInConfig',
        name: 'SignInConfig',
        title: 'route.signInConfig',
        icon: 'calendar',
        screen: settingsScreen('signInConfig', P.signInConfig),
      }),
      screen({
        path: '/WithdrawMoneyConfig',
        name: 'WithdrawMoneyConfig',
        title: 'route.withdrawConfig',
        icon: 'money',
        screen: settingsScreen('withdrawalConfig', P.cashWithdrawalConfig),
      }),
      screen({
        path: '/WithDrawMoneyCheck',
        name: 'WithDrawMoneyCheck',
        title: 'route.withdrawCheck',
        icon: 'check',
        screen: listScreen('withdrawalReview', P.cashWithdrawalCheck, {
          afterAction: 'withdrawalReviewed',
          watch: 'withdrawalCount',
          search: true,
          related: 'applicant',
          context: 'withdrawal',
          // A review queue opens on what still waits; "All" is one choice away and kept in the address.
          filters: { state: 'pending' },
          keys: { a: 'approve', r: 'reject' },
        }),
        badge: 'withdrawal',
      }),
      screen({
        path: '/PersonalRedEnvelope',
        name: 'PersonalRedEnvelope',
        title: 'route.personalRedEnvelope',
        icon: 'redpack',
        screen: listScreen('personalRedEnvelopes', P.userRedPack),
      }),
      screen({
        path: '/GroupRedEnvelope',
        name: 'GroupRedEnvelope',
        title: 'route.groupRedEnvelope',
        icon: 'redpack',
        screen: listScreen('groupRedEnvelopes', P.groupRedPack),
      }),
      screen({
        path: '/BillingRecords',
        name: 'BillingRecords',
        title: 'route.billingRecords',
        icon: 'bill',
        screen: listScreen('billingRecords', P.billRecord),
      }),
    ],
  }),
  group({
    path: '/interface',
    name: 'Interface',
    title: 'route.interface',
    icon: 'interface',
    children: [
      screen({
        path: '/interface/interface',
        name: 'InterfaceManage',
        title: 'route.interface',
        icon: 'interface',
        screen: settingsScreen('appInterface', P.page),
      }),
    ],
  }),
  group({
    path: '/push',
    name: 'Push',
    title: 'route.push',
    icon: 'push',
    children: [
      screen({
        path: '/push/pushconfig',
        name: 'PushConfig',
        title: 'route.push',
        icon: 'push',
        screen: settingsScreen('pushConfig', P.push),
      }),
    ],
  }),
  group({
    path: '/shortmessage',
    name: 'ShortMessage',
    title: 'route.shortmessage',
    icon: 'sms',
    children: [
      screen({
        path: '/shortmessage/message',
        name: 'ShortMessagePlatform',
        title: 'route.shortmessage',
        icon: 'sms',
        screen: settingsScreen('smsConfig', P.shortMessage),
      }),
    ],
  }),
  group({
    path: '/versionupdate',
    name: 'VersionUpdate',
    title: 'route.versionupdate',
    icon: 'update',
    children: [
      screen({
        path: '/versionupdate/appupdate',
        name: 'AppUpdate',
        title: 'route.versionupdate',
        icon: 'update',
        screen: listScreen('appVersions', P.version),
      }),
    ],
  }),
  group({
    path: '/error',
    name: 'ErrorPages',
    title: 'route.errorPages',
    icon: 'error',
    children: [
      // Reached by address (a link, a redirect), never a destination anyone picks from the menu.
      page({
        path: '/error/401',
        name: 'Page401',
        title: 'route.page401',
        icon: 'error',
        page: ErrorInLayout,
        noCache: true,
        hidden: true,
      }),
      page({
        path: '/error/404',
        name: 'Page404',
        title: 'route.page404',
        icon: 'error',
        page: ErrorInLayout,
        noCache: true,
        hidden: true,
      }),
    ],
    alwaysShow: true,
  }),
  group({
    path: '/error-log',
    name: 'ErrorLog',
    title: 'route.errorLog',
    icon: 'bug',
    children: [
      page({ path: '/error-log/log', name: 'ErrorLogList', title: 'route.errorLog', icon: 'bug', page: ErrorLogPage }),
    ],
  }),
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
