import { dropAt, type Hold, type StoredHold } from './hold.js';

export type CreateOutcome = { created: true } | { created: false; existing: StoredHold };
export type ClaimOutcome = { claimed: true; hold: Hold } | { claimed: false; reason: 'missing' | 'busy' };

/**
 * Where holds live: a file under DATA_DIR in one process (file-store.ts), the cluster primary's
 * file for WORKERS > 1 (ipc-store.ts), or Redis shared by every replica (redis-store.ts). Every
 * change that two administrators could race on is one atomic step of the store: one pending hold
 * per subject, and one claim (a confirmation or a decline under way) per hold.
 */
export interface ApprovalStore {
  open(): Promise<void>;
  /** Adds the hold unless its subject already has one that has not expired, which is answered instead. */
  create(hold: Hold, now: number): Promise<CreateOutcome>;
  get(id: string, now: number): Promise<StoredHold | null>;
  list(now: number): Promise<StoredHold[]>;
  /**
   * Takes the hold for one confirmation or decline (`token` names this attempt), unless another
   * attempt holds it and is younger than CLAIM_STALE_MS (one whose process died frees it then).
   */
  claim(id: string, token: string, now: number): Promise<ClaimOutcome>;
  /** Gives the hold back (the backend could not be reached, the session had ended). */
  release(id: string, token: string): Promise<void>;
  /** Removes the hold this attempt claimed; false when the claim was lost meanwhile. */
  remove(id: string, token: string): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * How long a confirmation may hold its hold before another may take it: longer than any backend
 * call waits (UPSTREAM_TIMEOUT_MS is at most an hour), so only a process that died lets go this way.
 */
export const DEFAULT_CLAIM_STALE_MS = 2 * 3_600_000;

interface Entry {
  hold: Hold;
  claim: { token: string; at: number } | null;
}

/** The plain state the file store writes and the cluster primary serves. */
export interface TableSnapshot {
  version: 1;
  holds: { hold: Hold; claim: { token: string; at: number } | null }[];
}

/**
 * The holds of one process, in memory, with the store's rules; the file store persists it after
 * each change. Expired holds stay (listed as expired) until dropAt, then go.
 */
export class HoldTable {
  private readonly byId = new Map<string, Entry>();
  private readonly bySubject = new Map<string, string>();

  constructor(private readonly staleMs: number = DEFAULT_CLAIM_STALE_MS) {}

  load(snapshot: TableSnapshot, parse: (value: unknown) => Hold | null): void {
    for (const item of snapshot.holds) {
      const hold = parse(item.hold);
      if (!hold || this.byId.has(hold.id)) continue;
      this.byId.set(hold.id, { hold, claim: item.claim && typeof item.claim.token === 'string' ? item.claim : null });
      this.bySubject.set(hold.subject, hold.id);
    }
  }

  snapshot(): TableSnapshot {
    return { version: 1, holds: [...this.byId.values()].map(({ hold, claim }) => ({ hold, claim })) };
  }

  /** Drops holds past their dropAt; true when any went. */
  sweep(now: number): boolean {
    let changed = false;
    for (const [id, entry] of this.byId) {
      if (dropAt(entry.hold) > now) continue;
      this.byId.delete(id);
      if (this.bySubject.get(entry.hold.subject) === id) this.bySubject.delete(entry.hold.subject);
      changed = true;
    }
    return changed;
  }

  /** An expired hold on the subject gives way to the new one (it could never be confirmed). */
  create(hold: Hold, now: number): CreateOutcome {
    const existingId = this.bySubject.get(hold.subject);
    const existing = existingId === undefined ? undefined : this.byId.get(existingId);
    if (existing && existing.hold.expiresAt >= now) return { created: false, existing: this.stored(existing, now) };
    if (existing) this.byId.delete(existing.hold.id);
    this.byId.set(hold.id, { hold, claim: null });
    this.bySubject.set(hold.subject, hold.id);
    return { created: true };
  }

  get(id: string, now: number): StoredHold | null {
    const entry = this.byId.get(id);
    return entry ? this.stored(entry, now) : null;
  }

  list(now: number): StoredHold[] {
    return [...this.byId.values()].map((entry) => this.stored(entry, now));
  }

  claim(id: string, token: string, now: number): ClaimOutcome {
    const entry = this.byId.get(id);
    if (!entry) return { claimed: false, reason: 'missing' };
    if (entry.claim && now - entry.claim.at < this.staleMs) return { claimed: false, reason: 'busy' };
    entry.claim = { token, at: now };
    return { claimed: true, hold: entry.hold };
  }

  release(id: string, token: string): boolean {
    const entry = this.byId.get(id);
    if (!entry || entry.claim?.token !== token) return false;
    entry.claim = null;
    return true;
  }

  remove(id: string, token: string): boolean {
    const entry = this.byId.get(id);
    if (!entry || entry.claim?.token !== token) return false;
    this.byId.delete(id);
    if (this.bySubject.get(entry.hold.subject) === id) this.bySubject.delete(entry.hold.subject);
    return true;
  }

  /** A claim older than staleMs no longer counts: its process is gone. */
  private stored(entry: Entry, now: number): StoredHold {
    const fresh = entry.claim && now - entry.claim.at < this.staleMs;
    return { hold: entry.hold, claim: fresh ? entry.claim!.token : null };
  }
}
