import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { appendFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { canonical, type ChainHead } from './chain.js';
import { isNotFound, readLinesForward } from '../lib/json-lines-file.js';

/**
 * The trail's size cap, in files. The trail is written to one file (audit.jsonl); once it holds
 * AUDIT_SEGMENT_BYTES it is sealed: renamed to audit-000001.jsonl (the next number), and the new
 * audit.jsonl starts with a link line naming it, with the SHA-256 of its bytes and the position
 * and hash of its last entry. A sealed segment that is changed or goes missing is then noticed by
 * `audit:verify` at the next file, as CloudTrail's digest files notice a missing log file.
 *
 * When the trail as a whole (sealed segments and the file written now) is over AUDIT_MAX_BYTES,
 * the oldest sealed segments are removed, each with a line in audit-removed.jsonl (its name,
 * digest, last entry, when and why): the chain then starts after it, as it does after retention's
 * anchor, and verify checks the link against that record.
 */

/** Multiplier of a segment's number in an index location: `a` = number * SEGMENT_SPAN + byte offset (1 TiB a file). */
export const SEGMENT_SPAN = 2 ** 40;

/** The link line a segment after the first starts with: the segment before, sealed. */
export interface SegmentLink {
  /** File name of the sealed segment before. */
  prev: string;
  /** SHA-256 (hex) of its bytes. */
  digest: string;
  /** Its last entry's position and hash: where the chain goes on. */
  seq: number;
  hash: string;
  sealedAt: string;
}

/** A sealed segment removed by the cap or by retention, as audit-removed.jsonl records it. */
export interface RemovedSegment {
  file: string;
  digest: string;
  bytes: number;
  seq: number;
  hash: string;
  removedAt: string;
  reason: 'cap' | 'retention';
}

export function baseOf(file: string): string {
  return file.endsWith('.jsonl') ? file.slice(0, -'.jsonl'.length) : file;
}

export function segmentName(base: string, number: number): string {
  return `${base}-${String(number).padStart(6, '0')}.jsonl`;
}

export function removedName(base: string): string {
  return `${base}-removed.jsonl`;
}

/** The sealed segments in a folder, oldest first, by number. */
export async function sealedSegments(dir: string, base: string): Promise<{ number: number; file: string }[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
  const pattern = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d{6,})\\.jsonl$`);
  return names
    .map((file) => ({ file, match: pattern.exec(file) }))
    .filter((item) => item.match !== null)
    .map((item) => ({ number: Number(item.match![1]), file: item.file }))
    .sort((a, b) => a.number - b.number);
}

/** SHA-256 of a file's bytes, read as a stream. */
export function fileDigest(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

export function linkLine(link: SegmentLink): string {
  return canonical({ segment: link });
}

/** The link of a first line, or null when the line is not one. */
export function parseLink(line: string): SegmentLink | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  const link = (value as { segment?: Partial<SegmentLink> } | null)?.segment;
  if (!link || typeof link !== 'object') return null;
  if (typeof link.prev !== 'string' || typeof link.digest !== 'string' || typeof link.hash !== 'string') return null;
  if (!Number.isSafeInteger(link.seq) || typeof link.sealedAt !== 'string') return null;
  return link as SegmentLink;
}

export function headOfLink(link: SegmentLink): ChainHead {
  return { seq: link.seq, hash: link.hash };
}

export async function recordRemoved(dir: string, base: string, removed: RemovedSegment): Promise<void> {
  await appendFile(join(dir, removedName(base)), `${canonical(removed)}\n`, 'utf8');
}

/** What audit-removed.jsonl records, by file name. */
export async function removedSegments(dir: string, base: string): Promise<Map<string, RemovedSegment>> {
  const out = new Map<string, RemovedSegment>();
  for await (const line of readLinesForward(join(dir, removedName(base)))) {
    try {
      const removed = JSON.parse(line.text) as RemovedSegment;
      if (typeof removed.file === 'string') out.set(removed.file, removed);
    } catch {
      // A torn last line: the removal it described did not finish.
    }
  }
  return out;
}
