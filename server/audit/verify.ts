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
  type BreakReason,
  type ChainBreak,
  type ChainHead,
} from './chain.js';
import { AUDIT_FILE } from './file-store.js';
import { baseOf, fileDigest, headOfLink, parseLink, removedSegments, sealedSegments } from './segments.js';
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
  if (verdict.entries === 0 && verdict.last.seq === 0)
    return `audit trail empty: ${where} holds no entries (emptied, or the wrong folder?)`;
  return null;
}

/** The first line of a verdict, as audit:verify prints it. */
export function verdictText(verdict: Verdict): string {
  return verdict.intact ? `audit chain intact: ${verdict.entries} entries` : describeBreak(verdict.broken);
}

/**
 * Checks the trail in DATA_DIR from its first line: the sealed segments oldest first, then the
 * file written now. The first file starts with an anchor (what retention removed), a link to a
 * segment audit-removed.jsonl records as removed, or the first entry; each later file with the
 * link to the one before (its SHA-256 and last entry). Then every entry against the one before.
 * Reads each file a chunk at a time.
 */
export async function verifyFile(dataDir: string, file = AUDIT_FILE): Promise<Verdict> {
  const base = baseOf(file);
  const files = (await sealedSegments(dataDir, base)).map((segment) => segment.file);
  const found = await stat(join(dataDir, file)).then(
    () => true,
    () => false,
  );
  if (found) files.push(file);
  const removed = await removedSegments(dataDir, base);
  let checker = new ChainChecker(GENESIS_HEAD);
  let anchor: AuditAnchor | null = null;
  const broken = (where: string, reason: BreakReason): Verdict => ({
    intact: false,
    entries: checker.entries,
    broken: { where, seq: null, id: null, reason },
  });
  for (const [i, name] of files.entries()) {
    const at = (n: number) => (files.length > 1 ? `${name} line ${n}` : `line ${n}`);
    for await (const line of readLinesForward(join(dataDir, name))) {
      if (line.number === 1) {
        const first = i === 0 ? parseAnchor(line.text) : null;
        if (first) {
          anchor = first;
          checker = new ChainChecker(headOfAnchor(first));
          continue;
        }
        const link = parseLink(line.text);
        if (link) {
          if (i === 0) {
            const gone = removed.get(link.prev);
            if (!gone || gone.digest !== link.digest || gone.seq !== link.seq || gone.hash !== link.hash)
              return broken(at(1), 'missing');
            checker = new ChainChecker(headOfLink(link));
          } else {
            if (link.prev !== files[i - 1]) return broken(at(1), 'missing');
            if (link.digest !== (await fileDigest(join(dataDir, files[i - 1]!)))) return broken(at(1), 'segment');
            if (link.seq !== checker.last.seq || link.hash !== checker.last.hash) return broken(at(1), 'link');
          }
          continue;
        }
        if (i > 0) return broken(at(1), 'unlinked');
      }
      const failed = checker.check(line.text, at(line.number));
      if (failed) return { intact: false, entries: checker.entries, broken: failed };
    }
  }
  return { intact: true, entries: checker.entries, anchor, last: checker.last, found: files.length > 0 };
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
