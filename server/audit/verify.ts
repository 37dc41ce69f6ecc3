import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import {
  ChainChecker,
  GENESIS_HEAD,
  describeBreak,
  headOfAnchor,
  parseAnchor,
  type AuditAnchor,
  type ChainBreak,
  type ChainHead,
} from './chain.js';
import { AUDIT_FILE } from './file-store.js';
import { readLinesForward } from '../lib/json-lines-file.js';
import { streamChunks, streamField } from '../lib/redis-stream-pages.js';
import { AUDIT_ANCHOR, AUDIT_HEAD, AUDIT_STREAM, parseAnchorText, parseHeadText } from './redis-store.js';

export type Verdict =
  | { intact: true; entries: number; anchor: AuditAnchor | null; last: ChainHead; found: boolean }
  | { intact: false; entries: number; broken: ChainBreak };

/**
 * Why a trail that was expected is not there to check, or null when it is: a folder without the
 * trail (deleted, or a typo in the path) or a trail with nothing in it must not read as "intact",
 * as CloudTrail's digests report a missing file.
 */
export function absence(verdict: Verdict, where: string): string | null {
  if (!verdict.intact) return null;
  if (!verdict.found) return `audit trail missing: ${where} does not exist (deleted, or the wrong folder?)`;
  if (verdict.entries === 0 && !verdict.anchor)
    return `audit trail empty: ${where} holds no entries (emptied, or the wrong folder?)`;
  return null;
}

/** The first line of a verdict, as audit:verify prints it. */
export function verdictText(verdict: Verdict): string {
  return verdict.intact ? `audit chain intact: ${verdict.entries} entries` : describeBreak(verdict.broken);
}

/**
 * Checks the trail in DATA_DIR from its first line: an anchor (what retention removed) or the
 * first entry, then every entry against the one before. Reads the file a chunk at a time.
 */
export async function verifyFile(dataDir: string, file = AUDIT_FILE): Promise<Verdict> {
  const path = join(dataDir, file);
  let checker = new ChainChecker(GENESIS_HEAD);
  let anchor: AuditAnchor | null = null;
  const found = await stat(path).then(
    () => true,
    () => false,
  );
  for await (const line of readLinesForward(path)) {
    if (line.number === 1) {
      anchor = parseAnchor(line.text);
      if (anchor) {
        checker = new ChainChecker(headOfAnchor(anchor));
        continue;
      }
    }
    const broken = checker.check(line.text, `line ${line.number}`);
    if (broken) return { intact: false, entries: checker.entries, broken };
  }
  return { intact: true, entries: checker.entries, anchor, last: checker.last, found };
}

/**
 * Checks the trail replicas share in Redis: from its anchor, every entry of the stream in order,
 * and that the chain ends where the head key says (so removing the newest entries shows too).
 */
export async function verifyRedis(command: Redis, key: (name: string) => string): Promise<Verdict> {
  const [headText, anchorText] = await command.mget(key(AUDIT_HEAD), key(AUDIT_ANCHOR));
  const anchor = parseAnchorText(anchorText ?? null);
  const checker = new ChainChecker(headOfAnchor(anchor));
  for await (const chunk of streamChunks(command, key(AUDIT_STREAM), { count: 1_000, direction: 'forward' })) {
    for (const [id, fields] of chunk) {
      const broken = checker.check(streamField(fields, 'entry') ?? '', `stream id ${id}`);
      if (broken) return { intact: false, entries: checker.entries, broken };
    }
  }
  const head = parseHeadText(headText ?? null);
  if (head && (head.seq !== checker.last.seq || head.hash !== checker.last.hash)) {
    return {
      intact: false,
      entries: checker.entries,
      broken: { where: 'the end of the stream', seq: head.seq, id: null, reason: 'link' },
    };
  }
  return { intact: true, entries: checker.entries, anchor, last: checker.last, found: headText !== null };
}
