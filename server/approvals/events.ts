import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { ApprovalHeld } from '../contract/approvals.js';
import { heldFields, heldTimes, type Hold } from './hold.js';

/** What an event tells of a hold: its held fields and path, never the held body (which may carry a new password). */
export interface ApprovalRecord extends ApprovalHeld {
  /** The contract path the held call goes to. */
  path: string;
  /** Backend user id of the first approver. */
  requestedBy: string;
  requestedAt: string;
  expiresAt: string;
}

/** A call was held: `by` is the first approver. */
export interface HoldEvent {
  type: 'hold';
  approval: ApprovalRecord;
  by: string;
}

/**
 * A second approver confirmed: the call went to the backend under `by`'s session. `outcome` says
 * whether the backend took it (`sent`) or refused it (`refused`, its envelope in `backend`).
 */
export interface ConfirmEvent {
  type: 'confirm';
  approval: ApprovalRecord;
  by: string;
  requestedBy: string;
  outcome: 'sent' | 'refused';
  backend: { status: number; code: unknown; msg: unknown };
}

/** The hold was dropped without reaching the backend, with the decliner's reason (the first approver may withdraw their own). */
export interface DeclineEvent {
  type: 'decline';
  approval: ApprovalRecord;
  by: string;
  requestedBy: string;
  reason: string;
}

export type ApprovalEvent = HoldEvent | ConfirmEvent | DeclineEvent;

/** A listener the approvals plugin calls for each event, with the request that caused it (its ip, its id). */
export type ApprovalListener = (event: ApprovalEvent, request: FastifyRequest) => void | Promise<void>;

export function recordOf(hold: Hold): ApprovalRecord {
  return { ...heldFields(hold), path: hold.call.path, requestedBy: hold.requestedBy, ...heldTimes(hold) };
}

/**
 * Tells every listener, one after the other, before the answer goes out (so a trail written by a
 * listener is complete when the browser hears the outcome). A failing listener is logged and
 * never changes the outcome: the hold, confirmation or decline has happened.
 */
export async function emit(
  listeners: readonly ApprovalListener[],
  event: ApprovalEvent,
  request: FastifyRequest,
  log: FastifyBaseLogger,
): Promise<void> {
  for (const listener of listeners) {
    try {
      await listener(event, request);
    } catch (error) {
      log.error({ err: error, approvalId: event.approval.id, event: event.type }, 'an approval event listener failed');
    }
  }
}
