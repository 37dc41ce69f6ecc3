import type { CLEAN_TARGETS } from '../../server/contract/index.js';
import type { Prng } from '../lib/prng.js';
import { DAY, iso, startOfDay } from '../lib/time.js';
import type { Collection, Identified } from './collection.js';

type Target = (typeof CLEAN_TARGETS)[number];

/** Stored data the sandbox keeps only as daily totals (it holds no message bodies or files). */
interface Bucket {
  day: number;
  count: number;
  bytes: number;
}

export interface CleanPreview {
  count: number;
  bytes: number;
  oldest: string | null;
}

interface RecordTable {
  table: Collection<Identified & Record<string, unknown>>;
  timeField: string;
  bytesEach: number;
}

/**
 * What the data clean-up page removes: chat messages, moments and files as daily buckets over the
 * seeded history, login records and operation logs as the real tables, so a clean-up shows in
 * their lists and a second preview finds less.
 */
export class DataCleaner {
  private readonly buckets = new Map<Target, Bucket[]>();

  constructor(
    prng: Prng,
    userCount: number,
    now: number,
    historyDays: number,
    private readonly tables: Partial<Record<Target, RecordTable>>,
  ) {
    const today = startOfDay(now);
    const shapes: [Target, perUserPerDay: number, bytesEach: number][] = [
      ['chatMessages', 6, 180],
      ['moments', 0.05, 2_400],
      ['files', 0.08, 850_000],
    ];
    for (const [target, rate, bytesEach] of shapes) {
      const list: Bucket[] = [];
      for (let d = historyDays; d >= 0; d--) {
        // The user base grew over the history, so older days hold less.
        const share = 0.2 + 0.8 * (1 - d / historyDays);
        const count = Math.round(userCount * rate * share * (0.8 + prng.next() * 0.4));
        list.push({ day: today - d * DAY, count, bytes: Math.round(count * bytesEach * (0.7 + prng.next() * 0.6)) });
      }
      this.buckets.set(target, list);
    }
  }

  private cutoff(olderThanDays: number, now: number): number {
    return startOfDay(now) - olderThanDays * DAY;
  }

  preview(target: Target, olderThanDays: number, now: number): CleanPreview {
    const cutoff = this.cutoff(olderThanDays, now);
    const table = this.tables[target];
    if (table) {
      const limit = iso(cutoff);
      let count = 0;
      let oldest: string | null = null;
      for (const row of table.table.all()) {
        const time = String(row[table.timeField]);
        if (time >= limit) continue;
        count++;
        if (oldest === null || time < oldest) oldest = time;
      }
      return { count, bytes: count * table.bytesEach, oldest };
    }
    const result: CleanPreview = { count: 0, bytes: 0, oldest: null };
    for (const bucket of this.buckets.get(target) ?? []) {
      if (bucket.day >= cutoff || bucket.count === 0) continue;
      result.count += bucket.count;
      result.bytes += bucket.bytes;
      result.oldest ??= iso(bucket.day);
    }
    return result;
  }

  clean(target: Target, olderThanDays: number, now: number): { removed: number; bytes: number } {
    const cutoff = this.cutoff(olderThanDays, now);
    const table = this.tables[target];
    if (table) {
      const limit = iso(cutoff);
      const removed = table.table.removeWhere((row) => String(row[table.timeField]) < limit);
      return { removed: removed.length, bytes: removed.length * table.bytesEach };
    }
    const list = this.buckets.get(target) ?? [];
    let removed = 0;
    let bytes = 0;
    this.buckets.set(
      target,
      list.filter((bucket) => {
        if (bucket.day >= cutoff) return true;
        removed += bucket.count;
        bytes += bucket.bytes;
        return false;
      }),
    );
    return { removed, bytes };
  }
}
