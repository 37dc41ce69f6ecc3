/** What one poll of the backend told us about a session. */
export type PollOutcome = { status: 'count'; count: number } | { status: 'ended' };

/** One open stream (one browser tab) of a session, as the hub sees it. */
export interface HubSubscriber {
  onCount(count: number): void;
  /** The backend no longer knows the session: the subscriber is dropped and must end its stream. */
  onEnded(): void;
}

/**
 * Shares polling with other processes (replicas, workers): for each session and period one of
 * them polls the backend and publishes the outcome; the others take it from there.
 */
export interface PollShare {
  /**
   * Whether this process polls the session this period. When another one does, the last count
   * it published (null when none is known yet) stands in for the poll.
   */
  claim(key: string): Promise<{ poll: true } | { poll: false; count: number | null }>;
  /** Hands this process's poll outcome to the others (they receive it through WithdrawalHub.apply). */
  publish(key: string, outcome: PollOutcome): void;
}

export interface WithdrawalHubOptions<S> {
  pollMs: number;
  /** Polling shared with other processes; absent, this process polls each of its sessions itself. */
  share?: PollShare;
  /** Asks the backend once. Throwing means "no answer this time": the last count is kept. */
  poll(session: S): Promise<PollOutcome>;
  /** Called on the first failure of a streak only, so a backend outage logs one line per session. */
  onPollFailure?(error: unknown, session: S): void;
  /** Called when a poll succeeds after a failure streak. */
  onPollRecovered?(session: S): void;
  /** Called once when the backend ended a session, after its subscribers were told. */
  onSessionEnded?(key: string, session: S): void;
}

interface Entry<S> {
  key: string;
  session: S;
  subscribers: Set<HubSubscriber>;
  /** null until the first successful poll. */
  count: number | null;
  timer: NodeJS.Timeout | null;
  failing: boolean;
}

/**
 * Fans one upstream poll per session out to every tab of that session. Polling for a session
 * starts with its first subscriber and stops with its last one, or when the backend says the
 * session is over, so upstream load follows sessions, not tabs.
 */
export class WithdrawalHub<S> {
  private readonly entries = new Map<string, Entry<S>>();
  private closed = false;

  constructor(private readonly options: WithdrawalHubOptions<S>) {
    if (!(options.pollMs > 0)) throw new RangeError('pollMs must be positive');
  }

  /** Number of sessions being polled. */
  get sessionCount(): number {
    return this.entries.size;
  }

  /** Last count known for a session, or null when none is known (or the session is not polled). */
  lastCount(key: string): number | null {
    return this.entries.get(key)?.count ?? null;
  }

  /**
   * Adds a tab. A session already polled hands over its last count at once, without a new upstream
   * call; a new session is polled immediately and its subscribers hear the first answer.
   */
  subscribe(key: string, session: S, subscriber: HubSubscriber): void {
    if (this.closed) throw new Error('the withdrawal hub is closed');
    const existing = this.entries.get(key);
    if (existing) {
      existing.subscribers.add(subscriber);
      if (existing.count !== null) subscriber.onCount(existing.count);
      return;
    }
    const entry: Entry<S> = {
      key,
      session,
      subscribers: new Set([subscriber]),
      count: null,
      timer: null,
      failing: false,
    };
    this.entries.set(key, entry);
    void this.run(entry);
  }

  unsubscribe(key: string, subscriber: HubSubscriber): void {
    const entry = this.entries.get(key);
    if (!entry || !entry.subscribers.delete(subscriber)) return;
    if (entry.subscribers.size === 0) this.drop(entry);
  }

  /** An outcome another process polled for a session, applied as if this process had polled. */
  apply(key: string, outcome: PollOutcome): void {
    const entry = this.entries.get(key);
    if (entry) this.settle(entry, outcome);
  }

  /** Stops every poll. Subscribers are not told: whoever closes the hub ends their streams. */
  close(): void {
    this.closed = true;
    for (const entry of this.entries.values()) this.drop(entry);
  }

  private drop(entry: Entry<S>): void {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
  }

  private async run(entry: Entry<S>): Promise<void> {
    entry.timer = null;
    const started = performance.now();
    let outcome: PollOutcome | null = null;
    let failure: unknown = null;
    let polled = true;
    const share = this.options.share;
    try {
      const claim = share ? await share.claim(entry.key) : ({ poll: true } as const);
      if (claim.poll) outcome = await this.options.poll(entry.session);
      else {
        polled = false;
        if (claim.count !== null) outcome = { status: 'count', count: claim.count };
      }
    } catch (error) {
      failure = error ?? new Error('poll failed');
    }
    // The last tab may have left, or the hub closed, while the poll was in flight.
    if (this.entries.get(entry.key) !== entry) return;

    if (polled && outcome === null) {
      if (!entry.failing) {
        entry.failing = true;
        this.safely(() => this.options.onPollFailure?.(failure, entry.session));
      }
    } else if (outcome !== null) {
      if (polled && share) this.safely(() => share.publish(entry.key, outcome));
      if (!this.settle(entry, outcome)) return;
    }

    // Periods are counted from the start of each poll so a slow backend does not stretch them.
    const delay = Math.max(0, this.options.pollMs - (performance.now() - started));
    entry.timer = setTimeout(() => void this.run(entry), delay);
    entry.timer.unref();
  }

  /** Applies an answer to a session; false when the session ended with it. */
  private settle(entry: Entry<S>, outcome: PollOutcome): boolean {
    if (entry.failing) {
      entry.failing = false;
      this.safely(() => this.options.onPollRecovered?.(entry.session));
    }
    if (outcome.status === 'ended') {
      this.end(entry);
      return false;
    }
    const count = outcome.count;
    if (count !== entry.count) {
      entry.count = count;
      for (const subscriber of [...entry.subscribers]) this.safely(() => subscriber.onCount(count));
    }
    return true;
  }

  private end(entry: Entry<S>): void {
    this.drop(entry);
    for (const subscriber of [...entry.subscribers]) this.safely(() => subscriber.onEnded());
    entry.subscribers.clear();
    this.safely(() => this.options.onSessionEnded?.(entry.key, entry.session));
  }

  /** One tab's broken stream must not stop the others from hearing the count. */
  private safely(fn: () => void): void {
    try {
      fn();
    } catch {
      // The subscriber cleans itself up through its own close handling.
    }
  }
}
