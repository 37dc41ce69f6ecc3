import { GROUPS, USERS } from '../../server/contract/index.js';
import { listScreen, type ScreenDecl } from '../engine/types.js';
import { SecretResult } from './results.js';
import { GroupDetailView, UserDetailView } from './user-detail.js';

/** Menu group /userpage. */
export const USER_SCREENS: Record<string, ScreenDecl> = {
  '/userpage/userset': listScreen(USERS, { detail: UserDetailView, results: { resetPassword: SecretResult } }),
  '/groupset': listScreen(GROUPS, { detail: GroupDetailView }),
};
