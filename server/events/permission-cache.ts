/** What the backend said about a session's right to the withdrawal events. */
export type Access = 'allowed' | 'forbidden' | 'unauthorized';

export interface PermissionCacheOptions<S, A = Access> {
  ttlMs: number;
  /** Asks the backend. Throwing means "no answer": nothing is cached and the caller sees the error. */
  lookUp(session: S): Promise<A>;
  /** Above this many entries expired ones are swept, then the oldest dropped. */
  maxEntries?: number;
  now?: () => number;
}

interface Slot<A> {
  expires: number;
  access: Promise<A>;
}

/**
 * Remembers each session's access for a short while, so a user opening many tabs (or a browser
 * reconnecting after a restart) costs one permission call, and concurrent look-ups share one call.
 */
export class PermissionCache<S, A = Access> {
  private readonly slots = new Map<string, Slot<A>>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(private readonly options: PermissionCacheOptions<S, A>) {
    this.maxEntries = options.maxEntries ?? 20_000;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.slots.size;
  }

  get(key: string, session: S): Promise<A> {
    const now = this.now();
    const slot = this.slots.get(key);
    if (slot && slot.expires > now) return slot.access;
    const access = this.options.lookUp(session);
    const fresh: Slot<A> = { expires: now + this.options.ttlMs, access };
    this.slots.delete(key);
    this.slots.set(key, fresh);
    this.bound(now);
    // A failed look-up is forgotten at once so the next tab asks again.
    access.catch(() => {
      if (this.slots.get(key) === fresh) this.slots.delete(key);
    });
    return access;
  }

  /** Records an answer learnt elsewhere (the poll saw the session end). */
  set(key: string, access: A): void {
    this.slots.delete(key);
    this.slots.set(key, { expires: this.now() + this.options.ttlMs, access: Promise.resolve(access) });
    this.bound(this.now());
  }

  delete(key: string): void {
    this.slots.delete(key);
  }

  clear(): void {
    this.slots.clear();
  }

  private bound(now: number): void {
    if (this.slots.size <= this.maxEntries) return;
    for (const [key, slot] of this.slots) {
      if (slot.expires <= now) this.slots.delete(key);
    }
    // Map order is insertion order, and get/set re-insert, so the first keys are the oldest.
    for (const key of this.slots.keys()) {
      if (this.slots.size <= this.maxEntries) break;
      this.slots.delete(key);
    }
  }
}
