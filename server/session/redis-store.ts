import { createHash } from 'node:crypto';
import type { AttemptCounter, ThrottleRule } from './login-throttle.js';
import { DEFAULT_MAX_REVOCATIONS, MemoryRevocations, type RevocationStore } from './revocations.js';
import type { RedisShare } from '../redis/share.js';

const REVOKED_KEY = 'session:revoked';
/** The shared floor: sessions expiring no later than this number (epoch ms) are refused. */
const FLOOR_KEY = 'session:revoked-floor';
const REVOKED_CHANNEL = 'session:revoked';
const ATTEMPTS_KEY = 'login-attempts:';
/** Revocations written per command when resynchronising. */
const RESYNC_BATCH = 1_000;

interface Revocation {
  id: string;
  until: number;
  /** The shared floor after this revocation. */
  floor: number;
}

function parseRevocation(message: string): Revocation | null {
  try {
    const value = JSON.parse(message) as Partial<Revocation>;
    if (typeof value.id === 'string' && typeof value.until === 'number') {
      return { id: value.id, until: value.until, floor: typeof value.floor === 'number' ? value.floor : 0 };
    }
  } catch {
    // Not ours: another program publishing on the channel.
  }
  return null;
}

/**
 * Raises the floor (KEYS[2]) to ARGV[1] when higher; returns the floor. Shared by the cap below
 * and by a replica writing back the floor it raised alone while Redis was away.
 */
const RAISE_FLOOR = `
local function raise(key, text)
  local floor = redis.call('GET', key) or '0'
  if tonumber(text) > tonumber(floor) then
    redis.call('SET', key, text)
    return text
  end
  return floor
end
`;

/**
 * One logout, atomically: record it (keeping the latest expiry), sweep the expired ones, and past
 * the cap forget a tenth of the ids, those closest to their own expiry, raising the floor to the
 * last of them so they stay refused. Returns the floor.
 */
const REVOKE = `${RAISE_FLOOR}
local now = tonumber(ARGV[3])
local cap = tonumber(ARGV[4])
redis.call('ZADD', KEYS[1], 'GT', ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local size = redis.call('ZCARD', KEYS[1])
if size > cap then
  local drop = size - math.floor(cap * 0.9)
  local last = redis.call('ZRANGE', KEYS[1], drop - 1, drop - 1, 'WITHSCORES')
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, drop - 1)
  return raise(KEYS[2], last[2])
end
return redis.call('GET', KEYS[2]) or '0'
`;

const WRITE_FLOOR = `${RAISE_FLOOR}
return raise(KEYS[1], ARGV[1])
`;

/**
 * Revocations shared by every replica: a sorted set in Redis (session id, scored by when it may be
 * forgotten) and a message to every process at each logout. Each process keeps a local copy, so a
 * logout heard once is refused even while Redis is away; while Redis answers, an id the copy lacks
 * is looked up there too, so a logout on one replica is refused by the next call to another. A
 * logout during an outage is kept here and written to Redis when it is back.
 *
 * Needs Redis 6.2 or later (ZADD GT).
 */
export class RedisRevocations implements RevocationStore {
  private readonly local: MemoryRevocations;
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(
    private readonly share: RedisShare,
    now: () => number = Date.now,
    maxEntries: number = DEFAULT_MAX_REVOCATIONS,
  ) {
    this.now = now;
    this.maxEntries = maxEntries;
    this.local = new MemoryRevocations({ now, maxEntries });
    share.listen(REVOKED_CHANNEL, (message) => {
      const revocation = parseRevocation(message);
      if (!revocation) return;
      this.local.raiseFloor(revocation.floor);
      this.local.add(revocation.id, revocation.until);
    });
    share.onReady(() => void this.resync());
  }

  async revoke(id: string, until: number): Promise<void> {
    this.local.add(id, until);
    // A logout Redis could not take now is written with the others when it is back (resync).
    await this.store(id, until);
  }

  async isRevoked(id: string, until: number): Promise<boolean> {
    if (this.local.has(id, until)) return true;
    if (!this.share.available) return false;
    try {
      // One round trip for both: a replica that never heard of the floor learns it here.
      const results =
        (await this.share.command
          .multi()
          .zscore(this.share.key(REVOKED_KEY), id)
          .get(this.share.key(FLOOR_KEY))
          .exec()) ?? [];
      const [score, floor] = results.map(([error, value]) => {
        if (error) throw error;
        return value as string | null;
      });
      if (floor != null) this.local.raiseFloor(Number(floor));
      if (until <= this.local.floor) return true;
      if (score == null || Number(score) <= this.now()) return false;
      this.local.add(id, Number(score));
      return true;
    } catch {
      // Redis failed mid-call: the local copy holds every logout heard so far.
      return false;
    }
  }

  subscribe(listener: (id: string) => void): () => void {
    return this.local.subscribe(listener);
  }

  subscribeFloor(listener: (floor: number) => void): () => void {
    return this.local.subscribeFloor(listener);
  }

  async close(): Promise<void> {
    await this.local.close();
  }

  private async store(id: string, until: number): Promise<boolean> {
    if (!this.share.available) return false;
    const { command } = this.share;
    let floor: number;
    try {
      const keys = [this.share.key(REVOKED_KEY), this.share.key(FLOOR_KEY)];
      floor = Number(await command.eval(REVOKE, 2, ...keys, id, until, this.now(), this.maxEntries));
    } catch {
      return false;
    }
    this.local.raiseFloor(floor);
    return this.share.publish(REVOKED_CHANNEL, JSON.stringify({ id, until, floor } satisfies Revocation));
  }

  /**
   * Writes every logout this process knows (those of an outage, and those a Redis restarted
   * without its data forgot), then takes over every logout other replicas made meanwhile.
   */
  private async resync(): Promise<void> {
    const key = this.share.key(REVOKED_KEY);
    const floorKey = this.share.key(FLOOR_KEY);
    try {
      // A floor this replica raised alone (its copy overflowed during an outage) holds for all.
      if (this.local.floor > 0) await this.share.command.eval(WRITE_FLOOR, 1, floorKey, this.local.floor);
      const known = this.local.list();
      for (let i = 0; i < known.length; i += RESYNC_BATCH) {
        const members = known.slice(i, i + RESYNC_BATCH).flatMap(([id, until]) => [until, id]);
        await this.share.command.zadd(key, 'GT', ...members);
      }
      this.local.raiseFloor(Number((await this.share.command.get(floorKey)) ?? 0));
      const stored = await this.share.command.zrangebyscore(key, `(${this.now()}`, '+inf', 'WITHSCORES');
      for (let i = 0; i + 1 < stored.length; i += 2) this.local.add(stored[i]!, Number(stored[i + 1]));
    } catch {
      // Lost again already: the next reconnection resynchronises.
    }
  }
}

/**
 * One attempt, atomically: forget an expired count, refuse while the doubling wait runs, else
 * count the attempt. The same arithmetic as throttleDelayMs, so the rules do not depend on where
 * the counts live.
 */
const TAKE = `
local count = tonumber(redis.call('HGET', KEYS[1], 'count') or '0')
local lastAt = tonumber(redis.call('HGET', KEYS[1], 'lastAt') or '0')
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local windowMs = tonumber(ARGV[3])
if count >= limit then
  local doublings = math.min(count - limit, 30)
  local delay = math.min(tonumber(ARGV[5]), tonumber(ARGV[4]) * 2 ^ doublings)
  local wait = lastAt + delay - now
  if wait > 0 then return math.ceil(wait) end
end
redis.call('HSET', KEYS[1], 'count', count + 1, 'lastAt', now)
redis.call('PEXPIRE', KEYS[1], windowMs)
return 0
`;

const GIVE = `
local count = redis.call('HINCRBY', KEYS[1], 'count', -1)
if count <= 0 then redis.call('DEL', KEYS[1]) end
return count
`;

/**
 * Failed-login counts shared by every replica, one hash per key with the count's own expiry.
 * While Redis is away the counts go to this process's own counter, so logins go on, throttled per
 * replica for the time of the outage.
 */
export class RedisAttemptCounter implements AttemptCounter {
  constructor(
    private readonly share: RedisShare,
    private readonly fallback: AttemptCounter,
  ) {}

  async take(key: string, rule: ThrottleRule, now: number): Promise<number> {
    const result = await this.run(TAKE, key, [now, rule.limit, rule.windowMs, rule.baseDelayMs, rule.maxDelayMs]);
    if (result !== null) return Number(result);
    return this.fallback.take(key, rule, now);
  }

  async give(key: string): Promise<void> {
    if ((await this.run(GIVE, key, [])) === null) await this.fallback.give(key);
  }

  async clear(key: string): Promise<void> {
    await this.fallback.clear(key);
    if (!this.share.available) return;
    try {
      await this.share.command.del(this.redisKey(key));
    } catch {
      // Left to expire with its window.
    }
  }

  async close(): Promise<void> {
    await this.fallback.close();
  }

  /** A digest: account names and client addresses stay out of Redis. */
  private redisKey(key: string): string {
    return this.share.key(ATTEMPTS_KEY + createHash('sha256').update(key).digest('base64url'));
  }

  private async run(script: string, key: string, args: Array<number>): Promise<unknown> {
    if (!this.share.available) return null;
    try {
      return await this.share.command.eval(script, 1, this.redisKey(key), ...args);
    } catch {
      return null;
    }
  }
}
