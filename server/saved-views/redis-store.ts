import type { RedisShare } from '../redis/share.js';
import type { SavedView } from '../contract/saved-views.js';
import { GatewayError } from '../errors.js';
import type { PutOutcome, SavedViewStore } from './store.js';

/**
 * Saves one view: replaces a view of that name in its place, else adds it last unless the list is
 * full. Each value is "<position>\t<query>", the position taken from a counter beside the hash.
 * KEYS: the views hash, the position counter. ARGV: name, query, the most views kept.
 */
const PUT = `
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old then
  local pos = string.match(old, '^(%d+)\t')
  redis.call('HSET', KEYS[1], ARGV[1], (pos or '0') .. '\t' .. ARGV[2])
  return 1
end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
local pos = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], ARGV[1], pos .. '\t' .. ARGV[2])
return 1
`;

function decode(fields: Record<string, string>): SavedView[] {
  const rows: { pos: number; view: SavedView }[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const tab = value.indexOf('\t');
    if (tab < 0) continue;
    rows.push({ pos: Number(value.slice(0, tab)) || 0, view: { name, query: value.slice(tab + 1) } });
  }
  return rows.sort((a, b) => a.pos - b.pos).map((r) => r.view);
}

/**
 * Views shared by every replica and worker: one hash per administrator and list. There is no
 * local fallback: a view saved where the other replicas cannot see it would come and go with the
 * load balancer, so while Redis is away the calls answer 503 SAVED_VIEWS_UNAVAILABLE.
 */
export class RedisSavedViewStore implements SavedViewStore {
  constructor(private readonly share: RedisShare) {}

  async open(): Promise<void> {}

  list(userId: string, resource: string): Promise<SavedView[]> {
    return this.run(async (redis) => decode(await redis.hgetall(this.keys(userId, resource).views)));
  }

  put(userId: string, resource: string, view: SavedView, max: number): Promise<PutOutcome> {
    return this.run(async (redis) => {
      const { views, seq } = this.keys(userId, resource);
      const saved = (await redis.eval(PUT, 2, views, seq, view.name, view.query, max)) === 1;
      if (!saved) return { saved: false, reason: 'full' };
      return { saved: true, list: decode(await redis.hgetall(views)) };
    });
  }

  remove(userId: string, resource: string, name: string): Promise<boolean> {
    return this.run(async (redis) => (await redis.hdel(this.keys(userId, resource).views, name)) === 1);
  }

  async close(): Promise<void> {}

  /** Ids are encoded, so a user id with a colon cannot reach another administrator's keys; the hash tag keeps both keys on one slot. */
  private keys(userId: string, resource: string): { views: string; seq: string } {
    const tag = `{${encodeURIComponent(userId)}:${encodeURIComponent(resource)}}`;
    return { views: this.share.key(`saved-views:${tag}`), seq: this.share.key(`saved-views-seq:${tag}`) };
  }

  private async run<T>(operation: (redis: RedisShare['command']) => Promise<T>): Promise<T> {
    if (!this.share.available) throw new GatewayError('SAVED_VIEWS_UNAVAILABLE', 'Redis is not connected');
    try {
      return await operation(this.share.command);
    } catch (error) {
      if (error instanceof GatewayError) throw error;
      throw new GatewayError('SAVED_VIEWS_UNAVAILABLE', error instanceof Error ? error.message : String(error), {
        cause: error,
      });
    }
  }
}
