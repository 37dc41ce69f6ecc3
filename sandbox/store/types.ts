import type {
  BILL_TYPES,
  GROUP_STATUSES,
  USER_CHANNELS,
  USER_STATUSES,
  WithdrawalRecord,
} from '../../server/contract/index.js';
import type { Locale } from './names.js';

/**
 * Records of the simulated chat backend, stored in their wire shape: the fields of the matching
 * resource in server/contract/resources/ (plus extra detail), money in the smallest unit, times
 * as ISO 8601 text in UTC (fixed width, so text order is time order).
 */

export type Device = 'android' | 'ios' | 'web' | 'pc';

/** USERS in resources/users.ts. */
export interface UserRecord {
  /** The chat product's public user number. */
  id: number;
  avatar: string;
  account: string;
  nickname: string;
  phone: string;
  status: (typeof USER_STATUSES)[number];
  channel: (typeof USER_CHANNELS)[number];
  privileged: boolean;
  balance: number;
  registerTime: string;
  lastLoginTime: string;
  lastLoginIp: string;
  realName: string;
  gender: 'male' | 'female' | 'unknown';
  region: string;
  locale: Locale;
  registerIp: string;
  device: Device;
  online: boolean;
  inviteCode: string;
  /** Set while banned. */
  banReason?: string;
  banTime?: string;
  /** The administrator's account who banned the user, while banned. */
  bannedBy?: string;
}

/** GROUPS in resources/users.ts. */
export interface GroupRecord {
  id: number;
  avatar: string;
  name: string;
  ownerId: number;
  ownerAccount: string;
  ownerNickname: string;
  memberCount: number;
  maxMembers: number;
  muted: boolean;
  status: (typeof GROUP_STATUSES)[number];
  notice: string;
  createTime: string;
}

export type BillType = (typeof BILL_TYPES)[number];

/** BILLING_RECORDS in resources/finance.ts. */
export interface BillRecord {
  id: number;
  orderNo: string;
  userId: number;
  userAccount: string;
  nickname: string;
  type: BillType;
  /** Signed: money out of the wallet is negative. */
  amount: number;
  balanceAfter: number;
  remark: string;
  createTime: string;
}

export type { WithdrawalRecord };
