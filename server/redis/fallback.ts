import type { RedisShare } from './share.js';

/**
 * Whether a store kept in Redis (the audit trail, the error log) works from this process's own
 * copy instead, and the one way it tries Redis: an operation is not even sent while the connection
 * is down, and a failing one switches to the local copy. The store's listener hears each switch
 * once, with its reason (a log line, /readyz), not each operation.
 */
export class RedisFallback {
  private active = false;

  constructor(
    private readonly share: RedisShare,
    private readonly onChange: (active: boolean, reason: string) => void,
  ) {}

  /** Whether the last operation went to the local copy because Redis could not be reached. */
  get usingFallback(): boolean {
    return this.active || !this.share.available;
  }

  /**
   * Runs a Redis operation; null (and the switch noted) when Redis is away or fails. `onFailure`
   * runs first on a failure, for what the store must forget (a head that may be stale).
   */
  async run<T>(operation: () => Promise<T>, onFailure?: () => void): Promise<T | null> {
    if (!this.share.available) {
      this.note(true, 'Redis is not connected');
      return null;
    }
    try {
      const value = await operation();
      this.note(false, 'Redis answers again');
      return value;
    } catch (error) {
      onFailure?.();
      this.note(true, error instanceof Error ? error.message : String(error));
      return null;
    }
  }

  note(active: boolean, reason: string): void {
    if (active === this.active) return;
    this.active = active;
    this.onChange(active, reason);
  }
}
