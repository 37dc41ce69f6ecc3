import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditOutcome } from '../contract/audit.js';
import type { UploadKind } from '../contract/uploads.js';

/** What the upload route learnt of one upload, for its entry in the trail. */
export interface UploadTrail {
  kind: UploadKind;
  name: string;
  /** Set once the file server stored it. */
  size?: number;
  md5?: string;
  type?: string;
  path?: string;
  /** Refused by the daily quota: counted by the quota itself, not written one by one. */
  quota?: boolean;
}

/** The envelope's code and message of the answer about to be sent. */
function outcomeOf(status: number, payload: unknown): AuditOutcome {
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
  try {
    const body = JSON.parse(text) as { code?: unknown; msg?: unknown; error?: unknown };
    const code = typeof body.code === 'number' || typeof body.code === 'string' ? body.code : null;
    const msg = code !== 200 && typeof body.error === 'string' ? { msg: body.error } : {};
    return { status, code, ...msg };
  } catch {
    return { status, code: null };
  }
}

/**
 * Writes each upload of a session to the audit trail before its answer leaves: who, which kind,
 * the file's cleaned name and, once stored, where, its size, MD5 and detected type; a refusal
 * (no screen that takes the kind, a file of the wrong type or too large, the backend's own) with
 * its outcome. A refusal by the daily quota is not written: past the quota an account could
 * otherwise grow the trail with every refused call, which the quota's counts already tell.
 * Hooks of the upload route's own scope; the audit plugin, registered later, is looked up when
 * an upload ends (none when the trail is off).
 */
export function recordUploads(scope: FastifyInstance, trails: WeakMap<FastifyRequest, UploadTrail>): void {
  scope.addHook('onSend', async (request, reply, payload) => {
    const trail = trails.get(request);
    trails.delete(request);
    if (!trail || trail.quota || !request.session || !scope.hasDecorator('audit')) return payload;
    const { kind, name, ...stored } = trail;
    await scope.audit.record(
      {
        kind: 'change',
        resource: null,
        call: 'upload',
        action: 'upload',
        outcome: outcomeOf(reply.statusCode, payload),
        detail: { kind, name, ...stored },
      },
      request,
    );
    return payload;
  });
}
