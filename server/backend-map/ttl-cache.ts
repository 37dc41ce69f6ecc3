/**
 * A small cache of answers the gateway reads again within seconds (a whole list, a row's vCard):
 * each entry lives `ttlMs`, the cache holds at most `maxWeight` in all (a list weighs its rows)
 * and drops the oldest first: a read does not make an entry live longer, so the oldest is the one
 * that would expire soonest, and a hit costs a look-up only (no reordering). Two callers asking for one key while it is being read
 * share the one read. A failed read is not kept, nor a value `keep` turns down.
 */
// A value is never undefined: undefined is how peek says "not kept".
export class TtlCache<V extends object | null> {
  private readonly entries = new Map<string, { value: V; at: number; weight: number }>();
  private readonly reading = new Map<string, Promise<V>>();
  private weight = 0;

  constructor(
    private readonly options: {
      ttlMs: number;
      maxWeight: number;
      weigh?: (value: V) => number;
      /** False for a value served to the callers of its read but not kept (a refusal). */
      keep?: (value: V) => boolean;
      now?: () => number;
    },
  ) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /**
   * The value kept under `key` if it is fresh, else undefined; at once, without a read. A page of
   * 100 rows looks up 200 per-row values: most are kept, and they cost no promise this way.
   */
  peek(key: string): V | undefined {
    const kept = this.entries.get(key);
    if (!kept) return undefined;
    if (this.now() - kept.at >= this.options.ttlMs) {
      this.drop(key);
      return undefined;
    }
    return kept.value;
  }

  /** The value under `key`: kept if fresh, else read (once, however many ask at the same time). */
  async get(key: string, read: () => Promise<V>): Promise<V> {
    const kept = this.peek(key);
    if (kept !== undefined) return kept;
    const pending = this.reading.get(key);
    if (pending) return pending;
    const reading = read().finally(() => this.reading.delete(key));
    this.reading.set(key, reading);
    const value = await reading;
    if (this.options.keep?.(value) ?? true) this.put(key, value);
    return value;
  }

  private put(key: string, value: V): void {
    const weight = Math.max(1, this.options.weigh?.(value) ?? 1);
    // An entry heavier than the whole cache is served once and not kept.
    if (weight > this.options.maxWeight) return;
    this.drop(key);
    this.entries.set(key, { value, at: this.now(), weight });
    this.weight += weight;
    for (const [oldest] of this.entries) {
      if (this.weight <= this.options.maxWeight) break;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }

  /** Forgets every entry whose key starts with `prefix` (a session's lists of one resource after a write). */
  forget(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.drop(key);
  }

  get size(): number {
    return this.entries.size;
  }

  get totalWeight(): number {
    return this.weight;
  }
}
