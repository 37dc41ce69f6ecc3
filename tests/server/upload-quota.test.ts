import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisShare } from '../../server/redis/share.js';
import { MemoryQuotaStore, RedisQuotaStore, quotaKey, type QuotaStore } from '../../server/uploads/quota.js';
import { hasProgram, skipWithout } from '../support/ci.js';
import { RedisServer } from '../support/redis-server.js';
import { waitUntil } from '../support/wait.js';

/** The daily upload counts on their own: one process's, and Redis's shared by replicas. */

const limits = { maxFiles: 3, maxBytes: 1000 };
const DAY = Date.UTC(2026, 11, 2, 10);

function behaves(stores: () => [QuotaStore, QuotaStore]) {
  it('charges within both limits, refuses past either without counting, and gives a charge back', async () => {
    const [one, two] = stores();
    const key = quotaKey('7', DAY);
    expect(await one.charge(key, 1, 600, limits)).toBe(400);
    // Past the bytes: refused, and nothing counted.
    expect(await two.charge(key, 1, 500, limits)).toBeNull();
    expect(await two.charge(key, 1, 400, limits)).toBe(0);
    await one.adjust(key, -1, -400);
    expect(await two.charge(key, 1, 100, limits)).toBe(300);
    // Past the files: the third is the last.
    expect(await one.charge(key, 1, 0, limits)).toBe(300);
    expect(await two.charge(key, 1, 0, limits)).toBeNull();
    // Another account, and the same account the next UTC day, start afresh.
    expect(await one.charge(quotaKey('8', DAY), 1, 0, limits)).toBe(1000);
    expect(await two.charge(quotaKey('7', DAY + 86_400_000), 1, 10, limits)).toBe(990);
  });
}

describe('upload quotas in one process', () => {
  const store = new MemoryQuotaStore();
  behaves(() => [store, store]);
});

const noRedis = skipWithout(hasProgram('redis-server') ? [] : ['redis-server'], 'upload quotas in Redis');

describe.skipIf(noRedis)('upload quotas in Redis, shared by replicas', { timeout: 60_000 }, () => {
  let redis: RedisServer;
  const shares: RedisShare[] = [];
  const log = { info: () => {}, warn: () => {} };

  beforeAll(async () => {
    redis = await RedisServer.start();
    for (let i = 0; i < 2; i++) shares.push(new RedisShare({ url: redis.url, log }));
    for (const share of shares) await waitUntil(() => share.available, 'connected to Redis');
  });
  afterAll(async () => {
    for (const share of shares) await share.close();
    await redis?.close();
  });

  behaves(() => [new RedisQuotaStore(shares[0]!), new RedisQuotaStore(shares[1]!)]);
});
