/**
 * Two-person approval, as the gateway and the UI share it. With dual control on, the gateway holds
 * some calls instead of sending them (a withdrawal approval above DUAL_CONTROL_ABOVE, a save of a
 * settings screen DUAL_CONTROL_SETTINGS names) and answers `HeldAnswer`; a second administrator
 * confirms the hold (the gateway then sends the call under the confirmer's own session) or
 * declines it with a reason.
 */

export const APPROVALS_PATH = '/api/approvals';

export const APPROVAL_CALLS = {
  list: APPROVALS_PATH,
  confirm: (id: string) => `${APPROVALS_PATH}/${encodeURIComponent(id)}/confirm`,
  decline: (id: string) => `${APPROVALS_PATH}/${encodeURIComponent(id)}/decline`,
} as const;

/** The `data` of a held call's answer (code 200): nothing reached the backend yet. */
export interface HeldAnswer {
  held: true;
  approvalId: string;
  /** ISO 8601: after this the hold can no longer be confirmed. */
  expiresAt: string;
}

export function isHeldAnswer(data: unknown): data is HeldAnswer {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as Partial<HeldAnswer>).held === true &&
    typeof (data as Partial<HeldAnswer>).approvalId === 'string'
  );
}

/** One field of a held settings save: the value read when it was held, and the one the save sends. */
export interface ApprovalChange {
  key: string;
  before: unknown;
  after: unknown;
  /** A password field: its values are never shown, only whether it changes. */
  secret: boolean;
}

/** A hold as GET /api/approvals lists it to an administrator who may confirm or decline it. */
export interface ApprovalView {
  id: string;
  /** `action`: a named action on records (a withdrawal approval); `settings`: a settings save. */
  kind: 'action' | 'settings';
  /** The contract's resource id (withdrawalReview, withdrawalConfig...). */
  resource: string;
  /** The held action's name; null for a settings save. */
  action: string | null;
  /** Who may confirm or decline: holders of this permission (the screen's). */
  permission: string;
  /** Ids of the records an action is about. */
  targets: string[];
  /** Those records as the backend answered when the call was held (amount, fee, payee...). */
  records: Record<string, unknown>[];
  /** A settings save's changed fields. */
  changes: ApprovalChange[];
  /** The first approver: the backend user id of the session that made the call. */
  requestedBy: string;
  /**
   * The account the first approver logged in with, so the second reads "requested by admin", not
   * an id; null for a hold kept from before the gateway recorded it.
   */
  requestedByName: string | null;
  /** True when the caller is the first approver (who cannot confirm it). */
  mine: boolean;
  requestedAt: string;
  expiresAt: string;
  expired: boolean;
  /** `confirming`: a second approver's call to the backend is under way. */
  state: 'pending' | 'confirming';
}

export interface ApprovalList {
  list: ApprovalView[];
  /**
   * DUAL_CONTROL_ABOVE (smallest unit): an approval of a pending withdrawal above it is held, so
   * the approve dialog can say so before the click; null when no withdrawal approval is held.
   */
  dualControlAbove: number | null;
}

/** The one named action dual control holds above DUAL_CONTROL_ABOVE: the withdrawal approval. */
export const HELD_APPROVAL = { resource: 'withdrawalReview', action: 'approve' } as const;

/** Body of POST /api/approvals/{id}/decline. */
export interface DeclineBody {
  reason: string;
}

export const APPROVAL_LIMITS = {
  reasonMaxChars: 200,
} as const;

/** The gateway's `error` names a client of the approvals reacts to. */
export const APPROVAL_ERRORS = {
  sameApprover: 'SAME_APPROVER',
  expired: 'APPROVAL_EXPIRED',
  notFound: 'APPROVAL_NOT_FOUND',
  conflict: 'APPROVAL_CONFLICT',
  unavailable: 'APPROVALS_UNAVAILABLE',
} as const;
