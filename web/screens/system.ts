import { ADMINS, GOOGLE_VERIFY, OPERATION_LOG } from '../../server/contract/index.js';
import { listScreen, type ScreenDecl } from '../engine/types.js';
import { SecretResult } from './results.js';

/** Menu group /system. */
export const SYSTEM_SCREENS: Record<string, ScreenDecl> = {
  '/system/admins': listScreen(ADMINS),
  '/system/record': listScreen(OPERATION_LOG),
  '/system/googleverify': listScreen(GOOGLE_VERIFY, { results: { bind: SecretResult, reset: SecretResult } }),
};
