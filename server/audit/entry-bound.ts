import type { AuditRecord } from '../contract/audit.js';
import { canonical, type AuditDraft } from './chain.js';

/**
 * Every entry has a hard size, whatever the call that made it: one request must never cost the
 * trail more than a few KB, on disk or in memory, nor make a restart slower (issue 36: 1,000 ids
 * of 128 characters, or a path of 12,000, wrote 130 KB an entry). What is cut is cut with a
 * marker: the entry's `cut` member says, per member, how much was left out, so a reader knows the
 * entry is partial and by how much.
 */

/** Bytes of an entry's stored line, at most (its seq, prev and hash included). */
export const ENTRY_MAX_BYTES = 8 * 1024;
/** Room kept for seq, prev, hash and the `cut` member, which are added after the bound. */
const CHAIN_ROOM = 512;
/** Characters of the call's path kept. */
export const PATH_MAX = 512;
/** Record ids kept, and characters of each. */
export const TARGETS_MAX = 100;
export const TARGET_MAX = 64;
/** Characters of a reason kept. */
export const REASON_MAX = 1_000;
/** The members given up, largest first, when an entry is still over its size. */
const SHRINKABLE = ['detail', 'inputs', 'after', 'before', 'export'] as const;

const CUT_MARK = '…';

function bytes(value: unknown): number {
  return Buffer.byteLength(canonical(value), 'utf8');
}

function cutText(text: string, max: number): { text: string; cut: number } {
  if (text.length <= max) return { text, cut: 0 };
  return { text: `${text.slice(0, max - 1)}${CUT_MARK}`, cut: text.length - (max - 1) };
}

/**
 * The draft as it is stored: path, ids and reason cut to their limits, then the largest of its
 * values given up until the whole fits ENTRY_MAX_BYTES. `cut` counts characters for path, reason
 * and ids' text, entries for `targets`, bytes for a value given up. `targetsBeyond`: ids the caller
 * already left out (it hands over only the first TARGETS_MAX of a long list).
 */
export function boundEntry(draft: AuditDraft, targetsBeyond = 0): AuditDraft {
  const cut: Record<string, number> = {};
  const out: AuditDraft = { ...draft };
  if (out.path !== null) {
    const path = cutText(out.path, PATH_MAX);
    out.path = path.text;
    if (path.cut > 0) cut.path = path.cut;
  }
  if (out.reason !== null) {
    const reason = cutText(out.reason, REASON_MAX);
    out.reason = reason.text;
    if (reason.cut > 0) cut.reason = reason.cut;
  }
  let targetChars = 0;
  const targets = out.targets.slice(0, TARGETS_MAX).map((target) => {
    const bounded = cutText(target, TARGET_MAX);
    targetChars += bounded.cut;
    return bounded.text;
  });
  let targetsDropped = out.targets.length - targets.length + Math.max(0, targetsBeyond);
  out.targets = targets;
  if (targetChars > 0) cut.targetChars = targetChars;

  const budget = ENTRY_MAX_BYTES - CHAIN_ROOM;
  for (;;) {
    if (bytes(out) <= budget) break;
    const largest = SHRINKABLE.filter((key) => out[key] !== undefined && out[key] !== null)
      .map((key) => ({ key, size: bytes(out[key]) }))
      .sort((a, b) => b.size - a.size)[0];
    if (largest && largest.size > 2) {
      cut[largest.key] = (cut[largest.key] ?? 0) + largest.size;
      // Kept as an empty value of its kind, so the entry still says the member was there.
      (out as Record<string, unknown>)[largest.key] = largest.key === 'export' ? undefined : ({} as AuditRecord);
      continue;
    }
    if (out.targets.length === 0) break;
    const keep = Math.floor(out.targets.length / 2);
    targetsDropped += out.targets.length - keep;
    out.targets = out.targets.slice(0, keep);
  }
  if (targetsDropped > 0) cut.targets = targetsDropped;
  if (Object.keys(cut).length > 0) out.cut = cut;
  return out;
}
