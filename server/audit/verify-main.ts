/**
 * `npm run audit:verify -- [DATA_DIR]`: checks the audit chain in DATA_DIR (the argument, else the
 * DATA_DIR variable, else ./data), and with REDIS_URL set the trail replicas share in Redis too.
 * Prints `audit chain intact: N entries` for each and exits 0, or names the first entry that
 * breaks a chain and exits 1 (2 when the trail cannot be read at all). A trail that is missing or
 * empty where one was expected exits 1 too: the local file, or with REDIS_URL the stream when the
 * local file (Redis's fallback) holds nothing either.
 */
import { Redis } from 'ioredis';
import { REDIS_KEY_PREFIX } from '../redis/share.js';
import { join } from 'node:path';
import { AUDIT_FILE } from './file-store.js';
import { absence, verdictText, verifyFile, verifyRedis, type Verdict } from './verify.js';

/**
 * Where an intact chain starts and ends. The last hash is worth keeping off this machine (a ticket,
 * another host's log): a later run that no longer reaches it shows the trail was rewritten or cut.
 */
function details(verdict: Verdict): string[] {
  if (!verdict.intact) return [];
  const lines: string[] = [];
  const { anchor, last } = verdict;
  if (anchor)
    lines.push(
      `  starts after entry ${anchor.seq} (removed by retention on ${anchor.prunedAt}; the last removed written ${anchor.time ?? 'at an unknown time'})`,
    );
  if (last.seq > 0) lines.push(`  last entry ${last.seq}: sha256 ${last.hash}`);
  return lines;
}

async function main(): Promise<number> {
  const dataDir = process.argv[2] ?? process.env.DATA_DIR ?? './data';
  let failed = false;
  const file = await verifyFile(dataDir);
  const fileAbsent = absence(file, join(dataDir, AUDIT_FILE));
  console.log(fileAbsent ?? verdictText(file));
  for (const line of details(file)) console.log(line);
  failed ||= !file.intact;

  const redisUrl = process.env.REDIS_URL;
  if (redisUrl) {
    const redis = new Redis(redisUrl, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    try {
      await redis.connect();
      const shared = await verifyRedis(redis, (name) => REDIS_KEY_PREFIX + name);
      const sharedAbsent = absence(shared, 'the Redis stream');
      console.log(`Redis: ${sharedAbsent ?? verdictText(shared)}`);
      for (const line of details(shared)) console.log(line);
      failed ||= !shared.intact;
      // Replicas write to Redis, and to the local file only while Redis is away: one of them must hold the trail.
      failed ||= fileAbsent !== null && sharedAbsent !== null;
    } finally {
      redis.disconnect();
    }
    return failed ? 1 : 0;
  }
  failed ||= fileAbsent !== null;
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`audit:verify could not read the trail: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
