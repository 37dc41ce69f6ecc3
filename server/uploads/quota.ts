import type { PrimaryChannel, RpcHandler } from '../cluster/ipc.js';
import type { RedisShare } from '../redis/share.js';

/**
 * Per-account daily upload quotas (UPLOAD_DAILY_MAX_FILES, UPLOAD_DAILY_MAX_BYTES): what one
 * backend account may put on the file server in one UTC day, so a session, stolen or careless,
 * cannot fill its disk. An upload is charged before its first byte is read (one file, its declared
 * length), which fails when either count would pass its limit; the bytes left cap the stream of a
 * body of unknown length; the charge is settled at the end (the bytes measured) or given back
 * when nothing was stored.
 */

export interface QuotaLimits {
  maxFiles: number;
  maxBytes: number;
}

export interface QuotaStore {
  /** Counts `files` and `bytes` when both stay within the limits and answers the bytes left; null (and nothing counted) otherwise. */
  charge(key: string, files: number, bytes: number, limits: QuotaLimits): Promise<number | null>;
  /** Adds to the counts unconditionally (negative: gives back a charge). */
  adjust(key: string, files: number, bytes: number): Promise<void>;
}

/** The quota's key: the account and the UTC day, so counts start afresh at midnight UTC. */
export function quotaKey(userId: string, now: number): string {
  return `${new Date(now).toISOString().slice(0, 10)}:${userId}`;
}

/** One process's counts (or the cluster primary's, for its workers); a day's keys go once the next day starts. */
export class MemoryQuotaStore implements QuotaStore {
  private readonly counts = new Map<string, { files: number; bytes: number }>();
  private day = '';

  async charge(key: string, files: number, bytes: number, limits: QuotaLimits): Promise<number | null> {
    return this.chargeNow(key, files, bytes, limits);
  }

  async adjust(key: string, files: number, bytes: number): Promise<void> {
    this.adjustNow(key, files, bytes);
  }

  chargeNow(key: string, files: number, bytes: number, limits: QuotaLimits): number | null {
    const used = this.of(key);
    if (used.files + files > limits.maxFiles || used.bytes + bytes > limits.maxBytes) return null;
    used.files += files;
    used.bytes += bytes;
    return limits.maxBytes - used.bytes;
  }

  adjustNow(key: string, files: number, bytes: number): void {
    const used = this.of(key);
    used.files = Math.max(0, used.files + files);
    used.bytes = Math.max(0, used.bytes + bytes);
  }

  private of(key: string): { files: number; bytes: number } {
    const day = key.slice(0, 10);
    if (day !== this.day) {
      // A new day: yesterday's counts are of no use any more.
      for (const old of this.counts.keys()) if (!old.startsWith(day)) this.counts.delete(old);
      this.day = day;
    }
    let used = this.counts.get(key);
    if (!used) {
      used = { files: 0, bytes: 0 };
      this.counts.set(key, used);
    }
    return used;
  }
}

export const UPLOAD_QUOTA_IPC = { charge: 'uploadQuota.charge', adjust: 'uploadQuota.adjust' } as const;

type Params = { key: string; files: number; bytes: number; limits: QuotaLimits };

/** The cluster primary's side: one set of counts for every worker. */
export function uploadQuotaPrimaryHandlers(): Record<string, RpcHandler> {
  const store = new MemoryQuotaStore();
  const of = (params: unknown) => params as Params;
  return {
    [UPLOAD_QUOTA_IPC.charge]: (p) => store.chargeNow(of(p).key, of(p).files, of(p).bytes, of(p).limits),
    [UPLOAD_QUOTA_IPC.adjust]: (p) => store.adjustNow(of(p).key, of(p).files, of(p).bytes),
  };
}

/** A cluster worker's counts (WORKERS > 1 without Redis): the primary's. */
export class IpcQuotaStore implements QuotaStore {
  constructor(private readonly channel: PrimaryChannel) {}

  charge(key: string, files: number, bytes: number, limits: QuotaLimits): Promise<number | null> {
    return this.channel.call<number | null>(UPLOAD_QUOTA_IPC.charge, { key, files, bytes, limits });
  }

  async adjust(key: string, files: number, bytes: number): Promise<void> {
    await this.channel.call(UPLOAD_QUOTA_IPC.adjust, { key, files, bytes });
  }
}

/** KEYS: the account's hash of the day. ARGV: files, bytes, max files, max bytes. Answers the bytes left, or -1. */
const CHARGE = `
local files = tonumber(redis.call('HGET', KEYS[1], 'files') or '0')
local bytes = tonumber(redis.call('HGET', KEYS[1], 'bytes') or '0')
if files + tonumber(ARGV[1]) > tonumber(ARGV[3]) or bytes + tonumber(ARGV[2]) > tonumber(ARGV[4]) then return -1 end
redis.call('HINCRBY', KEYS[1], 'files', ARGV[1])
local total = redis.call('HINCRBY', KEYS[1], 'bytes', ARGV[2])
redis.call('EXPIRE', KEYS[1], 172800)
return tonumber(ARGV[4]) - total
`;

/**
 * Counts shared by every replica (REDIS_URL). While Redis is away each process counts in its own
 * memory rather than refusing every upload: the quota then holds per process until it is back.
 */
export class RedisQuotaStore implements QuotaStore {
  private readonly local = new MemoryQuotaStore();

  constructor(private readonly share: RedisShare) {}

  async charge(key: string, files: number, bytes: number, limits: QuotaLimits): Promise<number | null> {
    if (!this.share.available) return this.local.charge(key, files, bytes, limits);
    try {
      const left = Number(
        await this.share.command.eval(CHARGE, 1, this.redisKey(key), files, bytes, limits.maxFiles, limits.maxBytes),
      );
      return left < 0 ? null : left;
    } catch {
      return this.local.charge(key, files, bytes, limits);
    }
  }

  async adjust(key: string, files: number, bytes: number): Promise<void> {
    if (!this.share.available) return this.local.adjust(key, files, bytes);
    try {
      const redisKey = this.redisKey(key);
      await this.share.command.multi().hincrby(redisKey, 'files', files).hincrby(redisKey, 'bytes', bytes).exec();
    } catch {
      await this.local.adjust(key, files, bytes);
    }
  }

  private redisKey(key: string): string {
    return this.share.key(`upload-quota:${encodeURIComponent(key)}`);
  }
}
