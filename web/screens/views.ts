import { computed, type ReadonlySignal } from '@preact/signals-react';
import type { ActionDef, Permission } from '#contract';
import { PERMISSIONS } from '#contract/permissions';
import { withdrawalCount, withdrawalCountKnown } from '../api/withdrawals.js';
import { activityPath } from '../api/audit.js';
import type { ResultRenderer } from '../engine/operation/result-view.js';
import type { DetailRenderer, RecordHistoryView, RowAnnotation } from '../engine/shared/types.js';
import type { RowLink } from '../engine/actions/row-commands.js';
import { reviewedBy } from './reviewers.js';
import { AuditHistory } from '../engine/record/record-history.js';
import type { ActionContextRenderer } from '../engine/shared/types.js';
import type { ActionTarget } from '../engine/actions/use-action-runner.js';
import { AuthenticatorResult } from './authenticator-result.js';
import { CodesResult, SecretResult, SensitiveHits } from './results.js';
import { GroupDetailView, UserDetailView } from './user-detail.js';
import { WithdrawalContext } from './withdrawal-context.js';

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
  if (action.name === 'approve' || action.name === 'reject')
    withdrawalCount.value = Math.max(0, withdrawalCount.value - 1);
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
 * The history section of every record's page: the record's audit trail kept by the gateway (bans
 * with their author and reason, edits with their values before and after).
 */
export const RECORD_HISTORY: RecordHistoryView = AuditHistory;
/** What a reviewer is shown beside the records before a money action. */
export const ACTION_CONTEXTS = {
  withdrawal: WithdrawalContext,
} satisfies Record<string, ActionContextRenderer>;

/** Counts of records arriving from elsewhere that a list offers to show when they rise. */
export const WATCHED_COUNTS = {
  withdrawalCount: computed(() => (withdrawalCountKnown.value ? withdrawalCount.value : null)),
} satisfies Record<string, ReadonlySignal<number | null>>;

/**
 * Columns a resource's list fills from elsewhere than its backend call, by resource id: what they
 * tell belongs to the resource wherever its list is shown (and the route table, loaded with the
 * login page, stays as it is).
 */
export const ROW_ANNOTATIONS: Readonly<Record<string, RowAnnotation>> = {
  withdrawalReview: reviewedBy,
};

/** Commands that open another screen about a resource's rows, and the permission that screen needs, by resource id. */
export const ROW_LINKS: Readonly<Record<string, readonly { permission: Permission; link: RowLink }[]>> = {
  admins: [
    {
      permission: PERMISSIONS.record,
      link: {
        key: 'activity',
        label: (t) => t('link.activity'),
        href: (row) => activityPath(String(row.account ?? '')),
      },
    },
  ],
};
