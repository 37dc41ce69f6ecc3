import {
  BILLING_RECORDS,
  GROUP_RED_ENVELOPES,
  PERSONAL_RED_ENVELOPES,
  RECHARGE_CHANNELS,
  SIGN_IN_CONFIG,
  WITHDRAWAL_CONFIG,
  WITHDRAWAL_REVIEW,
} from '../../server/contract/index.js';
import { listScreen, settingsScreen, type ScreenDecl } from '../engine/types.js';
import { withdrawalCount } from '../app/layout/withdrawals.js';

/** A reviewed application leaves the queue now; the badge follows at once, the event stream confirms. */
function reviewed(action: { name: string }): void {
  if (action.name === 'approve' || action.name === 'reject') withdrawalCount.value = Math.max(0, withdrawalCount.value - 1);
}

/** Menu group /finance. */
export const FINANCE_SCREENS: Record<string, ScreenDecl> = {
  '/finance/OnlineRecharge': listScreen(RECHARGE_CHANNELS),
  '/SignInConfig': settingsScreen(SIGN_IN_CONFIG),
  '/WithdrawMoneyConfig': settingsScreen(WITHDRAWAL_CONFIG),
  '/WithDrawMoneyCheck': listScreen(WITHDRAWAL_REVIEW, { afterAction: reviewed }),
  '/PersonalRedEnvelope': listScreen(PERSONAL_RED_ENVELOPES),
  '/GroupRedEnvelope': listScreen(GROUP_RED_ENVELOPES),
  '/BillingRecords': listScreen(BILLING_RECORDS),
};
