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
} from '../../server/contract/index.js';
import { listScreen, operationScreen, statisticsScreen, type ScreenDecl } from '../engine/types.js';

/** Menu group /operation. */
export const OPERATION_SCREENS: Record<string, ScreenDecl> = {
  '/operation/statistics': statisticsScreen(DAILY_STATISTICS),
  '/operation/channel_statistics': statisticsScreen(CHANNEL_STATISTICS),
  '/BlackList': listScreen(IP_BLACKLIST),
  '/dataclean': operationScreen(DATA_CLEAN),
  '/frequency': listScreen(FREQUENCY_LIMITS),
  '/onlineuser': listScreen(ONLINE_USERS),
  '/loginuser': listScreen(LOGIN_RECORDS),
  '/masshelper': listScreen(MASS_MESSAGES),
  '/distribution': listScreen(DISTRIBUTION_ADDRESSES),
  '/suggestion': listScreen(SUGGESTIONS),
};
