/**
 * Login throttling: failed logins are counted per (account, client address) and per client
 * address; past a rule's limit each further attempt must wait, and the wait doubles with every
 * failure. Attempts are counted when they start, so a burst of parallel guesses cannot slip
 * past the limit while the backend answers the first ones.
 */

export interface ThrottleRule {
  /** Failures allowed before attempts must wait. */
  limit: number;
  /** A key's count is forgotten this long after its last counted attempt. */
  windowMs: number;
  /** Wait after the limit-th failure; doubled for each failure after it. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * The counters behind the throttle. Each call is atomic for its key, so an implementation shared
 * by several processes (a primary over IPC, Redis) keeps one count per key for all of them.
 */
export interface AttemptCounter {
  /**
   * When the key must wait, returns the wait in ms and counts nothing; otherwise counts one
   * attempt (as a failure until give() says otherwise) and returns 0.
   */
  take(key: string, rule: ThrottleRule, now: number): Promise<number>;
  /** Un-counts one attempt of take() that did not fail (the backend was unreachable, say). */
  give(key: string): Promise<void>;
  /** Forgets the key (a successful login clears its account's count). */
  clear(key: string): Promise<void>;
  close(): Promise<void>;
}

/** The wait a key with `count` counted failures must keep after its last one, or 0. */
export function throttleDelayMs(count: number, rule: ThrottleRule): number {
  if (count < rule.limit) return 0;
  const doublings = Math.min(count - rule.limit, 30);
  return Math.min(rule.maxDelayMs, rule.baseDelayMs * 2 ** doublings);
}

interface Slot {
  count: number;
  lastAt: number;
  expiresAt: number;
}

/** The counters of one process, in memory; bounded, the least recently touched key going first. */
export class MemoryAttemptCounter implements AttemptCounter {
  private readonly slots = new Map<string, Slot>();

  constructor(private readonly maxKeys = 100_000) {}

  get size(): number {
    return this.slots.size;
  }

  async take(key: string, rule: ThrottleRule, now: number): Promise<number> {
    return this.takeNow(key, rule, now);
  }

  /** The synchronous core, also served to cluster workers by the primary. */
  takeNow(key: string, rule: ThrottleRule, now: number): number {
    let slot = this.slots.get(key);
    if (slot && slot.expiresAt <= now) slot = undefined;
    const delay = slot ? throttleDelayMs(slot.count, rule) : 0;
    if (slot && delay > 0) {
      const wait = slot.lastAt + delay - now;
      if (wait > 0) return wait;
    }
    const next: Slot = { count: (slot?.count ?? 0) + 1, lastAt: now, expiresAt: now + rule.windowMs };
    this.slots.delete(key);
    this.slots.set(key, next);
    if (this.slots.size > this.maxKeys) {
      const oldest = this.slots.keys().next();
      if (!oldest.done) this.slots.delete(oldest.value);
    }
    return 0;
  }

  async give(key: string): Promise<void> {
    this.giveNow(key);
  }

  giveNow(key: string): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    slot.count -= 1;
    if (slot.count <= 0) this.slots.delete(key);
  }

  async clear(key: string): Promise<void> {
    this.slots.delete(key);
  }

  clearNow(key: string): void {
    this.slots.delete(key);
  }

  async close(): Promise<void> {
    this.slots.clear();
  }
}

export interface LoginThrottleOptions {
  counter: AttemptCounter;
  /** LOGIN_MAX_FAILURES: per account and client address. */
  perAccount: number;
  /** Per client address, whatever the account. */
  perAddress: number;
  windowMs?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  now?: () => number;
}

export type AttemptVerdict = { allowed: true; attempt: LoginAttempt } | { allowed: false; retryAfterMs: number };

/** One login attempt in flight; tell it how the backend answered. */
export interface LoginAttempt {
  succeeded(): Promise<void>;
  failed(): Promise<void>;
  /** No verdict from the backend (unreachable, time-out): the attempt is not held against anyone. */
  abandoned(): Promise<void>;
}

export const THROTTLE_WINDOW_MS = 15 * 60_000;

/** Accounts are compared as the backend is likely to: trimmed, case and width folded. */
export function accountKey(account: string): string {
  return account.trim().normalize('NFKC').toLowerCase();
}

export class LoginThrottle {
  private readonly accountRule: ThrottleRule;
  private readonly addressRule: ThrottleRule;
  private readonly now: () => number;

  constructor(private readonly options: LoginThrottleOptions) {
    const windowMs = options.windowMs ?? THROTTLE_WINDOW_MS;
    const baseDelayMs = options.baseDelayMs ?? 30_000;
    const maxDelayMs = options.maxDelayMs ?? windowMs;
    this.accountRule = { limit: options.perAccount, windowMs, baseDelayMs, maxDelayMs };
    this.addressRule = { limit: options.perAddress, windowMs, baseDelayMs, maxDelayMs };
    this.now = options.now ?? Date.now;
  }

  async begin(account: string, address: string): Promise<AttemptVerdict> {
    const { counter } = this.options;
    // JSON keeps the two parts apart whatever characters an account name holds.
    const pairKey = `login:${JSON.stringify([accountKey(account), address])}`;
    const addressKey = `login-address:${address}`;
    const now = this.now();
    const pairWait = await counter.take(pairKey, this.accountRule, now);
    if (pairWait > 0) return { allowed: false, retryAfterMs: pairWait };
    const addressWait = await counter.take(addressKey, this.addressRule, now);
    if (addressWait > 0) {
      await counter.give(pairKey);
      return { allowed: false, retryAfterMs: addressWait };
    }
    let settled = false;
    const settle = async (fn: () => Promise<void>) => {
      if (settled) return;
      settled = true;
      await fn();
    };
    return {
      allowed: true,
      attempt: {
        // A success clears its account's count; the address keeps its other accounts' failures.
        succeeded: () =>
          settle(async () => {
            await counter.clear(pairKey);
            await counter.give(addressKey);
          }),
        failed: () => settle(async () => undefined),
        abandoned: () =>
          settle(async () => {
            await counter.give(pairKey);
            await counter.give(addressKey);
          }),
      },
    };
  }
}
