import type { KeyCase } from './types.js';

/**
 * A backend's key case, both ways, for the keys a map does not name one by one: the console's
 * camelCase keys to the backend's (pageNum to page_num) and the backend's back (login_ip to
 * loginIp). Keys come from answers, so each direction remembers what it converted, up to a bound
 * that an answer full of odd keys cannot push memory past.
 */

type Row = Record<string, unknown>;

const REMEMBERED = 4096;

function words(camel: string): string[] {
  return camel.split(/(?<=[a-z0-9])(?=[A-Z])/).map((w) => w.toLowerCase());
}

function toTheirs(key: string, rule: KeyCase): string {
  if (rule === 'camel') return key;
  const parts = words(key);
  if (rule === 'snake') return parts.join('_');
  if (rule === 'kebab') return parts.join('-');
  return parts.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

function toOurs(name: string, rule: KeyCase): string {
  if (rule === 'pascal') return name.charAt(0).toLowerCase() + name.slice(1);
  if (rule === 'camel') return name;
  const separator = rule === 'snake' ? '_' : '-';
  // A leading or doubled separator is part of the name, not a word break: kept as written.
  if (name.startsWith(separator)) return name;
  return name.replace(new RegExp(`${separator}([a-z0-9])`, 'g'), (_m, c: string) => c.toUpperCase());
}

export class KeyCaseRule {
  private readonly out = new Map<string, string>();
  private readonly back = new Map<string, string>();

  constructor(readonly rule: KeyCase) {}

  /** The backend's name of a console key. */
  theirs(key: string): string {
    return remember(this.out, key, () => toTheirs(key, this.rule));
  }

  /** The console's key of a backend name. */
  ours(name: string): string {
    return remember(this.back, name, () => toOurs(name, this.rule));
  }

  /** Every key of a value the map binds nothing inside (an object or a list of them), converted. */
  deep(value: unknown, way: 'ours' | 'theirs'): unknown {
    if (Array.isArray(value)) return value.map((v) => this.deep(v, way));
    if (typeof value !== 'object' || value === null) return value;
    const out: Row = {};
    for (const key in value as Row)
      out[way === 'ours' ? this.ours(key) : this.theirs(key)] = this.deep((value as Row)[key], way);
    return out;
  }
}

function remember(cache: Map<string, string>, key: string, make: () => string): string {
  let hit = cache.get(key);
  if (hit === undefined) {
    hit = make();
    if (cache.size < REMEMBERED) cache.set(key, hit);
  }
  return hit;
}

/** A rule, or null when keys pass as they are (no rule, or the console's own camelCase). */
export function keyCaseRule(rule: KeyCase | undefined): KeyCaseRule | null {
  return rule && rule !== 'camel' ? new KeyCaseRule(rule) : null;
}
