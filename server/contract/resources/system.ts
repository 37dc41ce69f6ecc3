import { ALL_PERMISSIONS, PERMISSIONS } from '../permissions.js';
import type { ListResource, Resource } from '../resource.js';
import { EDITABLE, ID, SORTABLE_ID, at, shown } from './common-fields.js';

export const ADMIN_STATUSES = ['enabled', 'disabled'] as const;

export const ADMINS = {
  kind: 'list',
  id: 'admins',
  ...at(PERMISSIONS.adminUser),
  keywordFields: ['account', 'nickname'],
  defaultSort: '-createTime',
  recordFields: ['account', 'nickname'],
  selfField: 'account',
  ...EDITABLE,
  fields: [
    SORTABLE_ID,
    { key: 'account', kind: 'text', required: true, maxLength: 32, column: true, sortable: true, policy: 'account' },
    { key: 'nickname', kind: 'text', required: true, maxLength: 32, column: true },
    { key: 'password', kind: 'password', required: true, createOnly: true, maxLength: 64, policy: 'password' },
    { key: 'permissions', kind: 'lines', options: ALL_PERMISSIONS, required: true },
    { key: 'status', kind: 'select', options: ADMIN_STATUSES, required: true, column: true, filter: true },
    shown('googleBound', 'switch'),
    shown('lastLoginTime', 'datetime', { sortable: true }),
    shown('createTime', 'datetime', { sortable: true, filter: true }),
  ],
  actions: [
    {
      name: 'resetPassword',
      target: 'row',
      destructive: true,
      inputs: [{ key: 'password', kind: 'password', required: true, maxLength: 64, policy: 'password' }],
    },
    {
      name: 'disable',
      target: 'row',
      destructive: true,
      when: { field: 'status', in: ['enabled'] },
      undo: 'enable',
      sets: { status: 'disabled' },
    },
    {
      name: 'enable',
      target: 'row',
      when: { field: 'status', in: ['disabled'] },
      undo: 'disable',
      sets: { status: 'enabled' },
    },
  ],
} as const satisfies ListResource;

export const OPERATION_ACTIONS = [
  'login',
  'create',
  'update',
  'delete',
  'ban',
  'unban',
  'approve',
  'reject',
  'config',
  'export',
] as const;

export const OPERATION_LOG = {
  kind: 'list',
  id: 'operationLog',
  ...at(PERMISSIONS.record),
  keywordFields: ['adminAccount', 'module', 'detail', 'ip'],
  defaultSort: '-createTime',
  recordFields: ['adminAccount', 'action', 'createTime'],
  fields: [
    ID,
    shown('adminAccount', 'text', { filter: true }),
    { key: 'action', kind: 'select', options: OPERATION_ACTIONS, readOnly: true, column: true, filter: true },
    shown('module', 'text', { resourceIds: true }),
    shown('detail', 'longtext'),
    shown('ip', 'text'),
    shown('createTime', 'datetime', { sortable: true, filter: true }),
  ],
} as const satisfies ListResource;

export const GOOGLE_VERIFY = {
  kind: 'list',
  id: 'googleVerify',
  ...at(PERMISSIONS.googleGenerator),
  keywordFields: ['account'],
  defaultSort: 'id',
  recordFields: ['account'],
  fields: [
    ID,
    shown('account', 'text'),
    shown('googleBound', 'switch', { filter: true }),
    shown('googlePending', 'switch'),
    shown('boundTime', 'datetime'),
  ],
  actions: [
    // Answers {id, secret, otpauthUrl} once; the administrator scans it into an authenticator,
    // and the binding takes effect when confirmBind proves it with one code.
    { name: 'bind', target: 'row', showsResult: true, when: { field: 'googleBound', in: [false] } },
    {
      name: 'confirmBind',
      target: 'row',
      when: { field: 'googlePending', in: [true] },
      inputs: [{ key: 'otpCode', kind: 'text', required: true, maxLength: 6 }],
    },
    { name: 'reset', target: 'row', destructive: true, showsResult: true, when: { field: 'googleBound', in: [true] } },
    { name: 'unbind', target: 'row', destructive: true, when: { field: 'googleBound', in: [true] } },
  ],
} as const satisfies ListResource;

/** This area's resources in menu order. RESOURCES joins the areas' lists, so a declaration is listed beside itself. */
export const SYSTEM_RESOURCES: readonly Resource[] = [ADMINS, OPERATION_LOG, GOOGLE_VERIFY];
