import type { ScreenDecl } from '../engine/types.js';
import { APP_SETTINGS_SCREENS } from './app-settings.js';
import { FINANCE_SCREENS } from './finance.js';
import { OPERATION_SCREENS } from './operation.js';
import { SITE_CONFIG_SCREENS } from './site-config.js';
import { SYSTEM_SCREENS } from './system.js';
import { USER_SCREENS } from './users.js';

export type { ScreenDecl };

/** Every engine screen by route path; the route table points these paths at ScreenPage. */
export const SCREENS: Readonly<Record<string, ScreenDecl>> = {
  ...SYSTEM_SCREENS,
  ...USER_SCREENS,
  ...SITE_CONFIG_SCREENS,
  ...OPERATION_SCREENS,
  ...FINANCE_SCREENS,
  ...APP_SETTINGS_SCREENS,
};
