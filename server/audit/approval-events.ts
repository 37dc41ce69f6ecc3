import type { FastifyInstance } from 'fastify';
import type { AuditOutcome, AuditValue } from '../contract/audit.js';
import type { ApprovalEvent } from '../approvals/events.js';

/** The backend's envelope code as the trail keeps it: a number or a string, anything else as not known. */
function codeOf(code: unknown): number | string | null {
  return typeof code === 'number' || typeof code === 'string' ? code : null;
}

function outcomeOf(event: ApprovalEvent): AuditOutcome | null {
  if (event.type !== 'confirm') return null;
  const { status, code, msg } = event.backend;
  return { status, code: codeOf(code), ...(typeof msg === 'string' ? { msg } : {}) };
}

/**
 * Puts each hold, confirmation and decline of a two-person approval into the audit trail. The
 * held call itself is left out of the trail by the recorder (nothing changed when it was held);
 * these entries tell who asked, who settled it, and what the backend answered the confirmed
 * call. The actor is the session of the request that caused the event: the first administrator
 * for a hold, the second for a confirmation or a decline.
 */
export function recordApprovalEvents(app: FastifyInstance): void {
  app.approvals.onApprovalEvent.push(async (event, request) => {
    const { approval } = event;
    await app.audit.record(
      {
        kind: event.type,
        resource: approval.resource,
        // A settings save is held with no action of its own: named as the save it is, not by its path.
        action: approval.action ?? (approval.kind === 'settings' ? 'saveConfig' : null),
        targets: approval.targets,
        reason: event.type === 'decline' ? event.reason : null,
        outcome: outcomeOf(event),
        detail: {
          approvalId: approval.id,
          requestedBy: approval.requestedBy,
          // Each changed field of a held settings save, before and after (secrets are dropped by the recorder).
          changes: approval.changes as unknown as AuditValue,
        },
      },
      request,
    );
  });
}
