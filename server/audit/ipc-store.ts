import type { AuditEntry, AuditPage } from '../contract/audit.js';
import type { PrimaryChannel, RpcHandler } from '../cluster/ipc.js';
import type { AuditDraft } from './chain.js';
import type { AuditQuery, AuditStore } from './store.js';

/** The calls the primary answers for its trail (server/cluster/primary.ts). */
export const AUDIT_CALLS = {
  append: 'audit.append',
  query: 'audit.query',
  prune: 'audit.prune',
  flush: 'audit.flush',
} as const;

/** What the primary serves its workers of its own trail. */
export function auditPrimaryHandlers(store: AuditStore): Record<string, RpcHandler> {
  return {
    [AUDIT_CALLS.append]: (draft) => store.append(draft as AuditDraft),
    [AUDIT_CALLS.query]: (query) => store.query(query as AuditQuery),
    [AUDIT_CALLS.prune]: (before) => store.prune(before as number),
    [AUDIT_CALLS.flush]: () => store.flush(),
  };
}

/**
 * A cluster worker's trail: every call goes to the primary, which owns the one file, its chain and
 * its index, so N workers append to one chain in one order. An append resolves once the primary
 * has written the line, as the file store's does.
 */
export class IpcAuditStore implements AuditStore {
  private closed = false;

  constructor(private readonly channel: PrimaryChannel) {}

  async open(): Promise<void> {
    this.check();
  }

  async append(draft: AuditDraft): Promise<AuditEntry> {
    this.check();
    return this.channel.call<AuditEntry>(AUDIT_CALLS.append, draft);
  }

  async query(query: AuditQuery): Promise<AuditPage> {
    this.check();
    return this.channel.call<AuditPage>(AUDIT_CALLS.query, query);
  }

  async prune(before: number): Promise<number> {
    this.check();
    return this.channel.call<number>(AUDIT_CALLS.prune, before);
  }

  async flush(): Promise<void> {
    this.check();
    await this.channel.call(AUDIT_CALLS.flush);
  }

  /** The file stays open: the primary closes it once every worker has exited. */
  async close(): Promise<void> {
    this.closed = true;
  }

  private check(): void {
    if (this.closed) throw new Error('The audit trail is closed');
  }
}
