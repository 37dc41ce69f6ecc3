/**
 * A small cache of answers the gateway reads again within seconds (a whole list, a row's vCard):
 * each entry lives `ttlMs`, the cache holds at most `maxWeight` in all (a list weighs its rows)
 * and drops the least recently used first. Two callers asking for one key while it is being read
 * share the one read. A failed read is not kept, nor a value `keep` turns down.
 */
export class TtlCache<V> {
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

  /** The value under `key`: kept if fresh, else read (once, however many ask at the same time). */
  async get(key: string, read: () => Promise<V>): Promise<V> {
    const kept = this.entries.get(key);
    if (kept && this.now() - kept.at < this.options.ttlMs) {
      // Most recently used goes last: the Map's order is the eviction order.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept.value;
    }
    if (kept) this.drop(key);
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
