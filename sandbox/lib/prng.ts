/**
 * Deterministic random numbers for seeded data: the same seed gives the same users, groups and
 * money on every start, so screenshots, tests and bug reports agree. Math.random is never used.
 */
export class Prng {
  private state: number;

  constructor(seed: number) {
    // Mix the seed so that neighbouring seeds (1, 2, 3...) do not start with similar streams.
    this.state = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ 0xc2b2ae35) >>> 0;
  }

  /** mulberry32: tiny, fast, and good enough for simulated data. A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both ends included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Picks by weight: [[value, weight], ...]. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, weight] of entries) total += weight;
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[entries.length - 1]![0];
  }

  /** Roughly normal (sum of three uniforms), mean 0, spread about ±1. */
  gaussian(): number {
    return (this.next() + this.next() + this.next() - 1.5) / 0.5;
  }

  digits(count: number): string {
    let out = '';
    for (let i = 0; i < count; i++) out += String(this.int(0, 9));
    return out;
  }

  /** A child stream, so adding draws to one part of the seeding does not reshuffle the others. */
  fork(label: number): Prng {
    return new Prng(Math.floor(this.next() * 0xffffffff) ^ label);
  }
}

/** A stable 32-bit hash of a text (FNV-1a), to derive repeatable numbers from user input. */
export function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
