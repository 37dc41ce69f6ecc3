import type { AuditEntry, AuditKind, AuditPage } from '../contract/audit.js';
import type { AuditDraft } from './chain.js';

/** A question to the trail: every filter optional, newest first. */
export interface AuditQuery {
  /** 1-based. */
  pageNum: number;
  pageSize: number;
  /** An account (case-insensitive) or a user id. */
  actor?: string;
  resource?: string;
  /** Matches the entry's action or its call. */
  action?: string;
  /** Any of these record ids among the entry's targets. */
  targets?: readonly string[];
  kind?: AuditKind;
  /** Inclusive bounds on the entry time, epoch milliseconds. */
  since?: number;
  until?: number;
  /** Only entries before this position (a cursor that holds still while entries are added). */
  beforeSeq?: number;
}

/**
 * Where the trail is kept: the JSON-lines file under DATA_DIR (file-store.ts), the cluster
 * primary's file over IPC (ipc-store.ts), or the Redis stream replicas share (redis-store.ts).
 * Appends are chained in the order the store takes them.
 */
export interface AuditStore {
  open(): Promise<void>;
  /** Chains the draft after the last entry and stores it; resolves with the entry as stored. */
  append(draft: AuditDraft): Promise<AuditEntry>;
  query(query: AuditQuery): Promise<AuditPage>;
  /** Removes the entries older than `before` (epoch ms), keeping an anchor; resolves with how many went. */
  prune(before: number): Promise<number>;
  flush(): Promise<void>;
  close(): Promise<void>;
}
