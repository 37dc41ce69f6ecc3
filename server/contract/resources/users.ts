import { PERMISSIONS } from '../permissions.js';
import type { ListResource, Resource } from '../resource.js';
import { SORTABLE_ID, at, shown } from './common-fields.js';

export const USER_STATUSES = ['normal', 'banned'] as const;
export const USER_CHANNELS = ['official', 'appStore', 'googlePlay', 'huawei', 'xiaomi', 'web', 'invite'] as const;

/** A ban, offered on one row and over a selection alike: a reason, only for users not banned yet. */
const BAN = {
  name: 'ban',
  destructive: true,
  inputs: [{ key: 'reason', kind: 'text', required: true, maxLength: 200 }],
  when: { field: 'status', in: ['normal'] },
  undo: 'unban',
  sets: { status: 'banned' },
} as const;

/** GET {path}/detail?id also answers wallet, moments, groups and recentLogins, and friends where kept (UserDetail). */
export const USERS = {
  kind: 'list',
  id: 'users',
  ...at(PERMISSIONS.userProfile),
  keywordFields: ['id', 'account', 'nickname', 'phone'],
  defaultSort: '-registerTime',
  recordFields: ['account', 'nickname'],
  edit: true,
  detail: true,
  fields: [
    SORTABLE_ID,
    shown('avatar', 'image'),
    shown('account', 'text', { sortable: true }),
    { key: 'nickname', kind: 'text', required: true, maxLength: 32, column: true },
    { key: 'phone', kind: 'text', maxLength: 20, column: true },
    { key: 'status', kind: 'select', options: USER_STATUSES, readOnly: true, column: true, filter: true },
    { key: 'channel', kind: 'select', options: USER_CHANNELS, readOnly: true, column: true, filter: true },
    shown('privileged', 'switch'),
    shown('balance', 'money', { sortable: true }),
    shown('registerTime', 'datetime', { sortable: true, filter: true }),
    shown('lastLoginTime', 'datetime', { sortable: true }),
    { key: 'lastLoginIp', kind: 'text', readOnly: true },
  ],
  actions: [
    { ...BAN, target: 'row' },
    // No undo: banning again needs a reason, which a click on Undo cannot give. Also offered over a
    // selection of banned users, one call per user, so each refusal is told against its user.
    {
      name: 'unban',
      target: 'row',
      perSelectedRow: true,
      when: { field: 'status', in: ['banned'] },
      sets: { status: 'normal' },
    },
    // Answers {password}: the new password, shown once.
    { name: 'resetPassword', target: 'row', destructive: true, showsResult: true },
    {
      name: 'setPrivileged',
      target: 'row',
      when: { field: 'privileged', in: [false] },
      undo: 'unsetPrivileged',
      sets: { privileged: true },
    },
    {
      name: 'unsetPrivileged',
      target: 'row',
      when: { field: 'privileged', in: [true] },
      undo: 'setPrivileged',
      sets: { privileged: false },
    },
    { ...BAN, target: 'bulk' },
  ],
} as const satisfies ListResource;

export interface UserDetail {
  user: Record<string, unknown>;
  wallet: { balance: number; frozen: number; totalRecharge: number; totalWithdraw: number };
  moments: { id: number; content: string; likes: number; comments: number; createTime: string }[];
  groups: { id: number; name: string; role: 'owner' | 'admin' | 'member'; joinTime: string }[];
  recentLogins: { time: string; ip: string; device: string; region: string }[];
  /**
   * The user's contact list (an XMPP roster): each contact's address, the name the user gave it and
   * the subscription state as the backend words it (XMPP: none, to, from, both). A backend that
   * keeps none leaves it out, and the record page then shows no such section.
   */
  friends?: { account: string; nickname: string; subscription: string }[];
  /** While the user is banned: why, when and by which administrator (account). A backend that keeps none leaves it out. */
  ban?: { reason: string; time: string; by: string };
}

export const GROUP_STATUSES = ['normal', 'dissolved'] as const;

/** GET {path}/detail?id also answers members (GroupDetail). */
export const GROUPS = {
  kind: 'list',
  id: 'groups',
  ...at(PERMISSIONS.groupProfile),
  keywordFields: ['id', 'name', 'ownerAccount'],
  defaultSort: '-createTime',
  recordFields: ['name', 'ownerAccount'],
  edit: true,
  detail: true,
  fields: [
    SORTABLE_ID,
    shown('avatar', 'image'),
    { key: 'name', kind: 'text', required: true, maxLength: 40, column: true },
    shown('ownerAccount', 'text'),
    shown('memberCount', 'number', { sortable: true }),
    shown('muted', 'switch', { filter: true }),
    { key: 'status', kind: 'select', options: GROUP_STATUSES, readOnly: true, column: true, filter: true },
    { key: 'notice', kind: 'longtext', maxLength: 500 },
    shown('createTime', 'datetime', { sortable: true, filter: true }),
  ],
  actions: [
    { name: 'muteAll', target: 'row', when: { field: 'muted', in: [false] }, undo: 'unmuteAll' },
    { name: 'unmuteAll', target: 'row', when: { field: 'muted', in: [true] }, undo: 'muteAll' },
    { name: 'dissolve', target: 'row', destructive: true, when: { field: 'status', in: ['normal'] } },
  ],
} as const satisfies ListResource;

export interface GroupDetail {
  group: Record<string, unknown>;
  members: {
    userId: number;
    account: string;
    nickname: string;
    role: 'owner' | 'admin' | 'member';
    joinTime: string;
    muted: boolean;
  }[];
}

/** This area's resources in menu order. RESOURCES joins the areas' lists, so a declaration is listed beside itself. */
export const USER_RESOURCES: readonly Resource[] = [USERS, GROUPS];
