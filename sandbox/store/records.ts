import type {
  ANNOUNCEMENTS,
  APP_VERSIONS,
  DEFAULT_AVATARS,
  DEFAULT_EMOJI,
  DEFAULT_FRIENDS,
  DEFAULT_GROUPS,
  DISCOVER_ENTRIES,
  DISTRIBUTION_ADDRESSES,
  FREQUENCY_LIMITS,
  GROUP_RED_ENVELOPES,
  INVITE_CODES,
  IP_BLACKLIST,
  LOGIN_RECORDS,
  MASS_MESSAGES,
  ONLINE_USERS,
  OPERATION_LOG,
  PERSONAL_RED_ENVELOPES,
  PRIVILEGED_USERS,
  RECHARGE_CHANNELS,
  SECURITY_QUESTIONS,
  SENSITIVE_WORDS,
  SUGGESTIONS,
} from '../../server/contract/index.js';
import type { RecordOf } from './record-of.js';

/**
 * Records of the management tables added beside users, groups and money, in their wire shape:
 * each the fields of its resource in server/contract/resources/, read off the declaration, plus
 * what the rows keep that the screens never show (the user a row belongs to, for links and joins).
 * Times are ISO text in UTC.
 */

export type OperationLogRecord = RecordOf<typeof OPERATION_LOG>;
export type DefaultFriendRecord = RecordOf<typeof DEFAULT_FRIENDS, { userId: number }>;
export type DefaultGroupRecord = RecordOf<typeof DEFAULT_GROUPS>;
export type DefaultAvatarRecord = RecordOf<typeof DEFAULT_AVATARS>;
export type DefaultEmojiRecord = RecordOf<typeof DEFAULT_EMOJI>;
export type SecurityQuestionRecord = RecordOf<typeof SECURITY_QUESTIONS>;
export type DiscoverRecord = RecordOf<typeof DISCOVER_ENTRIES>;
export type AnnouncementRecord = RecordOf<typeof ANNOUNCEMENTS>;
export type InviteCodeRecord = RecordOf<typeof INVITE_CODES>;
export type SensitiveWordRecord = RecordOf<typeof SENSITIVE_WORDS>;
export type PrivilegedUserRecord = RecordOf<typeof PRIVILEGED_USERS, { userId: number }>;
export type IpBlacklistRecord = RecordOf<typeof IP_BLACKLIST>;
export type FrequencyLimitRecord = RecordOf<typeof FREQUENCY_LIMITS>;
/** One live connection of a chat user; the id is the user's. */
export type OnlineSessionRecord = RecordOf<typeof ONLINE_USERS>;
export type LoginRecord = RecordOf<typeof LOGIN_RECORDS, { userId: number }>;
export type MassMessageRecord = RecordOf<typeof MASS_MESSAGES, { sentBy: string }>;
export type DistributionAddressRecord = RecordOf<typeof DISTRIBUTION_ADDRESSES>;
export type SuggestionRecord = RecordOf<typeof SUGGESTIONS, { userId: number; handledBy: string | null }>;
export type RechargeChannelRecord = RecordOf<typeof RECHARGE_CHANNELS>;
/** Read-only on the screen, yet null until the envelope is received. */
export type PersonalRedEnvelopeRecord = RecordOf<
  typeof PERSONAL_RED_ENVELOPES,
  { senderId: number; receiveTime: string | null }
>;
export type GroupRedEnvelopeRecord = RecordOf<typeof GROUP_RED_ENVELOPES, { senderId: number; groupId: number }>;
/** packageSize: bytes of the installer; null where the store hosts it (iOS) or nobody entered it. */
export type AppVersionRecord = RecordOf<typeof APP_VERSIONS>;

export interface GroupMember {
  userId: number;
  role: 'owner' | 'admin' | 'member';
  joinTime: string;
  muted: boolean;
}
