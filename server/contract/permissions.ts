/** The backend's permission strings. A route is allowed when the user holds any of its list. */
export const PERMISSIONS = {
  deployment: '/manage/deployment',
  adminUser: '/manage/management/adminUser',
  record: '/manage/management/record',
  googleGenerator: '/manage/management/googleGenerator',
  userProfile: '/manage/user/userProfile',
  groupProfile: '/manage/user/groupProfile',
  stationSystem: '/manage/station/system',
  defaultFriend: '/manage/station/defaultFriend',
  defaultGroup: '/manage/station/defaultGroup',
  defaultAvatar: '/manage/station/defaultAvatar',
  defaultEmoticon: '/manage/station/defaultEmoticon',
  secretProtection: '/manage/station/secretProtection',
  discover: '/manage/station/discover',
  siteAnnouncement: '/manage/station/siteAnnouncement',
  inviteCode: '/manage/station/inviteCode',
  sensitiveWord: '/manage/station/sensitiveWord',
  privilegedUser: '/manage/station/privilegedUser',
  dailyStatistics: '/manage/operation/dailyStatistics',
  channelStatistics: '/manage/operation/channelStatistics',
  onlineStatistics: '/manage/operation/onlineStatistics',
  dataClean: '/manage/operation/dataClean',
  frequencyLimit: '/manage/operation/frequencyLimit',
  loginStatistics: '/manage/operation/loginStatistics',
  massMessage: '/manage/operation/massMessage',
  distributionAddress: '/manage/operation/distributionAddress',
  userBalance: '/manage/finance/userBalance',
  signInConfig: '/manage/finance/signInConfig',
  cashWithdrawalConfig: '/manage/finance/cashWithdrawalConfig',
  cashWithdrawalCheck: '/manage/finance/cashWithdrawalCheck',
  userRedPack: '/manage/finance/userRedPack',
  groupRedPack: '/manage/finance/groupRedPack',
  billRecord: '/manage/finance/billRecord',
  page: '/manage/page',
  push: '/manage/push',
  shortMessage: '/manage/shortMessage',
  version: '/manage/version',
} as const;

export type Permission = (typeof PERMISSIONS)[keyof typeof PERMISSIONS];

export const ALL_PERMISSIONS: readonly Permission[] = Object.values(PERMISSIONS);

/** The permission that sees the withdrawal badge and may open /api/events. */
export const WITHDRAWAL_REVIEW_PERMISSION: Permission = PERMISSIONS.cashWithdrawalCheck;

/** Allowed with no requirement, or when any held permission is in the route's list. */
export function isAllowed(required: readonly string[] | undefined, held: readonly string[]): boolean {
  if (!required || required.length === 0) return true;
  return held.some((p) => required.includes(p));
}
