/**
 * `npm run audit:verify -- [DATA_DIR]`: checks the audit chain in DATA_DIR (the argument, else the
 * DATA_DIR variable, else ./data), and with REDIS_URL set the trail replicas share in Redis too.
 * Prints `audit chain intact: N entries` for each and exits 0, or names the first entry that
 * breaks a chain and exits 1 (2 when the trail cannot be read at all).
 */
import { Redis } from 'ioredis';
import { REDIS_KEY_PREFIX } from '../redis/share.js';
import { verdictText, verifyFile, verifyRedis, type Verdict } from './verify.js';

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
  console.log(verdictText(file));
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
      console.log(`Redis: ${verdictText(shared)}`);
      for (const line of details(shared)) console.log(line);
      failed ||= !shared.intact;
    } finally {
      redis.disconnect();
    }
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`audit:verify could not read the trail: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
