import { createHash } from 'node:crypto';
import type { AuditEntry } from '../contract/audit.js';

/**
 * The hash chain of the audit trail. Each entry carries `prev`, the SHA-256 of the entry before it,
 * and `hash`, the SHA-256 of its own canonical text (every field but `hash`, keys sorted, no
 * spaces). Changing, removing, inserting or reordering an entry breaks the chain at that entry;
 * only rewriting every entry after it (and the head Redis keeps) hides a change, which is the
 * limit docs/audit.md names.
 */

/** `prev` of the first entry of a chain that never lost its start. */
export const GENESIS = '0'.repeat(64);

/** An entry before it is chained: what the recorder knows. */
export type AuditDraft = Omit<AuditEntry, 'seq' | 'prev' | 'hash'>;

/** Where a chain ends: the last entry's position and hash (the genesis: 0 and 64 zeros). */
export interface ChainHead {
  seq: number;
  hash: string;
}

/**
 * What stands for the entries retention removed: the position and hash of the last one removed, so
 * the first entry kept still links to something, and when it was written and removed.
 */
export interface AuditAnchor {
  seq: number;
  hash: string;
  /** Time of the last entry removed. */
  time: string | null;
  /** When the removal happened. */
  prunedAt: string;
}

export const GENESIS_HEAD: ChainHead = { seq: 0, hash: GENESIS };

export function headOfAnchor(anchor: AuditAnchor | null): ChainHead {
  return anchor ? { seq: anchor.seq, hash: anchor.hash } : GENESIS_HEAD;
}

/**
 * JSON with every object's keys in code-point order, no white space and no undefined members:
 * one text for one value, however it was built or parsed. Numbers are written as JSON.stringify
 * writes them, which is what RFC 8785 asks for the values an entry holds.
 */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : canonical(item))).join(',')}]`;
  const keys = Object.keys(value)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(',')}}`;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The hash an entry must carry: over its canonical text without `hash`. */
export function entryHash(entry: Omit<AuditEntry, 'hash'> | AuditEntry): string {
  const { hash: _hash, ...rest } = entry as AuditEntry;
  return sha256(canonical(rest));
}

/** Chains a draft after `head`: its position, the link to the entry before, its own hash. */
export function chain(draft: AuditDraft, head: ChainHead): AuditEntry {
  const linked = { ...draft, seq: head.seq + 1, prev: head.hash };
  return { ...linked, hash: entryHash(linked as Omit<AuditEntry, 'hash'>) } as AuditEntry;
}

/** The stored text of an entry: its canonical JSON, one line. */
export function entryLine(entry: AuditEntry): string {
  return canonical(entry);
}

/** The stored text of an anchor: the first line of a pruned file. */
export function anchorLine(anchor: AuditAnchor): string {
  return canonical({ anchor });
}

/** The anchor of a first line, or null when the line is not one. */
export function parseAnchor(line: string): AuditAnchor | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  const anchor = (value as { anchor?: unknown } | null)?.anchor as Partial<AuditAnchor> | undefined;
  if (!anchor || typeof anchor !== 'object') return null;
  if (
    !Number.isSafeInteger(anchor.seq) ||
    (anchor.seq as number) < 0 ||
    typeof anchor.hash !== 'string' ||
    !/^[0-9a-f]{64}$/.test(anchor.hash)
  )
    return null;
  if (typeof anchor.prunedAt !== 'string' || (anchor.time !== null && typeof anchor.time !== 'string')) return null;
  return { seq: anchor.seq as number, hash: anchor.hash, time: anchor.time ?? null, prunedAt: anchor.prunedAt };
}

/** A stored line as an entry, or null when it is not one (a torn line, foreign text). */
export function parseEntryLine(line: string): AuditEntry | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const entry = value as Partial<AuditEntry>;
  if (!Number.isSafeInteger(entry.seq) || typeof entry.hash !== 'string' || typeof entry.prev !== 'string') return null;
  if (typeof entry.time !== 'string' || typeof entry.kind !== 'string' || typeof entry.id !== 'string') return null;
  return value as AuditEntry;
}

/** Why a chain breaks at an entry. */
export type BreakReason =
  'unreadable' | 'not-canonical' | 'hash' | 'link' | 'order' | 'segment' | 'missing' | 'unlinked';

export const BREAK_TEXT: Record<BreakReason, string> = {
  unreadable: 'is not a readable entry',
  'not-canonical': 'is not written as the recorder writes entries (a byte was changed)',
  hash: 'does not match its hash (its content was changed)',
  link: 'does not link to the entry before it (an entry was removed, added or reordered)',
  order: 'is out of sequence (an entry was removed, added or reordered)',
  segment: 'links to a sealed segment whose bytes changed (its SHA-256 differs from the one carried forward)',
  missing: 'links to a sealed segment that is missing and not recorded as removed (a segment was deleted)',
  unlinked: 'starts a segment without the link to the one before it (a segment was replaced or added)',
};

export interface ChainBreak {
  /** 1-based line of the file, or the stream id in Redis. */
  where: string;
  seq: number | null;
  id: string | null;
  reason: BreakReason;
}

/**
 * Checks entries one by one, in order, from a head (the genesis, or an anchor): the first that
 * fails is where the chain breaks. A line must be exactly the canonical text of what it parses to,
 * so a changed byte the JSON parser would forgive (an escape, a space) is caught as well.
 */
export class ChainChecker {
  private head: ChainHead;
  private count = 0;

  constructor(start: ChainHead) {
    this.head = start;
  }

  get entries(): number {
    return this.count;
  }

  get last(): ChainHead {
    return this.head;
  }

  check(line: string, where: string): ChainBreak | null {
    const entry = parseEntryLine(line);
    if (!entry) return { where, seq: null, id: null, reason: 'unreadable' };
    const at = { where, seq: entry.seq, id: entry.id };
    if (canonical(entry) !== line) return { ...at, reason: 'not-canonical' };
    if (entryHash(entry) !== entry.hash) return { ...at, reason: 'hash' };
    if (entry.prev !== this.head.hash) return { ...at, reason: 'link' };
    if (entry.seq !== this.head.seq + 1) return { ...at, reason: 'order' };
    this.head = { seq: entry.seq, hash: entry.hash };
    this.count++;
    return null;
  }
}

export function describeBreak(broken: ChainBreak): string {
  const which =
    broken.seq === null
      ? `at ${broken.where}`
      : `at entry ${broken.seq} (${broken.where}${broken.id ? `, id ${broken.id}` : ''})`;
  return `audit chain broken ${which}: the entry ${BREAK_TEXT[broken.reason]}`;
}
