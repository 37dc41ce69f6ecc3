import type { RedisShare } from '../redis/share.js';
import { GatewayError } from '../errors.js';
import { dropAt, parseHold, type Hold, type StoredHold } from './hold.js';
import { DEFAULT_CLAIM_STALE_MS, type ApprovalStore, type ClaimOutcome, type CreateOutcome } from './store.js';

const HOLD = 'approvals:hold:';
const CLAIM = 'approvals:claim:';
const SUBJECT = 'approvals:subject:';
const INDEX = 'approvals:index';

/**
 * A new hold, unless its subject has one that has not expired (answered by its id instead). The
 * subject's value is "<id> <expiresAt>"; an expired hold on it is dropped for the new one.
 * KEYS: subject, new hold, index. ARGV: id, hold JSON, its time to live (ms), its drop time,
 * its expiry, now, the hold and claim key prefixes.
 */
const CREATE = `
local current = redis.call('GET', KEYS[1])
if current then
  local old, expires = string.match(current, '^(%S+) (%d+)$')
  if old and tonumber(expires) >= tonumber(ARGV[6]) then return old end
  if old then
    redis.call('DEL', ARGV[7] .. old, ARGV[8] .. old)
    redis.call('ZREM', KEYS[3], old)
  end
end
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[5], 'PX', ARGV[3])
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1])
return false
`;

/** Deletes a claim only when it is still this attempt's. KEYS: claim. ARGV: token. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * Removes a hold whose claim is still this attempt's, with its subject (when it still names this
 * hold) and index entry. KEYS: claim, hold, subject, index. ARGV: token, id.
 */
const REMOVE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
local current = redis.call('GET', KEYS[3])
if current and string.match(current, '^(%S+) ') == ARGV[2] then redis.call('DEL', KEYS[3]) end
redis.call('ZREM', KEYS[4], ARGV[2])
return 1
`;

/**
 * Holds shared by every replica and worker: one key per hold (JSON, living until it is dropped),
 * one per subject (so two replicas never hold the same records twice), one per claim (SET NX,
 * expiring by itself should its process die), and a sorted index to list them by. There is no
 * local fallback: a hold one replica could not share would be confirmed twice or not at all, so
 * while Redis is away held calls are refused (503 APPROVALS_UNAVAILABLE) and nothing is sent.
 */
export class RedisApprovalStore implements ApprovalStore {
  private readonly claimStaleMs: number;

  constructor(
    private readonly share: RedisShare,
    options: { claimStaleMs?: number } = {},
  ) {
    this.claimStaleMs = options.claimStaleMs ?? DEFAULT_CLAIM_STALE_MS;
  }

  async open(): Promise<void> {}

  create(hold: Hold, now: number): Promise<CreateOutcome> {
    return this.run(async (redis, key) => {
      const ttl = Math.max(1, dropAt(hold) - now);
      const existing = (await redis.eval(
        CREATE,
        3,
        key(SUBJECT + hold.subject),
        key(HOLD + hold.id),
        key(INDEX),
        hold.id,
        JSON.stringify(hold),
        ttl,
        dropAt(hold),
        hold.expiresAt,
        now,
        key(HOLD),
        key(CLAIM),
      )) as string | null;
      if (existing === null) return { created: true };
      const found = await this.read(existing);
      // Gone between the two calls (declined meanwhile): the caller may simply try again.
      if (!found)
        throw new GatewayError('APPROVAL_CONFLICT', 'the pending hold on these records changed meanwhile: try again');
      return { created: false, existing: found };
    });
  }

  get(id: string): Promise<StoredHold | null> {
    return this.run(() => this.read(id));
  }

  list(now: number): Promise<StoredHold[]> {
    return this.run(async (redis, key) => {
      await redis.zremrangebyscore(key(INDEX), '-inf', now);
      const ids = await redis.zrange(key(INDEX), 0, -1);
      if (ids.length === 0) return [];
      const holds = await redis.mget(...ids.map((id) => key(HOLD + id)));
      const claims = await redis.mget(...ids.map((id) => key(CLAIM + id)));
      const out: StoredHold[] = [];
      const gone: string[] = [];
      ids.forEach((id, i) => {
        const hold = decode(holds[i] ?? null);
        if (hold) out.push({ hold, claim: claims[i] ?? null });
        else gone.push(id);
      });
      if (gone.length > 0) await redis.zrem(key(INDEX), ...gone);
      return out;
    });
  }

  claim(id: string, token: string): Promise<ClaimOutcome> {
    return this.run(async (redis, key) => {
      const taken = await redis.set(key(CLAIM + id), token, 'PX', this.claimStaleMs, 'NX');
      if (taken === null) return { claimed: false, reason: 'busy' };
      const hold = decode(await redis.get(key(HOLD + id)));
      if (hold) return { claimed: true, hold };
      await redis.eval(RELEASE, 1, key(CLAIM + id), token);
      return { claimed: false, reason: 'missing' };
    });
  }

  async release(id: string, token: string): Promise<void> {
    await this.run((redis, key) => redis.eval(RELEASE, 1, key(CLAIM + id), token));
  }

  remove(id: string, token: string): Promise<boolean> {
    return this.run(async (redis, key) => {
      const hold = decode(await redis.get(key(HOLD + id)));
      const subject = key(SUBJECT + (hold?.subject ?? ''));
      return (await redis.eval(REMOVE, 4, key(CLAIM + id), key(HOLD + id), subject, key(INDEX), token, id)) === 1;
    });
  }

  async close(): Promise<void> {}

  private async read(id: string): Promise<StoredHold | null> {
    const [hold, claim] = await this.share.command.mget(this.share.key(HOLD + id), this.share.key(CLAIM + id));
    const parsed = decode(hold ?? null);
    return parsed ? { hold: parsed, claim: claim ?? null } : null;
  }

  /** One step against Redis; while it is away, the caller gets 503 APPROVALS_UNAVAILABLE, never a guess. */
  private async run<T>(
    operation: (redis: RedisShare['command'], key: (name: string) => string) => Promise<T>,
  ): Promise<T> {
    if (!this.share.available) throw new GatewayError('APPROVALS_UNAVAILABLE', 'Redis is not connected');
    try {
      return await operation(this.share.command, (name) => this.share.key(name));
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      throw new GatewayError('APPROVALS_UNAVAILABLE', error instanceof Error ? error.message : String(error), {
        cause: error,
      });
    }
  }
}

function decode(text: string | null): Hold | null {
  if (text === null) return null;
  try {
    return parseHold(JSON.parse(text));
  } catch {
    return null;
  }
}
