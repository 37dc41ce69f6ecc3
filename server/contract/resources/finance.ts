import { PERMISSIONS } from '../permissions.js';
import type { ListResource, Resource, SettingsResource } from '../resource.js';
import { ascending } from '../field-rules.js';
import { EDITABLE, ENABLED, ID, SORT_ORDER, at, shown } from './common-fields.js';

export const RECHARGE_METHODS = ['alipay', 'wechat', 'bankCard', 'usdt', 'applePay'] as const;

export const RECHARGE_CHANNELS = {
  kind: 'list',
  id: 'rechargeChannels',
  ...at(PERMISSIONS.userBalance),
  keywordFields: ['name'],
  defaultSort: 'sort',
  recordFields: ['name', 'method'],
  ...EDITABLE,
  fields: [
    ID,
    { key: 'name', kind: 'text', required: true, maxLength: 40, column: true },
    { key: 'method', kind: 'select', options: RECHARGE_METHODS, required: true, column: true, filter: true },
    { key: 'minAmount', kind: 'money', required: true, min: 1, column: true },
    { key: 'maxAmount', kind: 'money', required: true, min: 1, column: true },
    { key: 'feePercent', kind: 'number', required: true, min: 0, max: 100, decimals: 2, column: true },
    { key: 'gatewayUrl', kind: 'link' },
    ENABLED,
    SORT_ORDER,
  ],
  rules: ascending('minAmount', 'maxAmount'),
} as const satisfies ListResource;

export const SIGN_IN_CONFIG = {
  kind: 'settings',
  id: 'signInConfig',
  ...at(PERMISSIONS.signInConfig),
  fields: [
    { key: 'enabled', kind: 'switch' },
    { key: 'dailyReward', kind: 'money', required: true, min: 0, max: 1000000 },
    { key: 'streakDays', kind: 'number', required: true, min: 2, max: 365 },
    { key: 'streakBonus', kind: 'money', required: true, min: 0, max: 1000000 },
    { key: 'monthlyCap', kind: 'money', required: true, min: 0, max: 100000000 },
    { key: 'rules', kind: 'longtext', maxLength: 5000 },
  ],
  // The month's cap holds a day's reward and a streak's bonus, or a single sign-in would pass it.
  rules: [...ascending('dailyReward', 'monthlyCap'), ...ascending('streakBonus', 'monthlyCap')],
} as const satisfies SettingsResource;

export const WITHDRAWAL_CONFIG = {
  kind: 'settings',
  id: 'withdrawalConfig',
  ...at(PERMISSIONS.cashWithdrawalConfig),
  fields: [
    { key: 'enabled', kind: 'switch' },
    { key: 'minAmount', kind: 'money', required: true, min: 1 },
    { key: 'maxAmount', kind: 'money', required: true, min: 1 },
    { key: 'dailyLimit', kind: 'money', required: true, min: 1 },
    { key: 'dailyCount', kind: 'number', required: true, min: 1, max: 100 },
    { key: 'feePercent', kind: 'number', required: true, min: 0, max: 100, decimals: 2 },
    { key: 'minFee', kind: 'money', required: true, min: 0 },
    { key: 'notice', kind: 'longtext', maxLength: 2000 },
  ],
  // A minimum over the maximum, or a maximum over the day's limit, blocks every withdrawal; a
  // minimum fee over the minimum amount takes all of a small one.
  rules: [...ascending('minAmount', 'maxAmount', 'dailyLimit'), ...ascending('minFee', 'minAmount')],
} as const satisfies SettingsResource;

export const WITHDRAWAL_METHODS = ['alipay', 'bankCard', 'usdt'] as const;
export const WITHDRAWAL_STATES = ['pending', 'approved', 'rejected'] as const;

export const WITHDRAWAL_REVIEW = {
  kind: 'list',
  id: 'withdrawalReview',
  ...at(PERMISSIONS.cashWithdrawalCheck),
  // The id too: an administrator quoting an application's number finds it from the header search.
  keywordFields: ['id', 'userAccount', 'accountInfo'],
  defaultSort: '-createTime',
  totals: ['amount', 'fee'],
  recordFields: ['userAccount', 'amount', 'method', 'accountInfo'],
  payee: { field: 'accountInfo', account: 'payeeAccount' },
  fields: [
    ID,
    // A filter by the applicant's exact account: a user's page lists that user's applications, and a reviewer
    // asks it for the applicant's other applications.
    shown('userAccount', 'text', { filter: true }),
    shown('amount', 'money', { sortable: true }),
    shown('fee', 'money'),
    // What the user receives (amount minus fee), and what the amounts are in (CNY, USDT).
    { key: 'actualAmount', kind: 'money', readOnly: true },
    { key: 'currency', kind: 'text', readOnly: true },
    { key: 'method', kind: 'select', options: WITHDRAWAL_METHODS, readOnly: true, column: true, filter: true },
    shown('accountInfo', 'text'),
    // The bare account number or address the money goes to: filtering by it shows who else is paid there.
    { key: 'payeeAccount', kind: 'text', readOnly: true, filter: true },
    { key: 'state', kind: 'select', options: WITHDRAWAL_STATES, readOnly: true, column: true, filter: true },
    shown('reason', 'text'),
    shown('createTime', 'datetime', { sortable: true, filter: true }),
    shown('reviewTime', 'datetime'),
  ],
  actions: [
    { name: 'approve', target: 'row', money: true, perSelectedRow: true, when: { field: 'state', in: ['pending'] } },
    {
      name: 'reject',
      target: 'row',
      money: true,
      perSelectedRow: true,
      destructive: true,
      inputs: [{ key: 'reason', kind: 'text', required: true, maxLength: 200 }],
      when: { field: 'state', in: ['pending'] },
    },
    // Answers {synced}: pulls withdrawals the payment side has settled meanwhile.
    { name: 'syncCashWithdrawal', target: 'page', showsResult: true },
  ],
} as const satisfies ListResource;

export const PERSONAL_RED_PACK_STATES = ['received', 'pending', 'refunded'] as const;

export const PERSONAL_RED_ENVELOPES = {
  kind: 'list',
  id: 'personalRedEnvelopes',
  ...at(PERMISSIONS.userRedPack),
  keywordFields: ['senderAccount', 'receiverAccount'],
  defaultSort: '-createTime',
  recordFields: ['senderAccount', 'receiverAccount', 'amount'],
  totals: ['amount'],
  fields: [
    ID,
    shown('senderAccount', 'text'),
    shown('receiverAccount', 'text'),
    shown('amount', 'money', { sortable: true }),
    shown('greeting', 'text'),
    { key: 'state', kind: 'select', options: PERSONAL_RED_PACK_STATES, readOnly: true, column: true, filter: true },
    shown('createTime', 'datetime', { sortable: true, filter: true }),
    shown('receiveTime', 'datetime'),
  ],
} as const satisfies ListResource;

export const GROUP_RED_PACK_STATES = ['finished', 'ongoing', 'refunded'] as const;

export const GROUP_RED_ENVELOPES = {
  kind: 'list',
  id: 'groupRedEnvelopes',
  ...at(PERMISSIONS.groupRedPack),
  keywordFields: ['senderAccount', 'groupName'],
  defaultSort: '-createTime',
  recordFields: ['senderAccount', 'groupName', 'amount'],
  totals: ['amount'],
  fields: [
    ID,
    shown('senderAccount', 'text'),
    shown('groupName', 'text'),
    shown('amount', 'money', { sortable: true }),
    shown('count', 'number'),
    shown('receivedCount', 'number'),
    { key: 'state', kind: 'select', options: GROUP_RED_PACK_STATES, readOnly: true, column: true, filter: true },
    shown('createTime', 'datetime', { sortable: true, filter: true }),
  ],
} as const satisfies ListResource;

export const BILL_TYPES = [
  'recharge',
  'withdraw',
  'redPackSend',
  'redPackReceive',
  'refund',
  'signIn',
  'transfer',
  'adjust',
] as const;

export const BILLING_RECORDS = {
  kind: 'list',
  id: 'billingRecords',
  ...at(PERMISSIONS.billRecord),
  keywordFields: ['userAccount', 'remark'],
  defaultSort: '-createTime',
  recordFields: ['userAccount', 'type', 'amount'],
  totals: ['amount'],
  fields: [
    ID,
    // A filter by the exact account: a user's page lists that user's bills.
    shown('userAccount', 'text', { filter: true }),
    { key: 'type', kind: 'select', options: BILL_TYPES, readOnly: true, column: true, filter: true },
    // Signed: money out of the wallet is negative.
    shown('amount', 'money', { sortable: true }),
    shown('balanceAfter', 'money'),
    shown('remark', 'text'),
    shown('createTime', 'datetime', { sortable: true, filter: true }),
  ],
} as const satisfies ListResource;

/** This area's resources in menu order. RESOURCES joins the areas' lists, so a declaration is listed beside itself. */
export const FINANCE_RESOURCES: readonly Resource[] = [
  RECHARGE_CHANNELS,
  SIGN_IN_CONFIG,
  WITHDRAWAL_CONFIG,
  WITHDRAWAL_REVIEW,
  PERSONAL_RED_ENVELOPES,
  GROUP_RED_ENVELOPES,
  BILLING_RECORDS,
];
