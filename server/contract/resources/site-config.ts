import { PERMISSIONS } from '../permissions.js';
import type { ListResource, Resource, SettingsResource } from '../resource.js';
import { EDITABLE, ENABLED, ID, SORT_ORDER, at, shown } from './common-fields.js';

export const LANGUAGES = ['zh', 'en', 'es', 'ja'] as const;

export const SITE_FUNCTIONS = {
  kind: 'settings',
  id: 'siteFunctions',
  ...at(PERMISSIONS.stationSystem),
  fields: [
    { key: 'chatRoomName', kind: 'text', required: true, maxLength: 40 },
    { key: 'webIconPath', kind: 'image' },
    { key: 'logoIconPath', kind: 'image' },
    { key: 'registerEnabled', kind: 'switch' },
    { key: 'inviteCodeRequired', kind: 'switch' },
    { key: 'phoneVerifyRequired', kind: 'switch' },
    { key: 'friendVerifyRequired', kind: 'switch' },
    { key: 'momentsEnabled', kind: 'switch' },
    { key: 'redEnvelopeEnabled', kind: 'switch' },
    { key: 'walletEnabled', kind: 'switch' },
    { key: 'maxGroupMembers', kind: 'number', required: true, min: 2, max: 10000 },
    { key: 'messageRecallMinutes', kind: 'number', required: true, min: 0, max: 1440 },
    { key: 'customerServiceUrl', kind: 'link' },
  ],
} as const satisfies SettingsResource;

const createTime = shown('createTime', 'datetime', { sortable: true });

export const DEFAULT_FRIENDS = {
  kind: 'list',
  id: 'defaultFriends',
  ...at(PERMISSIONS.defaultFriend),
  keywordFields: ['userAccount', 'nickname'],
  defaultSort: 'sort',
  recordFields: ['userAccount', 'nickname'],
  ...EDITABLE,
  fields: [
    ID,
    { key: 'userAccount', kind: 'text', required: true, maxLength: 32, column: true },
    shown('nickname', 'text'),
    { key: 'welcomeMessage', kind: 'text', maxLength: 200, column: true },
    SORT_ORDER,
    createTime,
  ],
} as const satisfies ListResource;

export const DEFAULT_GROUPS = {
  kind: 'list',
  id: 'defaultGroups',
  ...at(PERMISSIONS.defaultGroup),
  keywordFields: ['groupName'],
  defaultSort: 'sort',
  recordFields: ['groupName', 'groupId'],
  ...EDITABLE,
  fields: [
    ID,
    { key: 'groupId', kind: 'number', required: true, min: 1, column: true, identifier: true },
    shown('groupName', 'text'),
    SORT_ORDER,
    createTime,
  ],
} as const satisfies ListResource;

export const DEFAULT_AVATARS = {
  kind: 'list',
  id: 'defaultAvatars',
  ...at(PERMISSIONS.defaultAvatar),
  keywordFields: ['name'],
  defaultSort: 'sort',
  recordFields: ['name', 'image'],
  ...EDITABLE,
  fields: [
    ID,
    { key: 'image', kind: 'image', required: true, column: true },
    // Named and placed: a nameless avatar with no order sorted first, ahead of every chosen one.
    { key: 'name', kind: 'text', required: true, maxLength: 40, column: true },
    { ...SORT_ORDER, required: true },
    createTime,
  ],
} as const satisfies ListResource;

export const EMOJI_CATEGORIES = ['classic', 'animals', 'food', 'gestures', 'festival'] as const;

export const DEFAULT_EMOJI = {
  kind: 'list',
  id: 'defaultEmoji',
  ...at(PERMISSIONS.defaultEmoticon),
  keywordFields: ['name'],
  defaultSort: 'sort',
  recordFields: ['name', 'image'],
  ...EDITABLE,
  fields: [
    ID,
    { key: 'image', kind: 'image', required: true, column: true },
    { key: 'name', kind: 'text', required: true, maxLength: 40, column: true },
    { key: 'category', kind: 'select', options: EMOJI_CATEGORIES, required: true, column: true, filter: true },
    SORT_ORDER,
    createTime,
  ],
} as const satisfies ListResource;

export const SECURITY_QUESTIONS = {
  kind: 'list',
  id: 'securityQuestions',
  ...at(PERMISSIONS.secretProtection),
  keywordFields: ['question'],
  defaultSort: 'sort',
  recordFields: ['question', 'language'],
  ...EDITABLE,
  fields: [
    ID,
    { key: 'question', kind: 'text', required: true, maxLength: 100, column: true },
    { key: 'language', kind: 'select', options: LANGUAGES, required: true, column: true, filter: true },
    ENABLED,
    SORT_ORDER,
  ],
} as const satisfies ListResource;

export const DISCOVER_ENTRIES = {
  kind: 'list',
  id: 'discover',
  ...at(PERMISSIONS.discover),
  keywordFields: ['title', 'url'],
  defaultSort: 'sort',
  recordFields: ['title', 'url'],
  ...EDITABLE,
  fields: [
    ID,
    { key: 'icon', kind: 'image', column: true },
    { key: 'title', kind: 'text', required: true, maxLength: 40, column: true },
    { key: 'url', kind: 'link', required: true, column: true },
    ENABLED,
    SORT_ORDER,
  ],
} as const satisfies ListResource;

export const ANNOUNCEMENTS = {
  kind: 'list',
  id: 'announcements',
  ...at(PERMISSIONS.siteAnnouncement),
  keywordFields: ['title', 'content'],
  defaultSort: '-createTime',
  recordFields: ['title'],
  ...EDITABLE,
  fields: [
    ID,
    { key: 'title', kind: 'text', required: true, maxLength: 80, column: true },
    { key: 'content', kind: 'longtext', required: true, maxLength: 5000 },
    { key: 'published', kind: 'switch', column: true, filter: true },
    { key: 'pinned', kind: 'switch', column: true },
    { key: 'publishTime', kind: 'datetime', column: true, sortable: true },
    createTime,
  ],
} as const satisfies ListResource;

export const INVITE_CODE_STATUSES = ['unused', 'used', 'disabled'] as const;

export const INVITE_CODES = {
  kind: 'list',
  id: 'inviteCodes',
  ...at(PERMISSIONS.inviteCode),
  keywordFields: ['code', 'usedBy'],
  defaultSort: '-createTime',
  recordFields: ['code', 'status'],
  // Created one at a time with a chosen code (a campaign's, or one carried over from another system).
  create: true,
  remove: true,
  fields: [
    ID,
    { key: 'code', kind: 'text', required: true, maxLength: 32, column: true },
    { key: 'status', kind: 'select', options: INVITE_CODE_STATUSES, readOnly: true, column: true, filter: true },
    shown('usedCount', 'number', { sortable: true }),
    { key: 'maxUses', kind: 'number', required: true, min: 1, max: 10000, column: true },
    shown('usedBy', 'text'),
    { key: 'expireTime', kind: 'datetime', column: true },
    shown('createTime', 'datetime', { sortable: true, filter: true }),
  ],
  actions: [
    {
      name: 'generate',
      target: 'page',
      showsResult: true,
      inputs: [
        { key: 'count', kind: 'number', required: true, min: 1, max: 500 },
        { key: 'maxUses', kind: 'number', required: true, min: 1, max: 10000 },
        { key: 'expireTime', kind: 'datetime' },
      ],
    },
    { name: 'disable', target: 'row', destructive: true, when: { field: 'status', in: ['unused'] } },
    { name: 'disable', target: 'bulk', destructive: true, when: { field: 'status', in: ['unused'] } },
  ],
} as const satisfies ListResource;

export const SENSITIVE_WORD_CATEGORIES = ['politics', 'porn', 'violence', 'ads', 'abuse', 'other'] as const;

export const SENSITIVE_WORDS = {
  kind: 'list',
  id: 'sensitiveWords',
  ...at(PERMISSIONS.sensitiveWord),
  keywordFields: ['word'],
  defaultSort: '-createTime',
  recordFields: ['word', 'category'],
  create: true,
  remove: true,
  fields: [
    ID,
    { key: 'word', kind: 'text', required: true, maxLength: 50, column: true, sortable: true },
    { key: 'category', kind: 'select', options: SENSITIVE_WORD_CATEGORIES, required: true, column: true, filter: true },
    shown('createTime', 'datetime', { sortable: true }),
  ],
  actions: [
    // Answers {added, skipped}: duplicates are skipped, not errors.
    {
      name: 'batchAdd',
      target: 'page',
      showsResult: true,
      inputs: [
        { key: 'words', kind: 'lines', required: true },
        { key: 'category', kind: 'select', options: SENSITIVE_WORD_CATEGORIES, required: true },
      ],
    },
    // Answers {hits: [{word, category, index}]}: which words a text contains.
    {
      name: 'test',
      target: 'page',
      showsResult: true,
      inputs: [{ key: 'text', kind: 'longtext', required: true, maxLength: 5000 }],
    },
  ],
} as const satisfies ListResource;

export const PRIVILEGES = ['noAds', 'unlimitedGroups', 'largeFiles', 'vipBadge', 'priorityService'] as const;

export const PRIVILEGED_USERS = {
  kind: 'list',
  id: 'privilegedUsers',
  ...at(PERMISSIONS.privilegedUser),
  keywordFields: ['userAccount', 'nickname', 'remark'],
  defaultSort: '-createTime',
  recordFields: ['userAccount', 'nickname'],
  ...EDITABLE,
  fields: [
    ID,
    { key: 'userAccount', kind: 'text', required: true, maxLength: 32, column: true },
    shown('nickname', 'text'),
    { key: 'privileges', kind: 'lines', options: PRIVILEGES, required: true, column: true },
    { key: 'remark', kind: 'text', maxLength: 200, column: true },
    createTime,
  ],
} as const satisfies ListResource;

/** Shares its permission with privileged users, so its own segment follows the permission's path. */
export const TERMS_OF_USE = {
  kind: 'settings',
  id: 'termsOfUse',
  path: `${PERMISSIONS.privilegedUser}/terms`,
  permission: PERMISSIONS.privilegedUser,
  fields: LANGUAGES.map((language) => ({ key: `terms_${language}`, kind: 'longtext', maxLength: 50000 }) as const),
} as const satisfies SettingsResource;

/** This area's resources in menu order. RESOURCES joins the areas' lists, so a declaration is listed beside itself. */
export const SITE_CONFIG_RESOURCES: readonly Resource[] = [
  SITE_FUNCTIONS,
  DEFAULT_FRIENDS,
  DEFAULT_GROUPS,
  DEFAULT_AVATARS,
  DEFAULT_EMOJI,
  SECURITY_QUESTIONS,
  DISCOVER_ENTRIES,
  ANNOUNCEMENTS,
  INVITE_CODES,
  SENSITIVE_WORDS,
  PRIVILEGED_USERS,
  TERMS_OF_USE,
];
