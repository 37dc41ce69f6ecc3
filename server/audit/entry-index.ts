import { AUDIT_KINDS, type AuditEntry, type AuditKind } from '../contract/audit.js';
import type { AuditQuery } from './store.js';

/**
 * What the trail is searched by, for every entry, kept in memory in columns: a page of 50 out of
 * 100,000 entries is then found without reading or parsing the others, and only its 50 entries are
 * read from the file (by offset) or from Redis (by id). Texts that repeat (accounts, resources,
 * actions) are kept once and referred to by number; times and positions in typed arrays. About 60
 * bytes an entry, plus its targets.
 */

const NONE = 0;
/**
 * Record ids an entry keeps in the index, and their characters in all: what History finds it by.
 * Bounded so that memory does not follow what a caller sent (nor a trail written before entries
 * were bounded, read at start): about 1 KB an entry at most.
 */
export const INDEX_TARGETS_MAX = 50;
export const INDEX_TARGET_CHARS_MAX = 1_024;

/** The targets an entry is found by, joined by newlines; null for none. */
export function indexedTargets(targets: readonly string[] | undefined): string | null {
  if (!targets || targets.length === 0) return null;
  let joined = '';
  for (let i = 0; i < targets.length && i < INDEX_TARGETS_MAX; i++) {
    const next = i === 0 ? targets[i]! : `${joined}\n${targets[i]!}`;
    if (next.length > INDEX_TARGET_CHARS_MAX) break;
    joined = next;
  }
  return joined === '' ? null : joined;
}
const KIND_NUMBER = new Map<string, number>(AUDIT_KINDS.map((kind, i) => [kind, i + 1]));

/** Where an entry is stored: a byte offset and length in the file, or a Redis stream id's two parts. */
export interface Location {
  a: number;
  b: number;
}

export interface IndexPage {
  /** Positions in the index of the page's entries, newest first. */
  positions: number[];
  total: number;
}

export class AuditIndex {
  private count = 0;
  private seqs = new Float64Array(1024);
  private times = new Float64Array(1024);
  private locA = new Float64Array(1024);
  private locB = new Float64Array(1024);
  private kinds = new Uint8Array(1024);
  private users = new Uint32Array(1024);
  private accounts = new Uint32Array(1024);
  private resources = new Uint32Array(1024);
  private actions = new Uint32Array(1024);
  private calls = new Uint32Array(1024);
  private targets: (string | null)[] = [];
  private readonly texts = new Map<string, number>();
  private readonly textList: string[] = [''];

  get size(): number {
    return this.count;
  }

  /** The position of the last entry indexed, 0 for none. */
  get lastSeq(): number {
    return this.count === 0 ? 0 : this.seqs[this.count - 1]!;
  }

  get firstSeq(): number {
    return this.count === 0 ? 0 : this.seqs[0]!;
  }

  location(position: number): Location {
    return { a: this.locA[position]!, b: this.locB[position]! };
  }

  seqAt(position: number): number {
    return this.seqs[position]!;
  }

  timeAt(position: number): number {
    return this.times[position]!;
  }

  add(entry: AuditEntry, location: Location): void {
    if (this.count === this.seqs.length) this.grow();
    const i = this.count++;
    this.seqs[i] = entry.seq;
    const time = Date.parse(entry.time);
    this.times[i] = Number.isNaN(time) ? 0 : time;
    this.locA[i] = location.a;
    this.locB[i] = location.b;
    this.kinds[i] = KIND_NUMBER.get(entry.kind) ?? NONE;
    this.users[i] = this.intern(entry.actor?.userId ?? null);
    this.accounts[i] = this.intern(entry.actor?.account ? entry.actor.account.toLowerCase() : null);
    this.resources[i] = this.intern(entry.resource);
    this.actions[i] = this.intern(entry.action);
    this.calls[i] = this.intern(entry.call);
    this.targets[i] = indexedTargets(entry.targets);
  }

  /** Forgets the first `n` entries (removed by retention). */
  dropFirst(n: number): void {
    const drop = Math.min(n, this.count);
    if (drop <= 0) return;
    for (const column of [
      this.seqs,
      this.times,
      this.locA,
      this.locB,
      this.kinds,
      this.users,
      this.accounts,
      this.resources,
      this.actions,
      this.calls,
    ]) {
      column.copyWithin(0, drop, this.count);
    }
    this.targets.splice(0, drop);
    this.count -= drop;
  }

  /** Moves every file offset by `delta` (a pruned file keeps its tail at another offset). */
  shiftOffsets(delta: number): void {
    for (let i = 0; i < this.count; i++) this.locA[i] = this.locA[i]! + delta;
  }

  /** Positions of the entries at or after `time`, from the first one (times are in order but for clock skew between replicas). */
  countBefore(time: number): number {
    let n = 0;
    while (n < this.count && this.times[n]! < time) n++;
    return n;
  }

  /** Characters of record ids the index holds, in all (what its memory grows with beyond ~60 bytes an entry). */
  get targetChars(): number {
    let sum = 0;
    for (let i = 0; i < this.count; i++) sum += this.targets[i]?.length ?? 0;
    return sum;
  }

  clear(): void {
    this.count = 0;
    this.targets = [];
  }

  /** The page of entries a query asks for, newest first, and how many match in all. */
  find(query: AuditQuery): IndexPage {
    const pageNum = Math.max(1, Math.floor(query.pageNum));
    const pageSize = Math.max(1, Math.floor(query.pageSize));
    const skip = (pageNum - 1) * pageSize;
    const match = this.matcher(query);
    const positions: number[] = [];
    let total = 0;
    for (let i = this.count - 1; i >= 0; i--) {
      if (match && !match(i)) continue;
      if (total >= skip && positions.length < pageSize) positions.push(i);
      total++;
    }
    return { positions, total };
  }

  private matcher(query: AuditQuery): ((i: number) => boolean) | null {
    const tests: ((i: number) => boolean)[] = [];
    const known = (text: string) => this.texts.get(text) ?? -1;
    if (query.actor !== undefined && query.actor !== '') {
      const user = known(query.actor);
      const account = known(query.actor.toLowerCase());
      tests.push((i) => this.users[i] === user || this.accounts[i] === account);
    }
    if (query.resource) {
      const resource = known(query.resource);
      tests.push((i) => this.resources[i] === resource);
    }
    if (query.action) {
      const action = known(query.action);
      tests.push((i) => this.actions[i] === action || this.calls[i] === action);
    }
    if (query.kind) {
      const kind = KIND_NUMBER.get(query.kind) ?? -1;
      tests.push((i) => this.kinds[i] === kind);
    }
    if (query.since !== undefined) {
      const since = query.since;
      tests.push((i) => this.times[i]! >= since);
    }
    if (query.until !== undefined) {
      const until = query.until;
      tests.push((i) => this.times[i]! <= until);
    }
    if (query.beforeSeq !== undefined) {
      const before = query.beforeSeq;
      tests.push((i) => this.seqs[i]! < before);
    }
    if (query.targets && query.targets.length > 0) {
      const wanted = new Set(query.targets);
      tests.push((i) => {
        const joined = this.targets[i];
        if (joined === null || joined === undefined) return false;
        if (!joined.includes('\n')) return wanted.has(joined);
        return joined.split('\n').some((target) => wanted.has(target));
      });
    }
    if (tests.length === 0) return null;
    if (tests.length === 1) return tests[0]!;
    return (i) => tests.every((test) => test(i));
  }

  private intern(text: string | null | undefined): number {
    if (text === null || text === undefined || text === '') return NONE;
    let id = this.texts.get(text);
    if (id === undefined) {
      id = this.textList.length;
      this.textList.push(text);
      this.texts.set(text, id);
    }
    return id;
  }

  private grow(): void {
    const size = this.seqs.length * 2;
    const grown = <T extends Float64Array | Uint32Array | Uint8Array>(column: T): T => {
      const next = new (column.constructor as new (n: number) => T)(size);
      next.set(column);
      return next;
    };
    this.seqs = grown(this.seqs);
    this.times = grown(this.times);
    this.locA = grown(this.locA);
    this.locB = grown(this.locB);
    this.kinds = grown(this.kinds);
    this.users = grown(this.users);
    this.accounts = grown(this.accounts);
    this.resources = grown(this.resources);
    this.actions = grown(this.actions);
    this.calls = grown(this.calls);
  }
}

export function isAuditKind(value: string): value is AuditKind {
  return KIND_NUMBER.has(value);
}
