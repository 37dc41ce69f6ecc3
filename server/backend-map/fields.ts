import type { FieldKind, Resource } from '../contract/index.js';
import type { KeyCaseRule } from './key-case.js';
import type { FieldMap, IdType } from './types.js';
import { valueCodec, type ValueCodec } from './values.js';
import { futureCodec } from './clock-values.js';

/** One field of a resource as the map binds it. */
export interface BoundField {
  key: string;
  kind: FieldKind;
  /** The backend's name. */
  name: string;
  absent: boolean;
  /** The backend lists records but cannot filter them by this field (`filter: false`). */
  unfiltered: boolean;
  codec: ValueCodec | null;
}

type Row = Record<string, unknown>;

/**
 * Every field key a resource's calls carry, with its kind: a screen's fields, a statistics row's
 * (its date, dimension and series), an operation's inputs. Its keys are the fields a map may bind.
 */
export function fieldKinds(resource: Resource): Map<string, FieldKind> {
  const kinds = new Map<string, FieldKind>();
  switch (resource.kind) {
    case 'list':
    case 'settings':
      for (const f of resource.fields) kinds.set(f.key, f.kind);
      break;
    case 'statistics':
      kinds.set('date', 'date');
      if (resource.dimension) kinds.set(resource.dimension.key, 'select');
      for (const s of resource.series) kinds.set(s.key, s.kind);
      break;
    case 'operation':
      for (const f of resource.inputs) kinds.set(f.key, f.kind);
      break;
  }
  return kinds;
}

/**
 * A resource's field kinds as a map binds them: the contract's, and the backend fields outside it
 * the map shows on the record page (`shown`), so their values are read as that kind.
 */
export function boundKinds(resource: Resource, maps: Record<string, FieldMap>): Map<string, FieldKind> {
  const kinds = fieldKinds(resource);
  for (const [key, map] of Object.entries(maps)) if (map.shown && !kinds.has(key)) kinds.set(key, map.shown);
  return kinds;
}

/**
 * The kind of a field the contract types only in TypeScript (a detail's wallet, logins, members),
 * told from its binding: what the codecs need to read a value back as the console's.
 */
export function inferredKind(map: FieldMap): FieldKind {
  if (map.future) return 'switch';
  if (map.money) return 'money';
  if (map.time) return map.time === 'yyyy-MM-dd' ? 'date' : 'datetime';
  if (map.id) return 'number';
  const keys = map.values ? Object.keys(map.values) : [];
  if (keys.length > 0 && keys.every((k) => k === 'true' || k === 'false')) return 'switch';
  if (keys.length > 0 && keys.every((k) => k.trim() !== '' && Number.isFinite(Number(k)))) return 'number';
  return 'text';
}

export interface BindingRules {
  offset: number;
  keyCase: KeyCaseRule | null;
  /** The resource's ids as the backend writes them: applies to its `id` field and `ids` parameter. */
  id?: IdType | undefined;
}

/**
 * The fields of one resource (or of one record inside its answers), both ways. Built once at
 * start; mapping a row is then a loop over its members with two map look-ups each.
 */
export class FieldBinding {
  readonly byKey = new Map<string, BoundField>();
  /**
   * The console's fields of each backend member: usually one, two where the map binds a member
   * both as the row's id and as a field of its own (OpenIM's invitation code, a blacklisted IP).
   */
  private readonly byName = new Map<string, BoundField[]>();
  /** Backend members that would land on a console key the map moved elsewhere: dropped. */
  private readonly shadowed = new Set<string>();
  private readonly keyCase: KeyCaseRule | null;
  private readonly ids: ValueCodec | null;
  /** The backend's fields outside the contract (`shown`): read back, never taken from the console. */
  readonly shown = new Set<string>();
  /** True when no field is renamed, transformed or absent and no key case applies: rows pass unchanged. */
  readonly identity: boolean;

  constructor(kinds: ReadonlyMap<string, FieldKind>, maps: Record<string, FieldMap>, rules: BindingRules) {
    this.keyCase = rules.keyCase;
    this.ids = rules.id ? valueCodec('ids', 'number', { id: rules.id }, 0) : null;
    for (const [key, kind] of kinds) {
      const own = maps[key] ?? {};
      const map = key === 'id' && rules.id && own.id === undefined ? { ...own, id: rules.id } : own;
      const name = map.name ?? (this.keyCase ? this.keyCase.theirs(key) : key);
      const field: BoundField = {
        key,
        kind,
        name,
        absent: map.absent === true,
        unfiltered: map.filter === false,
        codec: map.future ? futureCodec(map.future, rules.offset) : valueCodec(key, kind, map, rules.offset),
      };
      this.byKey.set(key, field);
      if (map.shown) this.shown.add(key);
      if (!field.absent) this.byName.set(field.name, [...(this.byName.get(field.name) ?? []), field]);
    }
    for (const field of this.byKey.values())
      if (field.name !== field.key && !this.byName.has(field.key)) this.shadowed.add(field.key);
    this.identity =
      this.keyCase === null && [...this.byKey.values()].every((f) => f.name === f.key && !f.absent && f.codec === null);
  }

  static forResource(resource: Resource, maps: Record<string, FieldMap>, rules: BindingRules): FieldBinding {
    return new FieldBinding(boundKinds(resource, maps), maps, rules);
  }

  /** A backend record as the console's. */
  fromBackend(row: Row): Row {
    if (this.identity) return row;
    // The backend's member names land here as keys: `__proto__` stays a member, never a prototype.
    const out: Row = Object.create(null) as Row;
    const rule = this.keyCase;
    for (const name in row) {
      const value = row[name];
      const fields = this.byName.get(name);
      if (fields) for (const field of fields) out[field.key] = field.codec ? field.codec.fromBackend(value) : value;
      else if (rule) {
        const key = rule.ours(name);
        if (!this.shadowed.has(key)) out[key] = rule.deep(value, 'ours');
      } else if (!this.shadowed.has(name)) out[name] = value;
    }
    return out;
  }

  /** The console's key of a backend field name (a refused form field, say). */
  keyOf(name: string): string {
    return this.byName.get(name)?.[0]?.key ?? (this.keyCase ? this.keyCase.ours(name) : name);
  }

  /** The backend's name of a console key, bound or not. */
  nameOf(key: string): string {
    return this.byKey.get(key)?.name ?? (this.keyCase ? this.keyCase.theirs(key) : key);
  }

  /** The console's value of one field as the backend's: [name, value], or null for an absent field. */
  toBackend(key: string, value: unknown): [string, unknown] | null {
    const field = this.byKey.get(key);
    if (!field) {
      const named = this.keyCase ? this.keyCase.theirs(key) : key;
      if (key === 'ids' && this.ids) return [named, this.ids.toBackend(value)];
      return [named, this.keyCase ? this.keyCase.deep(value, 'theirs') : value];
    }
    if (field.absent) return null;
    return [field.name, field.codec ? field.codec.toBackend(value) : value];
  }
}
