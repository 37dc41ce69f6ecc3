import type { FieldKind, Resource } from '../../server/contract/index.js';

/**
 * How the legacy dialect writes the contract's fields: a typical Java admin backend's names
 * (createTime, nickName, sortOrder), money as yuan with two decimals, switches as 0/1, a status as
 * its position in the option list, and times as "yyyy-MM-dd HH:mm:ss" in China Standard Time.
 * Written apart from the gateway's backend map on purpose: the map that binds this dialect is
 * tested against an independent reading of it.
 */

type Row = Record<string, unknown>;

/** The dialect's own names for some of the contract's fields. */
const RENAMES: Readonly<Record<string, string>> = {
  registerTime: 'createTime',
  nickname: 'nickName',
  lastLoginTime: 'lastLoginDate',
  sort: 'sortOrder',
  userAccount: 'userName',
};

/** Beijing time, as the dialect's times are written. */
export const LEGACY_OFFSET_MS = 8 * 3600_000;

interface LegacyField {
  key: string;
  name: string;
  kind: FieldKind;
  /** A status written as its index in these options. */
  codes: readonly string[] | null;
}

const two = (n: number) => String(n).padStart(2, '0');

export function legacyTime(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const d = new Date(ms + LEGACY_OFFSET_MS);
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

export function isoFromLegacy(text: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m) return null;
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) - LEGACY_OFFSET_MS).toISOString();
}

/** The contract's day of a legacy "yyyy-MM-dd HH:mm:ss" bound: the day it falls on in Beijing. */
export function dayFromLegacy(text: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})/.exec(text);
  return m ? m[1]! : text;
}

function fieldsOf(resource: Resource): { key: string; kind: FieldKind; options?: readonly string[] }[] {
  switch (resource.kind) {
    case 'list':
    case 'settings':
      return [...resource.fields];
    case 'statistics':
      return [{ key: 'date', kind: 'date' }, ...resource.series];
    case 'operation':
      return [...resource.inputs];
  }
}

export class LegacyFields {
  private readonly byKey = new Map<string, LegacyField>();
  private readonly byName = new Map<string, LegacyField>();

  constructor(resource: Resource) {
    const keys = new Set(fieldsOf(resource).map((f) => f.key));
    for (const f of fieldsOf(resource)) {
      const renamed = RENAMES[f.key];
      // Never onto a name the resource already uses for another field.
      const name = renamed && !keys.has(renamed) ? renamed : f.key;
      const field: LegacyField = {
        key: f.key,
        name,
        kind: f.kind,
        codes: f.key === 'status' && f.kind === 'select' && f.options ? f.options : null,
      };
      this.byKey.set(f.key, field);
      this.byName.set(name, field);
    }
  }

  /** Every field whose name, unit or values the dialect changes, for writing the map that binds it. */
  fields(): LegacyField[] {
    return [...this.byKey.values()];
  }

  nameOf(key: string): string {
    return this.byKey.get(key)?.name ?? key;
  }

  keyOf(name: string): string {
    return this.byName.get(name)?.key ?? name;
  }

  encode(key: string, value: unknown): unknown {
    const field = this.byKey.get(key);
    if (!field || value === null || value === undefined) return value;
    if (field.codes && typeof value === 'string' && field.codes.includes(value)) return field.codes.indexOf(value);
    switch (field.kind) {
      case 'money':
        return typeof value === 'number' ? Math.round(value) / 100 : value;
      case 'switch':
        return typeof value === 'boolean' ? (value ? 1 : 0) : value;
      case 'datetime':
        return typeof value === 'string' ? legacyTime(value) : value;
      default:
        return value;
    }
  }

  decode(name: string, value: unknown): unknown {
    const field = this.byName.get(name);
    if (!field || value === null || value === undefined) return value;
    if (field.codes && (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))))
      return field.codes[Number(value)] ?? value;
    switch (field.kind) {
      case 'money': {
        const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
        return typeof n === 'number' && Number.isFinite(n) ? Math.round(n * 100) : value;
      }
      case 'switch':
        if (value === 1 || value === '1') return true;
        if (value === 0 || value === '0') return false;
        return value;
      case 'datetime':
        return typeof value === 'string' ? (isoFromLegacy(value) ?? value) : value;
      default:
        return value;
    }
  }

  /** Both ways keyed by names a client or backend chose: null-prototype rows keep `__proto__` a member. */
  toLegacy(row: Row): Row {
    const out: Row = Object.create(null) as Row;
    for (const key in row) out[this.nameOf(key)] = this.encode(key, row[key]);
    return out;
  }

  fromLegacy(row: Row): Row {
    const out: Row = Object.create(null) as Row;
    for (const name in row) out[this.keyOf(name)] = this.decode(name, row[name]);
    return out;
  }
}
