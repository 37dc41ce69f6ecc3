import { APP_INTERFACE, APP_VERSIONS, PUSH_CONFIG, SMS_CONFIG } from '../../server/contract/index.js';
import { listScreen, settingsScreen, type ScreenDecl } from '../engine/types.js';

/** Menu groups /interface, /push, /shortmessage and /versionupdate. */
export const APP_SETTINGS_SCREENS: Record<string, ScreenDecl> = {
  '/interface/interface': settingsScreen(APP_INTERFACE),
  '/push/pushconfig': settingsScreen(PUSH_CONFIG),
  '/shortmessage/message': settingsScreen(SMS_CONFIG),
  '/versionupdate/appupdate': listScreen(APP_VERSIONS),
};
