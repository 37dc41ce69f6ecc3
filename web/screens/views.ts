import { computed, type ReadonlySignal } from '@preact/signals-react';
import type { ActionDef } from '#contract';
import { withdrawalCount, withdrawalCountKnown } from '../api/withdrawals.js';
import type { ResultRenderer } from '../engine/result-view.js';
import type { ActionContextRenderer, DetailRenderer } from '../engine/types.js';
import type { ActionTarget } from '../engine/use-action-runner.js';
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
  if (action.name === 'approve' || action.name === 'reject') withdrawalCount.value = Math.max(0, withdrawalCount.value - 1);
}

export const AFTER_ACTIONS = {
  withdrawalReviewed,
} satisfies Record<string, (action: ActionDef, target: ActionTarget) => void>;

/** What a reviewer is shown beside the records before a money action. */
export const ACTION_CONTEXTS = {
  withdrawal: WithdrawalContext,
} satisfies Record<string, ActionContextRenderer>;

/** Counts of records arriving from elsewhere that a list offers to show when they rise. */
export const WATCHED_COUNTS = {
  withdrawalCount: computed(() => (withdrawalCountKnown.value ? withdrawalCount.value : null)),
} satisfies Record<string, ReadonlySignal<number | null>>;
