import { PERMISSIONS } from '../permissions.js';
import type { ListResource, SettingsResource } from '../resource.js';

export const RECHARGE_METHODS = ['alipay', 'wechat', 'bankCard', 'usdt', 'applePay'] as const;

export const RECHARGE_CHANNELS = {
  kind: 'list',
  id: 'rechargeChannels',
  path: PERMISSIONS.userBalance,
  permission: PERMISSIONS.userBalance,
  keywordFields: ['name'],
  defaultSort: 'sort',
  create: true,
  edit: true,
  remove: true,
  fields: [
    { key: 'id', kind: 'number', readOnly: true, column: true },
    { key: 'name', kind: 'text', required: true, maxLength: 40, column: true },
    { key: 'method', kind: 'select', options: RECHARGE_METHODS, required: true, column: true, filter: true },
    { key: 'minAmount', kind: 'money', required: true, min: 1, column: true },
    { key: 'maxAmount', kind: 'money', required: true, min: 1, column: true },
    { key: 'feePercent', kind: 'number', required: true, min: 0, max: 100, column: true },
    { key: 'gatewayUrl', kind: 'link' },
    { key: 'enabled', kind: 'switch', column: true, filter: true },
    { key: 'sort', kind: 'number', min: 0, max: 9999, column: true, sortable: true },
  ],
} as const satisfies ListResource;

export const SIGN_IN_CONFIG = {
  kind: 'settings',
  id: 'signInConfig',
  path: PERMISSIONS.signInConfig,
  permission: PERMISSIONS.signInConfig,
  fields: [
    { key: 'enabled', kind: 'switch' },
    { key: 'dailyReward', kind: 'money', required: true, min: 0, max: 1000000 },
    { key: 'streakDays', kind: 'number', required: true, min: 2, max: 365 },
    { key: 'streakBonus', kind: 'money', required: true, min: 0, max: 1000000 },
    { key: 'monthlyCap', kind: 'money', required: true, min: 0, max: 100000000 },
    { key: 'rules', kind: 'longtext', maxLength: 5000 },
  ],
} as const satisfies SettingsResource;

export const WITHDRAWAL_CONFIG = {
  kind: 'settings',
  id: 'withdrawalConfig',
  path: PERMISSIONS.cashWithdrawalConfig,
  permission: PERMISSIONS.cashWithdrawalConfig,
  fields: [
    { key: 'enabled', kind: 'switch' },
    { key: 'minAmount', kind: 'money', required: true, min: 1 },
    { key: 'maxAmount', kind: 'money', required: true, min: 1 },
    { key: 'dailyLimit', kind: 'money', required: true, min: 1 },
    { key: 'dailyCount', kind: 'number', required: true, min: 1, max: 100 },
    { key: 'feePercent', kind: 'number', required: true, min: 0, max: 100 },
    { key: 'minFee', kind: 'money', required: true, min: 0 },
    { key: 'notice', kind: 'longtext', maxLength: 2000 },
  ],
} as const satisfies SettingsResource;

export const WITHDRAWAL_METHODS = ['alipay', 'bankCard', 'usdt'] as const;
export const WITHDRAWAL_STATES = ['pending', 'approved', 'rejected'] as const;

export const WITHDRAWAL_REVIEW = {
  kind: 'list',
  id: 'withdrawalReview',
  path: PERMISSIONS.cashWithdrawalCheck,
  permission: PERMISSIONS.cashWithdrawalCheck,
  keywordFields: ['userAccount', 'accountInfo'],
  defaultSort: '-createTime',
  totals: ['amount', 'fee'],
  fields: [
    { key: 'id', kind: 'number', readOnly: true, column: true },
    { key: 'userAccount', kind: 'text', readOnly: true, column: true },
    { key: 'amount', kind: 'money', readOnly: true, column: true, sortable: true },
    { key: 'fee', kind: 'money', readOnly: true, column: true },
    { key: 'method', kind: 'select', options: WITHDRAWAL_METHODS, readOnly: true, column: true, filter: true },
    { key: 'accountInfo', kind: 'text', readOnly: true, column: true },
    { key: 'state', kind: 'select', options: WITHDRAWAL_STATES, readOnly: true, column: true, filter: true },
    { key: 'reason', kind: 'text', readOnly: true, column: true },
    { key: 'createTime', kind: 'datetime', readOnly: true, column: true, sortable: true, filter: true },
    { key: 'reviewTime', kind: 'datetime', readOnly: true, column: true },
  ],
  actions: [
    { name: 'approve', target: 'row', when: { field: 'state', in: ['pending'] } },
    { name: 'reject', target: 'row', destructive: true, inputs: [{ key: 'reason', kind: 'text', required: true, maxLength: 200 }], when: { field: 'state', in: ['pending'] } },
    // Answers {synced}: pulls withdrawals the payment side has settled meanwhile.
    { name: 'syncCashWithdrawal', target: 'page', showsResult: true },
  ],
} as const satisfies ListResource;

export const PERSONAL_RED_PACK_STATES = ['received', 'pending', 'refunded'] as const;

export const PERSONAL_RED_ENVELOPES = {
  kind: 'list',
  id: 'personalRedEnvelopes',
  path: PERMISSIONS.userRedPack,
  permission: PERMISSIONS.userRedPack,
  keywordFields: ['senderAccount', 'receiverAccount'],
  defaultSort: '-createTime',
  totals: ['amount'],
  fields: [
    { key: 'id', kind: 'number', readOnly: true, column: true },
    { key: 'senderAccount', kind: 'text', readOnly: true, column: true },
    { key: 'receiverAccount', kind: 'text', readOnly: true, column: true },
    { key: 'amount', kind: 'money', readOnly: true, column: true, sortable: true },
    { key: 'greeting', kind: 'text', readOnly: true, column: true },
    { key: 'state', kind: 'select', options: PERSONAL_RED_PACK_STATES, readOnly: true, column: true, filter: true },
    { key: 'createTime', kind: 'datetime', readOnly: true, column: true, sortable: true, filter: true },
    { key: 'receiveTime', kind: 'datetime', readOnly: true, column: true },
  ],
} as const satisfies ListResource;

export const GROUP_RED_PACK_STATES = ['finished', 'ongoing', 'refunded'] as const;

export const GROUP_RED_ENVELOPES = {
  kind: 'list',
  id: 'groupRedEnvelopes',
  path: PERMISSIONS.groupRedPack,
  permission: PERMISSIONS.groupRedPack,
  keywordFields: ['senderAccount', 'groupName'],
  defaultSort: '-createTime',
  totals: ['amount'],
  fields: [
    { key: 'id', kind: 'number', readOnly: true, column: true },
    { key: 'senderAccount', kind: 'text', readOnly: true, column: true },
    { key: 'groupName', kind: 'text', readOnly: true, column: true },
    { key: 'amount', kind: 'money', readOnly: true, column: true, sortable: true },
    { key: 'count', kind: 'number', readOnly: true, column: true },
    { key: 'receivedCount', kind: 'number', readOnly: true, column: true },
    { key: 'state', kind: 'select', options: GROUP_RED_PACK_STATES, readOnly: true, column: true, filter: true },
    { key: 'createTime', kind: 'datetime', readOnly: true, column: true, sortable: true, filter: true },
  ],
} as const satisfies ListResource;

export const BILL_TYPES = ['recharge', 'withdraw', 'redPackSend', 'redPackReceive', 'refund', 'signIn', 'transfer', 'adjust'] as const;

export const BILLING_RECORDS = {
  kind: 'list',
  id: 'billingRecords',
  path: PERMISSIONS.billRecord,
  permission: PERMISSIONS.billRecord,
  keywordFields: ['userAccount', 'remark'],
  defaultSort: '-createTime',
  totals: ['amount'],
  fields: [
    { key: 'id', kind: 'number', readOnly: true, column: true },
    { key: 'userAccount', kind: 'text', readOnly: true, column: true },
    { key: 'type', kind: 'select', options: BILL_TYPES, readOnly: true, column: true, filter: true },
    // Signed: money out of the wallet is negative.
    { key: 'amount', kind: 'money', readOnly: true, column: true, sortable: true },
    { key: 'balanceAfter', kind: 'money', readOnly: true, column: true },
    { key: 'remark', kind: 'text', readOnly: true, column: true },
    { key: 'createTime', kind: 'datetime', readOnly: true, column: true, sortable: true, filter: true },
  ],
} as const satisfies ListResource;
