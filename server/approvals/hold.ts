import type { ApprovalHeld, ApprovalView } from '../contract/approvals.js';

/** The call a hold keeps, in the console's contract (before any backend map's translation). */
export interface HeldCall {
  method: 'POST';
  path: string;
  /** The JSON body as the first approver sent it. */
  body: Record<string, unknown>;
}

/**
 * One held call, as the stores keep it: the contract's held fields (what views and events tell)
 * plus what only the gateway keeps. Times are epoch milliseconds. The body may hold a new password
 * of a settings screen: it leaves the gateway only to the backend, on confirmation.
 */
export interface Hold extends ApprovalHeld {
  /** What the hold is about; one pending hold per subject (see subjectOf). */
  subject: string;
  /** A settings save: the whole settings object read when holding, to see at confirmation whether it changed meanwhile. */
  before: Record<string, unknown> | null;
  call: HeldCall;
  /** Backend user id of the first approver. */
  requestedBy: string;
  /** The account they logged in with; absent on holds kept before the gateway recorded it. */
  requestedByName?: string | null;
  requestedAt: number;
  expiresAt: number;
}

/** A hold and whether a second approver's call is under way on it. */
export interface StoredHold {
  hold: Hold;
  /** Set while a confirmation or a decline runs (its claim token); null otherwise. */
  claim: string | null;
}

/** An expired hold stays listed (as expired, for someone to clear) this long before it is dropped. */
export const EXPIRED_KEPT_MS = 24 * 3_600_000;

/** When a hold is forgotten altogether. */
export function dropAt(hold: Hold): number {
  return hold.expiresAt + EXPIRED_KEPT_MS;
}

export function actionSubject(resource: string, action: string, targets: readonly string[]): string {
  return `action:${resource}:${action}:${[...targets].sort().join(',')}`;
}

export function settingsSubject(resource: string): string {
  return `settings:${resource}`;
}

/** What every outside view of a hold tells (the screen's, an event's): never the held body. */
export function heldFields(hold: Hold): ApprovalHeld {
  return {
    id: hold.id,
    kind: hold.kind,
    resource: hold.resource,
    action: hold.action,
    permission: hold.permission,
    targets: hold.targets,
    records: hold.records,
    changes: hold.changes,
  };
}

/** A hold's times as views tell them (ISO 8601); the stores keep epoch milliseconds. */
export function heldTimes(hold: Hold): { requestedAt: string; expiresAt: string } {
  return { requestedAt: new Date(hold.requestedAt).toISOString(), expiresAt: new Date(hold.expiresAt).toISOString() };
}

/** A hold as an administrator sees it in GET /api/approvals. */
export function viewOf(stored: StoredHold, viewer: string, now: number): ApprovalView {
  const { hold } = stored;
  return {
    ...heldFields(hold),
    requestedBy: hold.requestedBy,
    requestedByName: hold.requestedByName ?? null,
    mine: hold.requestedBy === viewer,
    ...heldTimes(hold),
    expired: now > hold.expiresAt,
    state: stored.claim === null ? 'pending' : 'confirming',
  };
}

/** A stored hold read back (a file, Redis): null for anything that is not one. */
export function parseHold(value: unknown): Hold | null {
  if (typeof value !== 'object' || value === null) return null;
  const hold = value as Partial<Hold>;
  if (typeof hold.id !== 'string' || typeof hold.subject !== 'string' || typeof hold.requestedBy !== 'string')
    return null;
  if (typeof hold.expiresAt !== 'number' || typeof hold.requestedAt !== 'number') return null;
  if (typeof hold.call !== 'object' || hold.call === null || typeof hold.call.path !== 'string') return null;
  if (!Array.isArray(hold.targets) || !Array.isArray(hold.records) || !Array.isArray(hold.changes)) return null;
  return hold as Hold;
}
