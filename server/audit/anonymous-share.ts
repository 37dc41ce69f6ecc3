/**
 * What outsiders may put into the audit trail. Anyone who reaches the console can try to log in,
 * and a trail that writes every attempt grows at their pace (issue 36: 2,000 attempts from one
 * address in 11 s, each kept 400 days). So attempts without a session have a share of their own,
 * as the error log's anonymous lane does:
 *
 * - an attempt the throttle refused (429) is never written one by one: it is counted, per client
 *   address and window, and the window's count is written as one entry when the window closes;
 * - other failed logins are written one by one up to ANONYMOUS_ENTRIES_PER_WINDOW in a window
 *   (all addresses together), and counted the same way beyond it.
 *
 * At most ANONYMOUS_ADDRESSES_MAX addresses are counted apart in a window; attempts from others
 * are counted together under one `*` entry. A window thus costs the trail at most
 * ANONYMOUS_ENTRIES_PER_WINDOW + ANONYMOUS_ADDRESSES_MAX + 1 entries, whoever sends what.
 */

/** How long a count runs before it is written: the login throttle's window. */
export const ANONYMOUS_WINDOW_MS = 15 * 60_000;
/** Failed logins written one by one in a window, all addresses together. */
export const ANONYMOUS_ENTRIES_PER_WINDOW = 200;
/** Addresses counted apart in a window. */
export const ANONYMOUS_ADDRESSES_MAX = 1_000;
/** The key attempts from addresses beyond ANONYMOUS_ADDRESSES_MAX are counted under. */
export const OTHER_ADDRESSES = '*';

/** One address's attempts that were counted rather than written, over one window. */
export interface CountedAttempts {
  ip: string;
  /** Epoch ms of the first attempt counted, and of the last. */
  from: number;
  until: number;
  /** Attempts the throttle refused, and failed attempts past the window's share. */
  throttled: number;
  failed: number;
}

export interface AnonymousShareOptions {
  now?: () => number;
  windowMs?: number;
  perWindow?: number;
  maxAddresses?: number;
}

export class AnonymousShare {
  private readonly now: () => number;
  private readonly windowMs: number;
  private readonly perWindow: number;
  private readonly maxAddresses: number;
  private windowStart = -Infinity;
  private written = 0;
  private readonly counted = new Map<string, CountedAttempts>();

  constructor(options: AnonymousShareOptions = {}) {
    this.now = options.now ?? Date.now;
    this.windowMs = options.windowMs ?? ANONYMOUS_WINDOW_MS;
    this.perWindow = options.perWindow ?? ANONYMOUS_ENTRIES_PER_WINDOW;
    this.maxAddresses = options.maxAddresses ?? ANONYMOUS_ADDRESSES_MAX;
  }

  /**
   * Whether an anonymous attempt is written as an entry of its own (true), or counted (false).
   * `throttled`: the throttle refused it, so it is always counted.
   */
  admit(ip: string | null, throttled: boolean): boolean {
    const now = this.now();
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now;
      this.written = 0;
    }
    if (!throttled && this.written < this.perWindow) {
      this.written++;
      return true;
    }
    const address = ip ?? OTHER_ADDRESSES;
    const key = this.counted.has(address) || this.counted.size < this.maxAddresses ? address : OTHER_ADDRESSES;
    let count = this.counted.get(key);
    if (!count) {
      count = { ip: key, from: now, until: now, throttled: 0, failed: 0 };
      this.counted.set(key, count);
    }
    count.until = now;
    if (throttled) count.throttled++;
    else count.failed++;
    return false;
  }

  /** The counts whose window has closed (all of them with `all`), taken out to be written. */
  take(all = false): CountedAttempts[] {
    const now = this.now();
    const out: CountedAttempts[] = [];
    for (const [key, count] of this.counted) {
      if (all || now - count.from >= this.windowMs) {
        out.push(count);
        this.counted.delete(key);
      }
    }
    return out;
  }

  /** Addresses being counted now. */
  get size(): number {
    return this.counted.size;
  }
}
