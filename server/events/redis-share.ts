import type { PollOutcome, PollShare } from './withdrawal-hub.js';
import type { RedisShare } from '../redis/share.js';

const POLLS_CHANNEL = 'withdrawal-polls';
const LOCK_KEY = 'withdrawal-poll:';
const COUNT_KEY = 'withdrawal-count:';
const STREAMS_KEY = 'event-streams:';

interface PollMessage {
  /** The publishing process, which already applied its own outcome. */
  from: string;
  key: string;
  outcome: PollOutcome;
}

function parsePollMessage(message: string): PollMessage | null {
  try {
    const value = JSON.parse(message) as Partial<PollMessage>;
    const outcome = value.outcome as Partial<{ status: string; count: unknown }> | undefined;
    if (typeof value.from !== 'string' || typeof value.key !== 'string' || !outcome) return null;
    if (outcome.status === 'ended') return { from: value.from, key: value.key, outcome: { status: 'ended' } };
    if (outcome.status === 'count' && typeof outcome.count === 'number') {
      return { from: value.from, key: value.key, outcome: { status: 'count', count: outcome.count } };
    }
  } catch {
    // Not ours: another program publishing on the channel.
  }
  return null;
}

/**
 * One withdrawal poll per session and period across every replica. Periods are numbered by the
 * wall clock, so every replica names the same one; the first to set the period's short lock
 * polls and publishes the count, the others take it from the message (or, joining late, from the
 * last count kept beside the lock). Keys are the hub's session keys, which are digests: no token
 * is written to Redis. While Redis is away each replica polls its own sessions, as without Redis.
 */
export class RedisPollShare implements PollShare {
  constructor(
    private readonly share: RedisShare,
    private readonly pollMs: number,
    apply: (key: string, outcome: PollOutcome) => void,
  ) {
    share.listen(POLLS_CHANNEL, (message) => {
      const parsed = parsePollMessage(message);
      if (parsed && parsed.from !== share.replicaId) apply(parsed.key, parsed.outcome);
    });
  }

  async claim(key: string): Promise<{ poll: true } | { poll: false; count: number | null }> {
    const { share } = this;
    if (!share.available) return { poll: true };
    const period = Math.floor(Date.now() / this.pollMs);
    try {
      // The lock outlives its period a little, so a replica whose clock lags cannot take it again.
      const taken = await share.command.set(
        share.key(`${LOCK_KEY}${key}:${period}`),
        share.replicaId,
        'PX',
        this.pollMs * 2,
        'NX',
      );
      if (taken === 'OK') return { poll: true };
      const last = await share.command.get(share.key(COUNT_KEY + key));
      const count = last === null ? null : Number(last);
      return { poll: false, count: Number.isFinite(count) ? count : null };
    } catch {
      return { poll: true };
    }
  }

  publish(key: string, outcome: PollOutcome): void {
    const { share } = this;
    if (!share.available) return;
    const message = JSON.stringify({ from: share.replicaId, key, outcome } satisfies PollMessage);
    const countKey = share.key(COUNT_KEY + key);
    const kept =
      outcome.status === 'count'
        ? share.command.set(countKey, String(outcome.count), 'PX', this.pollMs * 3)
        : share.command.del(countKey);
    void kept.then(
      () => share.publish(POLLS_CHANNEL, message),
      () => undefined,
    );
  }
}

const TAKE_SLOT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`;

/** A stream's slot lives this long unless renewed; a replica that dies frees its slots by this. */
const SLOT_TTL_MS = 90_000;
const RENEW_EVERY_MS = 30_000;

/**
 * EVENTS_MAX_PER_SESSION across every replica: each open stream holds a member of its session's
 * sorted set, scored by when it lapses unless renewed. Streams opened while Redis was away are
 * written there once it is back, by the renewal.
 */
export class RedisStreamSlots {
  private readonly open = new Map<string, { sessionId: string; member: string }>();
  private sequence = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly share: RedisShare,
    private readonly max: number,
  ) {
    this.timer = setInterval(() => void this.renew(), RENEW_EVERY_MS);
    this.timer.unref();
    share.onReady(() => void this.renew());
  }

  /**
   * A slot for a new stream of the session (its name, to release), or null when the session has
   * all it may have. While Redis is away every stream gets one, and only this process's own count
   * holds.
   */
  async take(sessionId: string): Promise<string | null> {
    const { share } = this;
    const member = `${share.replicaId}:${++this.sequence}`;
    if (share.available) {
      const now = Date.now();
      try {
        const key = share.key(STREAMS_KEY + sessionId);
        const taken = await share.command.eval(
          TAKE_SLOT,
          1,
          key,
          now,
          this.max,
          now + SLOT_TTL_MS,
          member,
          SLOT_TTL_MS,
        );
        if (Number(taken) !== 1) return null;
      } catch {
        // Counted here alone; the renewal writes it to Redis once it answers.
      }
    }
    this.open.set(member, { sessionId, member });
    return member;
  }

  release(member: string): void {
    const held = this.open.get(member);
    if (!held) return;
    this.open.delete(member);
    if (!this.share.available) return;
    void this.share.command.zrem(this.share.key(STREAMS_KEY + held.sessionId), member).catch(() => undefined);
  }

  close(): void {
    clearInterval(this.timer);
    const held = [...this.open.values()];
    this.open.clear();
    if (!this.share.available || held.length === 0) return;
    const pipeline = this.share.command.pipeline();
    for (const { sessionId, member } of held) pipeline.zrem(this.share.key(STREAMS_KEY + sessionId), member);
    void pipeline.exec().catch(() => undefined);
  }

  private async renew(): Promise<void> {
    if (!this.share.available || this.open.size === 0) return;
    const until = Date.now() + SLOT_TTL_MS;
    const pipeline = this.share.command.pipeline();
    for (const { sessionId, member } of this.open.values()) {
      const key = this.share.key(STREAMS_KEY + sessionId);
      pipeline.zadd(key, until, member).pexpire(key, SLOT_TTL_MS);
    }
    await pipeline.exec().catch(() => undefined);
  }
}
