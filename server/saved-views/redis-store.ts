import type { RedisShare } from '../redis/share.js';
import type { SavedView } from '../contract/saved-views.js';
import { GatewayError } from '../errors.js';
import type { PutOutcome, SavedViewStore, ViewLimits } from './store.js';

/**
 * Saves one view: replaces a view of that name in its place, else adds it last unless the list, or
 * the administrator's views over every list, are full. Each value is "<position>\t<query>", the
 * position taken from a counter beside the hash.
 * KEYS: the views hash, the position counter, then the administrator's hash of every list the
 * console has (a fixed number, so a save costs the same whatever anyone saved).
 * ARGV: name, query, the most views of one list, the most of one administrator.
 * Answers 1 saved, 0 the list is full, -1 the administrator's views are.
 */
const PUT = `
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old then
  local pos = string.match(old, '^(%d+)\t')
  redis.call('HSET', KEYS[1], ARGV[1], (pos or '0') .. '\t' .. ARGV[2])
  return 1
end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
local total = 0
for i = 3, #KEYS do total = total + redis.call('HLEN', KEYS[i]) end
if total >= tonumber(ARGV[4]) then return -1 end
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
  /** `lists`: the id of every list the console has, whose views count towards an administrator's total. */
  constructor(
    private readonly share: RedisShare,
    private readonly lists: readonly string[],
  ) {}

  async open(): Promise<void> {}

  list(userId: string, resource: string): Promise<SavedView[]> {
    return this.run(async (redis) => decode(await redis.hgetall(this.keys(userId, resource).views)));
  }

  put(userId: string, resource: string, view: SavedView, limits: ViewLimits): Promise<PutOutcome> {
    return this.run(async (redis) => {
      const { views, seq } = this.keys(userId, resource);
      const every = this.lists.map((list) => this.keys(userId, list).views);
      const keys = [views, seq, ...every];
      const args = [view.name, view.query, limits.perList, limits.perAdmin];
      const answer = Number(await redis.eval(PUT, keys.length, ...keys, ...args));
      if (answer === 0) return { saved: false, reason: 'full', per: 'list' };
      if (answer === -1) return { saved: false, reason: 'full', per: 'administrator' };
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
