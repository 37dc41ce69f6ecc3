import { PERMISSIONS } from '../permissions.js';
import type { ListResource, OperationResource, Resource, StatisticsResource } from '../resource.js';
import { USER_CHANNELS } from './users.js';
import { EDITABLE, ENABLED, ID, SORT_ORDER, at, shown } from './common-fields.js';

export const DAILY_STATISTICS = {
  kind: 'statistics',
  id: 'dailyStatistics',
  ...at(PERMISSIONS.dailyStatistics),
  series: [
    { key: 'registrations', kind: 'number' },
    { key: 'activeUsers', kind: 'number' },
    { key: 'messages', kind: 'number' },
    { key: 'newGroups', kind: 'number' },
    { key: 'rechargeAmount', kind: 'money' },
    { key: 'withdrawAmount', kind: 'money' },
  ],
} as const satisfies StatisticsResource;

export const CHANNEL_STATISTICS = {
  kind: 'statistics',
  id: 'channelStatistics',
  ...at(PERMISSIONS.channelStatistics),
  dimension: { key: 'channel', options: USER_CHANNELS },
  series: [
    { key: 'registrations', kind: 'number' },
    { key: 'activeUsers', kind: 'number' },
    { key: 'rechargeAmount', kind: 'money' },
  ],
} as const satisfies StatisticsResource;

/** Shares its permission with online users, so its own segment follows the permission's path. */
export const IP_BLACKLIST = {
  kind: 'list',
  id: 'ipBlacklist',
  path: `${PERMISSIONS.onlineStatistics}/blacklist`,
  permission: PERMISSIONS.onlineStatistics,
  keywordFields: ['ip', 'reason'],
  defaultSort: '-createTime',
  recordFields: ['ip', 'reason'],
  ...EDITABLE,
  fields: [
    ID,
    { key: 'ip', kind: 'ip', required: true, column: true },
    { key: 'reason', kind: 'text', required: true, maxLength: 200, column: true },
    { key: 'expireTime', kind: 'datetime', column: true, sortable: true },
    shown('createdBy', 'text'),
    shown('createTime', 'datetime', { sortable: true }),
  ],
} as const satisfies ListResource;

export const CLEAN_TARGETS = ['chatMessages', 'moments', 'loginRecords', 'operationLogs', 'files'] as const;
export const CLEAN_CONFIRM_TEXT = 'DELETE';

/** Preview answers {count, bytes, oldest}; clean answers {removed, bytes}. */
export const DATA_CLEAN = {
  kind: 'operation',
  id: 'dataClean',
  ...at(PERMISSIONS.dataClean),
  preview: true,
  run: 'clean',
  confirmText: CLEAN_CONFIRM_TEXT,
  inputs: [
    { key: 'target', kind: 'select', options: CLEAN_TARGETS, required: true },
    { key: 'olderThanDays', kind: 'number', required: true, min: 7, max: 3650 },
  ],
} as const satisfies OperationResource;

export const LIMITED_ACTIONS = [
  'sendMessage',
  'addFriend',
  'createGroup',
  'login',
  'register',
  'sendRedPacket',
] as const;
export const LIMIT_SCOPES = ['user', 'ip', 'device'] as const;

export const FREQUENCY_LIMITS = {
  kind: 'list',
  id: 'frequencyLimits',
  ...at(PERMISSIONS.frequencyLimit),
  keywordFields: ['action'],
  defaultSort: 'id',
  recordFields: ['action', 'scope'],
  ...EDITABLE,
  fields: [
    ID,
    { key: 'action', kind: 'select', options: LIMITED_ACTIONS, required: true, column: true, filter: true },
    { key: 'scope', kind: 'select', options: LIMIT_SCOPES, required: true, column: true, filter: true },
    { key: 'maxCount', kind: 'number', required: true, min: 1, max: 100000, column: true },
    { key: 'windowSeconds', kind: 'number', required: true, min: 1, max: 86400, column: true },
    ENABLED,
  ],
} as const satisfies ListResource;

export const DEVICES = ['android', 'ios', 'web', 'pc'] as const;

export const ONLINE_USERS = {
  kind: 'list',
  id: 'onlineUsers',
  ...at(PERMISSIONS.onlineStatistics),
  keywordFields: ['account', 'nickname', 'ip'],
  defaultSort: '-loginTime',
  recordFields: ['account', 'device', 'ip'],
  fields: [
    ID,
    shown('account', 'text'),
    shown('nickname', 'text'),
    { key: 'device', kind: 'select', options: DEVICES, readOnly: true, column: true, filter: true },
    shown('ip', 'text'),
    shown('region', 'text'),
    shown('loginTime', 'datetime', { sortable: true }),
  ],
  actions: [
    { name: 'forceLogout', target: 'row', destructive: true },
    { name: 'forceLogout', target: 'bulk', destructive: true },
  ],
} as const satisfies ListResource;

export const LOGIN_RESULTS = ['success', 'wrongPassword', 'banned', 'blockedIp'] as const;

export const LOGIN_RECORDS = {
  kind: 'list',
  id: 'loginRecords',
  ...at(PERMISSIONS.loginStatistics),
  keywordFields: ['account', 'ip', 'region'],
  defaultSort: '-time',
  recordFields: ['account', 'time'],
  fields: [
    ID,
    // A filter by the exact account: a user's page lists that user's logins.
    shown('account', 'text', { filter: true }),
    shown('ip', 'text'),
    shown('region', 'text'),
    { key: 'device', kind: 'select', options: DEVICES, readOnly: true, column: true, filter: true },
    { key: 'result', kind: 'select', options: LOGIN_RESULTS, readOnly: true, column: true, filter: true },
    shown('time', 'datetime', { sortable: true, filter: true }),
  ],
} as const satisfies ListResource;

/** online: only the users connected when the message is sent; nothing is kept for the others. */
export const SEGMENTS = ['all', 'android', 'ios', 'active7d', 'newUsers30d', 'privileged', 'online'] as const;
export const MASS_MESSAGE_STATES = ['sending', 'sent', 'failed'] as const;

/** `send` answers the new history record; `preview` (GET with segment) answers {targetCount}. */
export const MASS_MESSAGES = {
  kind: 'list',
  id: 'massMessages',
  ...at(PERMISSIONS.massMessage),
  keywordFields: ['title', 'content'],
  defaultSort: '-createTime',
  recordFields: ['title', 'segment'],
  remove: true,
  fields: [
    ID,
    shown('title', 'text'),
    { key: 'content', kind: 'longtext', readOnly: true },
    { key: 'segment', kind: 'select', options: SEGMENTS, readOnly: true, column: true, filter: true },
    { key: 'state', kind: 'select', options: MASS_MESSAGE_STATES, readOnly: true, column: true, filter: true },
    shown('targetCount', 'number'),
    shown('deliveredCount', 'number'),
    shown('createTime', 'datetime', { sortable: true, filter: true }),
  ],
  actions: [
    {
      name: 'send',
      target: 'page',
      showsResult: true,
      inputs: [
        { key: 'segment', kind: 'select', options: SEGMENTS, required: true },
        { key: 'title', kind: 'text', required: true, maxLength: 80 },
        { key: 'content', kind: 'longtext', required: true, maxLength: 2000 },
      ],
    },
  ],
} as const satisfies ListResource;

export const PLATFORMS = ['android', 'ios', 'web'] as const;

export const DISTRIBUTION_ADDRESSES = {
  kind: 'list',
  id: 'distributionAddresses',
  ...at(PERMISSIONS.distributionAddress),
  keywordFields: ['name', 'url'],
  defaultSort: 'sort',
  recordFields: ['name', 'platform'],
  ...EDITABLE,
  fields: [
    ID,
    { key: 'name', kind: 'text', required: true, maxLength: 40, column: true },
    { key: 'url', kind: 'link', required: true, column: true },
    { key: 'platform', kind: 'select', options: PLATFORMS, required: true, column: true, filter: true },
    ENABLED,
    SORT_ORDER,
  ],
} as const satisfies ListResource;

export const SUGGESTION_TYPES = ['complaint', 'suggestion', 'bug', 'other'] as const;
export const SUGGESTION_STATES = ['pending', 'handled'] as const;

/** Shares its permission with distribution addresses, so its own segment follows. */
export const SUGGESTIONS = {
  kind: 'list',
  id: 'suggestions',
  path: `${PERMISSIONS.distributionAddress}/suggestion`,
  permission: PERMISSIONS.distributionAddress,
  keywordFields: ['userAccount', 'content'],
  defaultSort: '-createTime',
  recordFields: ['userAccount', 'type'],
  detail: true,
  remove: true,
  fields: [
    ID,
    shown('userAccount', 'text'),
    { key: 'type', kind: 'select', options: SUGGESTION_TYPES, readOnly: true, column: true, filter: true },
    shown('content', 'longtext'),
    { key: 'state', kind: 'select', options: SUGGESTION_STATES, readOnly: true, column: true, filter: true },
    { key: 'reply', kind: 'longtext', readOnly: true },
    shown('createTime', 'datetime', { sortable: true, filter: true }),
  ],
  actions: [
    { name: 'markHandled', target: 'row', when: { field: 'state', in: ['pending'] } },
    { name: 'reply', target: 'row', inputs: [{ key: 'reply', kind: 'longtext', required: true, maxLength: 2000 }] },
  ],
} as const satisfies ListResource;

/** This area's resources in menu order. RESOURCES joins the areas' lists, so a declaration is listed beside itself. */
export const OPERATION_RESOURCES: readonly Resource[] = [
  DAILY_STATISTICS,
  CHANNEL_STATISTICS,
  IP_BLACKLIST,
  DATA_CLEAN,
  FREQUENCY_LIMITS,
  ONLINE_USERS,
  LOGIN_RECORDS,
  MASS_MESSAGES,
  DISTRIBUTION_ADDRESSES,
  SUGGESTIONS,
];
