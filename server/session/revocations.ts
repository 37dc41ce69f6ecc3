/**
 * Sessions ended before their time (logout). A sealed cookie stays cryptographically valid until
 * it expires, so the gateway must remember which session ids it refuses, until their maximum age
 * has passed and the cookie would be refused anyway.
 */
export interface RevocationStore {
  /**
   * Refuses the session id from now until `until` (epoch ms). Resolves once every process of
   * this gateway refuses it, so the logout's answer never races a call on another worker.
   */
  revoke(id: string, until: number): Promise<void>;
  isRevoked(id: string): Promise<boolean>;
  /** Called for every revocation, this process's and other processes' alike, once per id. */
  subscribe(listener: (id: string) => void): () => void;
  close(): Promise<void>;
}

export interface MemoryRevocationsOptions {
  now?: () => number;
  /** Above this many ids the expired ones are swept; then the soonest to expire are dropped. */
  maxEntries?: number;
}

/** The revocations of one process, in memory. */
export class MemoryRevocations implements RevocationStore {
  private readonly until = new Map<string, number>();
  private readonly listeners = new Set<(id: string) => void>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(options: MemoryRevocationsOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 200_000;
  }

  get size(): number {
    return this.until.size;
  }

  async revoke(id: string, until: number): Promise<void> {
    this.add(id, until);
  }

  /** Records a revocation; true when it is new (listeners were told). */
  add(id: string, until: number): boolean {
    const known = this.until.get(id);
    if (known !== undefined && known >= until) return false;
    this.until.set(id, until);
    this.bound();
    if (known !== undefined) return false;
    for (const listener of [...this.listeners]) {
      try {
        listener(id);
      } catch {
        // A listener's failure must not stop the others from hearing of the revocation.
      }
    }
    return true;
  }

  async isRevoked(id: string): Promise<boolean> {
    return this.has(id);
  }

  has(id: string): boolean {
    const until = this.until.get(id);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(id);
    return false;
  }

  /** Every live revocation, for a process that joins later. */
  list(): Array<[string, number]> {
    const now = this.now();
    return [...this.until].filter(([, until]) => until > now);
  }

  subscribe(listener: (id: string) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }

  private bound(): void {
    if (this.until.size <= this.maxEntries) return;
    const now = this.now();
    for (const [id, until] of this.until) if (until <= now) this.until.delete(id);
    if (this.until.size <= this.maxEntries) return;
    // Still full of live ids (a flood of logins and logouts, each needing a password): drop a tenth,
    // those closest to expiring on their own, so the sort is paid once per many revocations.
    const sorted = [...this.until].sort((a, b) => a[1] - b[1]);
    const drop = this.until.size - Math.floor(this.maxEntries * 0.9);
    for (const [id] of sorted.slice(0, drop)) this.until.delete(id);
  }
}
