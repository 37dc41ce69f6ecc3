/**
 * Sessions ended before their time (logout). A sealed cookie stays cryptographically valid until
 * it expires, so the gateway must remember which session ids it refuses, until their maximum age
 * has passed and the cookie would be refused anyway.
 *
 * The list is capped, and past the cap it fails closed: the logouts closest to their own expiry
 * are forgotten one by one, but the list then refuses every session that expires no later than
 * the last of them (its "floor"). Every session expires SESSION_MAX_HOURS after its login, so that
 * is every session that logged in no later than the last forgotten logout's session: more sessions
 * end, never fewer, and the list stays within its cap whatever the flood of logouts.
 */
export interface RevocationStore {
  /**
   * Refuses the session id from now until `until` (epoch ms). Resolves once every process of
   * this gateway refuses it, so the logout's answer never races a call on another worker.
   */
  revoke(id: string, until: number): Promise<void>;
  /** Whether the session `id`, whose own expiry is `until`, is refused: logged out, or under the floor. */
  isRevoked(id: string, until: number): Promise<boolean>;
  /** Called for every revocation, this process's and other processes' alike, once per id. */
  subscribe(listener: (id: string) => void): () => void;
  /** Called whenever the floor rises: every session expiring no later than `floor` is refused. */
  subscribeFloor(listener: (floor: number) => void): () => void;
  close(): Promise<void>;
}

/** Logouts remembered one by one before the oldest are ended wholesale (SESSION_REVOCATIONS_MAX). */
export const DEFAULT_MAX_REVOCATIONS = 200_000;

export interface MemoryRevocationsOptions {
  now?: () => number;
  /** Above this many ids the expired ones are swept; then the soonest to expire are dropped under the floor. */
  maxEntries?: number;
}

/** The revocations of one process, in memory. */
export class MemoryRevocations implements RevocationStore {
  private readonly until = new Map<string, number>();
  private readonly listeners = new Set<(id: string) => void>();
  private readonly floorListeners = new Set<(floor: number) => void>();
  private readonly now: () => number;
  private readonly maxEntries: number;
  private floorUntil = 0;

  constructor(options: MemoryRevocationsOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_REVOCATIONS;
  }

  get size(): number {
    return this.until.size;
  }

  /** Sessions expiring no later than this (epoch ms) are refused; 0 when none was ever forgotten. */
  get floor(): number {
    return this.floorUntil;
  }

  async revoke(id: string, until: number): Promise<void> {
    this.add(id, until);
  }

  /** Records a revocation; true when it is new (listeners were told). */
  add(id: string, until: number): boolean {
    if (until <= this.floorUntil) return false;
    const known = this.until.get(id);
    if (known !== undefined && known >= until) return false;
    this.until.set(id, until);
    this.bound();
    if (known !== undefined) return false;
    this.tell(this.listeners, id);
    return true;
  }

  /** Raises the floor to `floor` (never lowers it); true when it rose (floor listeners were told). */
  raiseFloor(floor: number): boolean {
    if (!(floor > this.floorUntil)) return false;
    this.floorUntil = floor;
    // The ids under the floor are refused by it now; keeping them would only cost memory.
    for (const [id, until] of this.until) if (until <= floor) this.until.delete(id);
    this.tell(this.floorListeners, floor);
    return true;
  }

  async isRevoked(id: string, until: number): Promise<boolean> {
    return this.has(id, until);
  }

  has(id: string, until: number): boolean {
    if (until <= this.floorUntil) return true;
    const known = this.until.get(id);
    if (known === undefined) return false;
    if (known > this.now()) return true;
    this.until.delete(id);
    return false;
  }

  /** Every live revocation, for a process that joins later (with the floor). */
  list(): Array<[string, number]> {
    const now = this.now();
    return [...this.until].filter(([, until]) => until > now);
  }

  subscribe(listener: (id: string) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  subscribeFloor(listener: (floor: number) => void): () => void {
    this.floorListeners.add(listener);
    return () => void this.floorListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.floorListeners.clear();
  }

  private tell<T>(listeners: Set<(value: T) => void>, value: T): void {
    for (const listener of [...listeners]) {
      try {
        listener(value);
      } catch {
        // A listener's failure must not stop the others from hearing of the revocation.
      }
    }
  }

  private bound(): void {
    if (this.until.size <= this.maxEntries) return;
    const now = this.now();
    for (const [id, until] of this.until) if (until <= now) this.until.delete(id);
    if (this.until.size <= this.maxEntries) return;
    // Still full of live ids (a flood of logins and logouts, each needing a password): forget a
    // tenth, those closest to expiring on their own, so the sort is paid once per many revocations,
    // and refuse every session that expires no later than the last of them.
    const sorted = [...this.until].sort((a, b) => a[1] - b[1]);
    const drop = this.until.size - Math.floor(this.maxEntries * 0.9);
    this.raiseFloor(sorted[drop - 1]![1]);
  }
}
