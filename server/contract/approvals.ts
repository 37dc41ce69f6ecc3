/**
 * Two-person approval, as the gateway and the UI share it. With dual control on, the gateway holds
 * some calls instead of sending them (a withdrawal approval above DUAL_CONTROL_ABOVE, a save of a
 * settings screen DUAL_CONTROL_SETTINGS names) and answers `HeldAnswer`; a second administrator
 * confirms the hold (the gateway then sends the call under the confirmer's own session) or
 * declines it with a reason.
 */
import { Type, type Static } from '@sinclair/typebox';

export const APPROVALS_PATH = '/api/approvals';

export const APPROVAL_CALLS = {
  list: APPROVALS_PATH,
  confirm: (id: string) => `${APPROVALS_PATH}/${encodeURIComponent(id)}/confirm`,
  decline: (id: string) => `${APPROVALS_PATH}/${encodeURIComponent(id)}/decline`,
} as const;

/** The `data` of a held call's answer (code 200): nothing reached the backend yet. */
export const HeldAnswerSchema = Type.Object({
  held: Type.Literal(true),
  approvalId: Type.String(),
  /** ISO 8601: after this the hold can no longer be confirmed. */
  expiresAt: Type.String(),
});
export type HeldAnswer = Static<typeof HeldAnswerSchema>;

export function isHeldAnswer(data: unknown): data is HeldAnswer {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as Partial<HeldAnswer>).held === true &&
    typeof (data as Partial<HeldAnswer>).approvalId === 'string'
  );
}

/** One field of a held settings save: the value read when it was held, and the one the save sends. */
export const ApprovalChangeSchema = Type.Object({
  key: Type.String(),
  before: Type.Unknown(),
  after: Type.Unknown(),
  /** A password field: its values are never shown, only whether it changes. */
  secret: Type.Boolean(),
});
export type ApprovalChange = Static<typeof ApprovalChangeSchema>;

/**
 * What every outside view of a hold tells (the screen's list, an approval event), never the held
 * body: the gateway's stored hold, its events and the list all extend this one shape.
 */
export const ApprovalHeldSchema = Type.Object({
  id: Type.String(),
  /** `action`: a named action on records (a withdrawal approval); `settings`: a settings save. */
  kind: Type.Unsafe<'action' | 'settings'>({ type: 'string', enum: ['action', 'settings'] }),
  /** The contract's resource id (withdrawalReview, withdrawalConfig...). */
  resource: Type.String(),
  /** The held action's name; null for a settings save. */
  action: Type.Union([Type.String(), Type.Null()]),
  /** Who may confirm or decline: holders of this permission (the screen's). */
  permission: Type.String(),
  /** Ids of the records an action is about. */
  targets: Type.Array(Type.String()),
  /** Those records as the backend answered when the call was held (amount, fee, payee...). */
  records: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  /** A settings save's changed fields. */
  changes: Type.Array(ApprovalChangeSchema),
});
export type ApprovalHeld = Static<typeof ApprovalHeldSchema>;

/** A hold as GET /api/approvals lists it to an administrator who may confirm or decline it. */
export const ApprovalViewSchema = Type.Composite([
  ApprovalHeldSchema,
  Type.Object({
    /** The first approver: the backend user id of the session that made the call. */
    requestedBy: Type.String(),
    /**
     * The account the first approver logged in with, so the second reads "requested by admin", not
     * an id; null for a hold kept from before the gateway recorded it.
     */
    requestedByName: Type.Union([Type.String(), Type.Null()]),
    /** True when the caller is the first approver (who cannot confirm it). */
    mine: Type.Boolean(),
    requestedAt: Type.String(),
    expiresAt: Type.String(),
    expired: Type.Boolean(),
    /** `confirming`: a second approver's call to the backend is under way. */
    state: Type.Unsafe<'pending' | 'confirming'>({ type: 'string', enum: ['pending', 'confirming'] }),
  }),
]);
export type ApprovalView = Static<typeof ApprovalViewSchema>;

export const ApprovalListSchema = Type.Object({
  list: Type.Array(ApprovalViewSchema),
  /**
   * DUAL_CONTROL_ABOVE (smallest unit): an approval of a pending withdrawal above it is held, so
   * the approve dialog can say so before the click; null when no withdrawal approval is held.
   */
  dualControlAbove: Type.Union([Type.Integer(), Type.Null()]),
});
export type ApprovalList = Static<typeof ApprovalListSchema>;

/** The one named action dual control holds above DUAL_CONTROL_ABOVE: the withdrawal approval. */
export const HELD_APPROVAL = { resource: 'withdrawalReview', action: 'approve' } as const;

export const APPROVAL_LIMITS = {
  reasonMaxChars: 200,
} as const;

/** The hold a confirmation or a decline names: POST /api/approvals/{id}/confirm|decline. */
export const ApprovalIdParamsSchema = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9-]+$' }),
});

/** Body of POST /api/approvals/{id}/decline: a reason with something to read in it. */
export const DeclineBodySchema = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: APPROVAL_LIMITS.reasonMaxChars, pattern: '\\S' }) },
  { additionalProperties: false },
);
export type DeclineBody = Static<typeof DeclineBodySchema>;

/** The gateway's `error` names a client of the approvals reacts to. */
export const APPROVAL_ERRORS = {
  sameApprover: 'SAME_APPROVER',
  expired: 'APPROVAL_EXPIRED',
  notFound: 'APPROVAL_NOT_FOUND',
  conflict: 'APPROVAL_CONFLICT',
  unavailable: 'APPROVALS_UNAVAILABLE',
} as const;
