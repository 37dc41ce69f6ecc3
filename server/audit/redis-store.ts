import type { Redis } from 'ioredis';
import type { AuditEntry, AuditPage } from '../contract/audit.js';
import type { RedisShare } from '../redis/share.js';
import { RedisFallback } from '../redis/fallback.js';
import { streamChunks, streamField, type StreamEntry } from '../lib/redis-stream-pages.js';
import {
  GENESIS_HEAD,
  chain,
  entryLine,
  parseEntryLine,
  type AuditAnchor,
  type AuditDraft,
  type ChainHead,
} from './chain.js';
import { AuditIndex } from './entry-index.js';
import type { AuditQuery, AuditStore } from './store.js';

export interface RedisAuditStoreOptions {
  share: RedisShare;
  /** This process's own trail (the file, or the cluster primary's): used while Redis is away. */
  fallback: AuditStore;
  /** Told when the trail starts or stops falling back, with the reason. */
  onFallback?(active: boolean, reason: string): void;
  /** Told of each entry that went to the fallback instead of Redis (the metric). */
  onFallbackWrite?(): void;
  /**
   * Entries the stream keeps at most (AUDIT_MAX_BYTES over the 8 KB an entry may take); past it
   * each append removes the oldest behind the anchor, as retention does. Unbounded when absent.
   */
  maxEntries?: number;
}

/** Keys, before the share's prefix. */
export const AUDIT_STREAM = 'audit';
export const AUDIT_HEAD = 'audit:head';
export const AUDIT_ANCHOR = 'audit:anchor';

const CHUNK = 1_000;
/** Appends another replica slipped in before ours, tried again with the new head; more means something is wrong. */
const MAX_ATTEMPTS = 20;
/** Entries of an outage kept for the shared trail afterwards; beyond this the oldest stay in the local file only. */
const UNSHARED_MAX = 10_000;

/**
 * Appends an entry if the chain still ends where this replica thinks (its head), atomically: two
 * replicas can never both link an entry to the same predecessor. On a mismatch it answers the
 * current head, and the caller chains its entry again after it. Past the stream's cap (ARGV[8])
 * the oldest entries go in the same step, the last one's position and hash kept as the anchor.
 */
const APPEND_SCRIPT = `
local current = redis.call('GET', KEYS[2])
if not current then current = ARGV[1] end
if current ~= ARGV[2] then return current end
local id = redis.call('XADD', KEYS[1], '*', 'seq', ARGV[4], 'hash', ARGV[5], 'time', ARGV[6], 'entry', ARGV[7])
redis.call('SET', KEYS[2], ARGV[3])
local max = tonumber(ARGV[8])
if max and max > 0 then
  local excess = redis.call('XLEN', KEYS[1]) - max
  if excess > 0 then
    local gone = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', excess)
    local fields = gone[#gone][2]
    local seq, hash, time = nil, nil, ''
    for i = 1, #fields, 2 do
      if fields[i] == 'seq' then seq = fields[i + 1] end
      if fields[i] == 'hash' then hash = fields[i + 1] end
      if fields[i] == 'time' then time = fields[i + 1] end
    end
    if seq and hash then
      redis.call('SET', KEYS[3], seq .. ' ' .. hash .. ' ' .. time .. ' ' .. ARGV[9])
      redis.call('XTRIM', KEYS[1], 'MAXLEN', max)
    end
  end
end
return {id}
`;

/**
 * Removes the entries written before a stream id, keeping the last one's position, hash and time as
 * the anchor the first entry kept links to, in one step: no append can come between.
 */
const PRUNE_SCRIPT = `
local last = redis.call('XREVRANGE', KEYS[1], '(' .. ARGV[1], '-', 'COUNT', 1)
if #last == 0 then return 0 end
local fields = last[1][2]
local seq, hash, time = nil, nil, ''
for i = 1, #fields, 2 do
  if fields[i] == 'seq' then seq = fields[i + 1] end
  if fields[i] == 'hash' then hash = fields[i + 1] end
  if fields[i] == 'time' then time = fields[i + 1] end
end
if not seq or not hash then return redis.error_reply('the audit stream holds an entry without seq and hash') end
redis.call('SET', KEYS[2], seq .. ' ' .. hash .. ' ' .. time .. ' ' .. ARGV[2])
return redis.call('XTRIM', KEYS[1], 'MINID', ARGV[1])
`;

interface AuditCommands {
  auditAppend(
    stream: string,
    head: string,
    anchor: string,
    genesis: string,
    expected: string,
    next: string,
    seq: string,
    hash: string,
    time: string,
    line: string,
    maxEntries: string,
    prunedAt: string,
  ): Promise<string | [string]>;
  auditPrune(stream: string, anchor: string, minId: string, prunedAt: string): Promise<number>;
}

export function headText(head: ChainHead): string {
  return `${head.seq} ${head.hash}`;
}

export function parseHeadText(text: string | null): ChainHead | null {
  if (!text) return null;
  const [seq, hash] = text.split(' ');
  const n = Number(seq);
  return Number.isSafeInteger(n) && hash && /^[0-9a-f]{64}$/.test(hash) ? { seq: n, hash } : null;
}

export function parseAnchorText(text: string | null): AuditAnchor | null {
  if (!text) return null;
  const [seq, hash, time, prunedAt] = text.split(' ');
  const head = parseHeadText(`${seq} ${hash}`);
  return head ? { ...head, time: time || null, prunedAt: prunedAt ?? '' } : null;
}

/** The connection's commands for the two scripts, defined once per connection. */
export function auditCommands(command: Redis): AuditCommands {
  const scripts = command as unknown as Partial<AuditCommands>;
  if (!scripts.auditAppend) command.defineCommand('auditAppend', { numberOfKeys: 3, lua: APPEND_SCRIPT });
  if (!scripts.auditPrune) command.defineCommand('auditPrune', { numberOfKeys: 2, lua: PRUNE_SCRIPT });
  return command as unknown as AuditCommands;
}

function streamLocation(id: string): { a: number; b: number } {
  const dash = id.indexOf('-');
  return { a: Number(id.slice(0, dash)), b: Number(id.slice(dash + 1)) };
}

function entryOf(fields: string[]): AuditEntry | null {
  const line = streamField(fields, 'entry');
  return line === null ? null : parseEntryLine(line);
}

/**
 * The trail every replica and worker shares: a Redis stream, one entry per record, with the chain's
 * head (`audit:head`) and retention's anchor (`audit:anchor`) beside it. Appends go through a
 * script that checks the head, so replicas writing at once still make one chain. Each process keeps
 * an index of the stream (entry-index.ts), brought up to date before each question, so a filtered
 * page costs a scan of the index and one read per entry shown.
 *
 * Whenever Redis cannot be reached, entries go to the local trail (the JSON-lines file) instead, a
 * chain of its own that audit:verify checks in DATA_DIR, and questions are answered from it; once
 * Redis is back, the outage's entries are chained into the shared trail too (as its newest, each
 * with its own time), so every replica lists them.
 */
export class RedisAuditStore implements AuditStore {
  private readonly fallback: RedisFallback;
  private head: ChainHead | null = null;
  private readonly index = new AuditIndex();
  private queue: Promise<unknown> = Promise.resolve();
  private unshared: AuditDraft[] = [];
  private readonly keys: { stream: string; head: string; anchor: string };

  constructor(private readonly options: RedisAuditStoreOptions) {
    const { share } = options;
    this.keys = { stream: share.key(AUDIT_STREAM), head: share.key(AUDIT_HEAD), anchor: share.key(AUDIT_ANCHOR) };
    this.fallback = new RedisFallback(share, (active, reason) => this.options.onFallback?.(active, reason));
    share.onReady(() => {
      this.fallback.note(false, 'Redis is ready');
      void this.enqueue(async () => {
        await this.shareUnshared();
        await this.sync();
      }).catch(() => undefined);
    });
  }

  /** Whether the last operation went to the local trail because Redis could not be reached. */
  get usingFallback(): boolean {
    return this.fallback.usingFallback;
  }

  open(): Promise<void> {
    return this.options.fallback.open();
  }

  append(draft: AuditDraft): Promise<AuditEntry> {
    return this.enqueue(async () => {
      const stored = await this.sharedValue(() => this.appendShared(draft));
      if (stored) return stored;
      const entry = await this.options.fallback.append(draft);
      this.options.onFallbackWrite?.();
      this.unshared.push(draft);
      if (this.unshared.length > UNSHARED_MAX) this.unshared.shift();
      return entry;
    });
  }

  query(query: AuditQuery): Promise<AuditPage> {
    return this.enqueue(async () => {
      const page = await this.sharedValue(async () => {
        await this.sync();
        return this.read(query);
      });
      return page ?? this.options.fallback.query(query);
    });
  }

  prune(before: number): Promise<number> {
    return this.enqueue(async () => {
      const local = await this.options.fallback.prune(before);
      const shared = await this.sharedValue(async () => {
        const commands = auditCommands(this.options.share.command);
        return commands.auditPrune(
          this.keys.stream,
          this.keys.anchor,
          String(Math.max(0, Math.floor(before))),
          new Date().toISOString(),
        );
      });
      return local + (shared ?? 0);
    });
  }

  async flush(): Promise<void> {
    await this.enqueue(async () => undefined);
    await this.options.fallback.flush();
  }

  async close(): Promise<void> {
    await this.flush().catch(() => undefined);
    await this.options.fallback.close();
  }

  private enqueue<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.queue.then(operation);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async appendShared(draft: AuditDraft): Promise<AuditEntry> {
    const commands = auditCommands(this.options.share.command);
    let head = this.head ?? parseHeadText(await this.options.share.command.get(this.keys.head)) ?? GENESIS_HEAD;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const entry = chain(draft, head);
      const next = { seq: entry.seq, hash: entry.hash };
      const answer = await commands.auditAppend(
        this.keys.stream,
        this.keys.head,
        this.keys.anchor,
        headText(GENESIS_HEAD),
        headText(head),
        headText(next),
        String(entry.seq),
        entry.hash,
        entry.time,
        entryLine(entry),
        String(this.options.maxEntries ?? 0),
        new Date().toISOString(),
      );
      if (Array.isArray(answer)) {
        this.head = next;
        // Indexed at once when nothing of another replica's came between; else the next sync reads it.
        if (this.index.lastSeq === entry.seq - 1 && (this.index.size > 0 || entry.seq === 1))
          this.index.add(entry, streamLocation(answer[0]));
        // What the cap removed from the stream leaves the index too.
        const max = this.options.maxEntries;
        if (max !== undefined && this.index.size > max) this.index.dropFirst(this.index.size - max);
        return entry;
      }
      head = parseHeadText(answer) ?? GENESIS_HEAD;
    }
    throw new Error(`the shared audit trail changed under ${MAX_ATTEMPTS} appends in a row`);
  }

  /** Brings the index up to what the stream holds: new entries, pruned ones, or a Redis that lost its data. */
  private async sync(): Promise<void> {
    const { command } = this.options.share;
    const [storedHead, anchorText] = await command.mget(this.keys.head, this.keys.anchor);
    const head = parseHeadText(storedHead ?? null);
    if (!head || head.seq < this.index.lastSeq) {
      // An empty or replaced Redis: what this process indexed no longer exists there.
      this.index.clear();
      this.head = head;
      if (!head) return;
    }
    const anchor = parseAnchorText(anchorText ?? null);
    if (anchor && this.index.size > 0 && this.index.firstSeq <= anchor.seq) {
      let drop = 0;
      while (drop < this.index.size && this.index.seqAt(drop) <= anchor.seq) drop++;
      this.index.dropFirst(drop);
    }
    if (head.seq === this.index.lastSeq) return;
    let from = '-';
    if (this.index.size > 0) {
      const last = this.index.location(this.index.size - 1);
      from = `(${last.a}-${last.b}`;
    }
    for await (const chunk of streamChunks(command, this.keys.stream, { count: CHUNK, direction: 'forward', from })) {
      for (const [id, fields] of chunk) {
        const entry = entryOf(fields);
        if (entry && entry.seq > this.index.lastSeq) this.index.add(entry, streamLocation(id));
      }
    }
  }

  private async read(query: AuditQuery): Promise<AuditPage> {
    const { positions, total } = this.index.find(query);
    if (positions.length === 0) return { list: [], total };
    const pipeline = this.options.share.command.pipeline();
    for (const position of positions) {
      const { a, b } = this.index.location(position);
      pipeline.xrange(this.keys.stream, `${a}-${b}`, `${a}-${b}`);
    }
    const results = (await pipeline.exec()) ?? [];
    const list: AuditEntry[] = [];
    for (const [error, value] of results) {
      if (error) throw error;
      const found = (value as StreamEntry[])[0];
      const entry = found ? entryOf(found[1]) : null;
      if (entry) list.push(entry);
    }
    return { list, total };
  }

  /** Chains the outage's entries into the shared trail, oldest first; stops at the first failure. */
  private async shareUnshared(): Promise<void> {
    while (this.unshared.length > 0 && this.options.share.available) {
      try {
        await this.appendShared(this.unshared[0]!);
      } catch {
        return;
      }
      this.unshared.shift();
    }
  }

  private sharedValue<T>(operation: () => Promise<T>): Promise<T | null> {
    // The head this process remembered may be stale after a failure: read it again next time.
    return this.fallback.run(operation, () => {
      this.head = null;
    });
  }
}
