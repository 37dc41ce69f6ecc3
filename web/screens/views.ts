import { computed, type ReadonlySignal } from '@preact/signals-react';
import type { ActionDef } from '#contract';
import { withdrawalCount, withdrawalCountKnown } from '../api/withdrawals.js';
import type { ResultRenderer } from '../engine/result-view.js';
import type { DetailRenderer, RecordHistoryView } from '../engine/types.js';
import type { ActionTarget } from '../engine/use-action-runner.js';
import { AuthenticatorResult } from './authenticator-result.js';
import { CodesResult, SecretResult, SensitiveHits } from './results.js';
import { GroupDetailView, UserDetailView } from './user-detail.js';

/** The views screen declarations name, loaded with the screens rather than with the route table. */

export const DETAIL_VIEWS = {
  user: UserDetailView,
  group: GroupDetailView,
} satisfies Record<string, DetailRenderer>;

export const RESULT_VIEWS = {
  secret: SecretResult,
  authenticator: AuthenticatorResult,
  codes: CodesResult,
  sensitiveHits: SensitiveHits,
} satisfies Record<string, ResultRenderer>;

/** A reviewed application leaves the queue now; the badge follows at once, the event stream confirms. */
function withdrawalReviewed(action: ActionDef): void {
  if (action.name === 'approve' || action.name === 'reject') withdrawalCount.value = Math.max(0, withdrawalCount.value - 1);
}

export const AFTER_ACTIONS = {
  withdrawalReviewed,
} satisfies Record<string, (action: ActionDef, target: ActionTarget) => void>;

/**
 * Lists a record's page shows, by resource id, each filtered by the record's fields:
 * `withdrawalReview: {userAccount: 'account'}` lists the withdrawals whose `userAccount` filter is
 * the record's `account`. Each shows only to administrators who may open that list.
 */
export const RELATED_LISTS = {
  /** A user's withdrawals, bills and logins. */
  user: {
    withdrawalReview: { userAccount: 'account' },
    billingRecords: { userAccount: 'account' },
    loginRecords: { account: 'account' },
  },
  /** Beside a withdrawal application, the applicant's other applications and bills. */
  applicant: {
    withdrawalReview: { userAccount: 'userAccount' },
    billingRecords: { userAccount: 'userAccount' },
  },
} satisfies Record<string, Readonly<Record<string, Readonly<Record<string, string>>>>>;

/**
 * The history section of every record's page: the component that reads a record's audit trail and
 * shows it (given the resource and the record's id). The console has no audit trail to read yet,
 * so there is none and record pages draw no history section; set it here once there is one.
 */
export const RECORD_HISTORY: RecordHistoryView | undefined = undefined;

/** Counts of records arriving from elsewhere that a list offers to show when they rise. */
export const WATCHED_COUNTS = {
  withdrawalCount: computed(() => (withdrawalCountKnown.value ? withdrawalCount.value : null)),
} satisfies Record<string, ReadonlySignal<number | null>>;
