export interface RateLimiterOptions {
  /** Burst size: how many calls a fresh client may make at once. */
  capacity: number;
  /** Tokens regained per minute. */
  refillPerMinute: number;
  /** Clients remembered at once; the least recently seen is forgotten first. */
  maxClients: number;
  /** Clock in milliseconds; injectable so tests need no real waiting. */
  now?: () => number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * Token bucket per client key, in memory. The map is bounded: a flood of distinct addresses can
 * only evict idle clients (who then start again with a full bucket), never grow memory.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly capacity: number;
  private readonly refillPerMs: number;
  private readonly maxClients: number;
  private readonly now: () => number;

  constructor(options: RateLimiterOptions) {
    if (!(options.capacity >= 1) || !(options.refillPerMinute > 0) || !(options.maxClients >= 1)) {
      throw new RangeError('capacity, refillPerMinute and maxClients must be positive');
    }
    this.capacity = options.capacity;
    this.refillPerMs = options.refillPerMinute / 60_000;
    this.maxClients = options.maxClients;
    this.now = options.now ?? Date.now;
  }

  /** Takes one token for the key; false when its bucket is empty. */
  take(key: string): boolean {
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (bucket) {
      // Re-inserting moves the key to the end of the map's order, which is what makes it an LRU.
      this.buckets.delete(key);
      const elapsed = Math.max(0, now - bucket.updatedAt);
      bucket.tokens = Math.min(this.capacity, bucket.tokens + elapsed * this.refillPerMs);
      bucket.updatedAt = now;
    } else {
      bucket = { tokens: this.capacity, updatedAt: now };
      if (this.buckets.size >= this.maxClients) {
        const oldest = this.buckets.keys().next();
        if (!oldest.done) this.buckets.delete(oldest.value);
      }
    }
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Clients currently remembered. */
  get size(): number {
    return this.buckets.size;
  }
}
