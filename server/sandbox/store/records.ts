import type {
  APP_PLATFORMS,
  DEVICES,
  EMOJI_CATEGORIES,
  GROUP_RED_PACK_STATES,
  INVITE_CODE_STATUSES,
  LANGUAGES,
  LIMIT_SCOPES,
  LIMITED_ACTIONS,
  LOGIN_RESULTS,
  MASS_MESSAGE_STATES,
  OPERATION_ACTIONS,
  PERSONAL_RED_PACK_STATES,
  PLATFORMS,
  PRIVILEGES,
  RECHARGE_METHODS,
  SEGMENTS,
  SENSITIVE_WORD_CATEGORIES,
  SUGGESTION_STATES,
  SUGGESTION_TYPES,
} from '../../contract/index.js';

/**
 * Records of the management tables added beside users, groups and money, in their wire shape
 * (the fields of the matching resource in server/contract/resources/). Times are ISO text in UTC.
 */

export interface OperationLogRecord {
  id: number;
  adminAccount: string;
  action: (typeof OPERATION_ACTIONS)[number];
  module: string;
  detail: string;
  ip: string;
  createTime: string;
}

export interface DefaultFriendRecord {
  id: number;
  userId: number;
  userAccount: string;
  nickname: string;
  welcomeMessage: string;
  sort: number;
  createTime: string;
}

export interface DefaultGroupRecord {
  id: number;
  groupId: number;
  groupName: string;
  sort: number;
  createTime: string;
}

export interface DefaultAvatarRecord {
  id: number;
  image: string;
  name: string;
  sort: number;
  createTime: string;
}

export interface DefaultEmojiRecord {
  id: number;
  image: string;
  name: string;
  category: (typeof EMOJI_CATEGORIES)[number];
  sort: number;
  createTime: string;
}

export interface SecurityQuestionRecord {
  id: number;
  question: string;
  language: (typeof LANGUAGES)[number];
  enabled: boolean;
  sort: number;
}

export interface DiscoverRecord {
  id: number;
  icon: string;
  title: string;
  url: string;
  enabled: boolean;
  sort: number;
}

export interface AnnouncementRecord {
  id: number;
  title: string;
  content: string;
  published: boolean;
  pinned: boolean;
  publishTime: string | null;
  createTime: string;
}

export interface InviteCodeRecord {
  id: number;
  code: string;
  status: (typeof INVITE_CODE_STATUSES)[number];
  usedCount: number;
  maxUses: number;
  usedBy: string;
  expireTime: string | null;
  createTime: string;
}

export interface SensitiveWordRecord {
  id: number;
  word: string;
  category: (typeof SENSITIVE_WORD_CATEGORIES)[number];
  createTime: string;
}

export interface PrivilegedUserRecord {
  id: number;
  userId: number;
  userAccount: string;
  nickname: string;
  privileges: (typeof PRIVILEGES)[number][];
  remark: string;
  createTime: string;
}

export interface IpBlacklistRecord {
  id: number;
  ip: string;
  reason: string;
  expireTime: string | null;
  createdBy: string;
  createTime: string;
}

export interface FrequencyLimitRecord {
  id: number;
  action: (typeof LIMITED_ACTIONS)[number];
  scope: (typeof LIMIT_SCOPES)[number];
  maxCount: number;
  windowSeconds: number;
  enabled: boolean;
}

/** One live connection of a chat user; the id is the user's. */
export interface OnlineSessionRecord {
  id: number;
  account: string;
  nickname: string;
  device: (typeof DEVICES)[number];
  ip: string;
  region: string;
  loginTime: string;
}

export interface LoginRecord {
  id: number;
  userId: number;
  account: string;
  ip: string;
  region: string;
  device: (typeof DEVICES)[number];
  result: (typeof LOGIN_RESULTS)[number];
  time: string;
}

export interface MassMessageRecord {
  id: number;
  title: string;
  content: string;
  segment: (typeof SEGMENTS)[number];
  state: (typeof MASS_MESSAGE_STATES)[number];
  targetCount: number;
  deliveredCount: number;
  createTime: string;
  sentBy: string;
}

export interface DistributionAddressRecord {
  id: number;
  name: string;
  url: string;
  platform: (typeof PLATFORMS)[number];
  enabled: boolean;
  sort: number;
}

export interface SuggestionRecord {
  id: number;
  userId: number;
  userAccount: string;
  type: (typeof SUGGESTION_TYPES)[number];
  content: string;
  state: (typeof SUGGESTION_STATES)[number];
  reply: string;
  handledBy: string | null;
  createTime: string;
}

export interface RechargeChannelRecord {
  id: number;
  name: string;
  method: (typeof RECHARGE_METHODS)[number];
  minAmount: number;
  maxAmount: number;
  feePercent: number;
  gatewayUrl: string;
  enabled: boolean;
  sort: number;
}

export interface PersonalRedEnvelopeRecord {
  id: number;
  senderId: number;
  senderAccount: string;
  receiverAccount: string;
  amount: number;
  greeting: string;
  state: (typeof PERSONAL_RED_PACK_STATES)[number];
  createTime: string;
  receiveTime: string | null;
}

export interface GroupRedEnvelopeRecord {
  id: number;
  senderId: number;
  senderAccount: string;
  groupId: number;
  groupName: string;
  amount: number;
  count: number;
  receivedCount: number;
  state: (typeof GROUP_RED_PACK_STATES)[number];
  createTime: string;
}

export interface AppVersionRecord {
  id: number;
  platform: (typeof APP_PLATFORMS)[number];
  version: string;
  buildNumber: number;
  downloadUrl: string;
  mirrorUrl: string;
  /** Bytes of the installer; null where the store hosts it (iOS) or nobody entered it. */
  packageSize: number | null;
  forceUpdate: boolean;
  releaseNotes: string;
  publishTime: string;
}

export interface GroupMember {
  userId: number;
  role: 'owner' | 'admin' | 'member';
  joinTime: string;
  muted: boolean;
}
