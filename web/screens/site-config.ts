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
} from '../../server/contract/index.js';
import { listScreen, settingsScreen, type ScreenDecl } from '../engine/types.js';
import { CodesResult, SensitiveHits } from './results.js';

/** Menu group /siteconfig. */
export const SITE_CONFIG_SCREENS: Record<string, ScreenDecl> = {
  '/siteconfig/function': settingsScreen(SITE_FUNCTIONS),
  '/defaultfriend': listScreen(DEFAULT_FRIENDS),
  '/defaultgroup': listScreen(DEFAULT_GROUPS),
  '/defaultavatar': listScreen(DEFAULT_AVATARS),
  '/defaultemoji': listScreen(DEFAULT_EMOJI),
  '/securityconfig': listScreen(SECURITY_QUESTIONS),
  '/homelist': listScreen(DISCOVER_ENTRIES),
  '/siteannouncement': listScreen(ANNOUNCEMENTS),
  '/invitationcode': listScreen(INVITE_CODES, { results: { generate: CodesResult } }),
  '/sensitivewords': listScreen(SENSITIVE_WORDS, { results: { test: SensitiveHits } }),
  '/privilegeduser': listScreen(PRIVILEGED_USERS),
  '/useprotocol': settingsScreen(TERMS_OF_USE),
};
