import type { ListResource, Resource } from '../resource.js';
import { ADMINS, GOOGLE_VERIFY, OPERATION_LOG } from './system.js';
import { GROUPS, USERS } from './users.js';
import {
  ANNOUNCEMENTS,
  DEFAULT_AVATARS,
  DEFAULT_EMOJI,
  DEFAULT_FRIENDS,
  DEFAULT_GROUPS,
  DISCOVER_ENTRIES,
  INVITE_CODES,
  PRIVILEGED_USERS,
  SECURITY_QUESTIONS,
  SENSITIVE_WORDS,
  SITE_FUNCTIONS,
  TERMS_OF_USE,
} from './site-config.js';
import {
  CHANNEL_STATISTICS,
  DAILY_STATISTICS,
  DATA_CLEAN,
  DISTRIBUTION_ADDRESSES,
  FREQUENCY_LIMITS,
  IP_BLACKLIST,
  LOGIN_RECORDS,
  MASS_MESSAGES,
  ONLINE_USERS,
  SUGGESTIONS,
} from './operation.js';
import {
  BILLING_RECORDS,
  GROUP_RED_ENVELOPES,
  PERSONAL_RED_ENVELOPES,
  RECHARGE_CHANNELS,
  SIGN_IN_CONFIG,
  WITHDRAWAL_CONFIG,
  WITHDRAWAL_REVIEW,
} from './finance.js';
import { APP_INTERFACE, APP_VERSIONS, PUSH_CONFIG, SMS_CONFIG } from './app-settings.js';

export * from './system.js';
export * from './users.js';
export * from './site-config.js';
export * from './operation.js';
export * from './finance.js';
export * from './app-settings.js';

/** Every management resource; the sandbox serves each, and a parity test checks the UI's screens against them. */
export const RESOURCES: readonly Resource[] = [
  ADMINS,
  OPERATION_LOG,
  GOOGLE_VERIFY,
  USERS,
  GROUPS,
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
  RECHARGE_CHANNELS,
  SIGN_IN_CONFIG,
  WITHDRAWAL_CONFIG,
  WITHDRAWAL_REVIEW,
  PERSONAL_RED_ENVELOPES,
  GROUP_RED_ENVELOPES,
  BILLING_RECORDS,
  APP_INTERFACE,
  PUSH_CONFIG,
  SMS_CONFIG,
  APP_VERSIONS,
];

/** The list resources by id: what a list screen, the header search and the menu's early call look up. */
export const LIST_RESOURCES: ReadonlyMap<string, ListResource> = new Map(
  RESOURCES.filter((r): r is ListResource => r.kind === 'list').map((r) => [r.id, r]),
);
