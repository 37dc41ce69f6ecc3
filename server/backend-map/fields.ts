import type { FieldKind, Resource } from '../contract/index.js';
import type { FieldMap } from './types.js';
import { valueCodec, type ValueCodec } from './values.js';

/** One field of a resource as the map binds it. */
export interface BoundField {
  key: string;
  kind: FieldKind;
  /** The backend's name. */
  name: string;
  absent: boolean;
  codec: ValueCodec | null;
}

type Row = Record<string, unknown>;

/** The kinds of every field key a resource's calls carry. */
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
 * The fields of one resource, both ways. Built once at start; mapping a row is then a loop over
 * its members with two map look-ups each.
 */
export class FieldBinding {
  readonly byKey = new Map<string, BoundField>();
  private readonly byName = new Map<string, BoundField>();
  /** Backend members that would land on a console key the map moved elsewhere: dropped. */
  private readonly shadowed = new Set<string>();
  /** True when no field is renamed, transformed or absent: rows pass unchanged. */
  readonly identity: boolean;

  constructor(resource: Resource, maps: Record<string, FieldMap>, offset: number) {
    for (const [key, kind] of fieldKinds(resource)) {
      const map = maps[key] ?? {};
      const field: BoundField = { key, kind, name: map.name ?? key, absent: map.absent === true, codec: valueCodec(kind, map, offset) };
      this.byKey.set(key, field);
      if (!field.absent) this.byName.set(field.name, field);
    }
    for (const field of this.byKey.values()) if (field.name !== field.key && !this.byName.has(field.key)) this.shadowed.add(field.key);
    this.identity = [...this.byKey.values()].every((f) => f.name === f.key && !f.absent && f.codec === null);
  }

  /** A backend record as the console's. */
  fromBackend(row: Row): Row {
    if (this.identity) return row;
    // The backend's member names land here as keys: `__proto__` stays a member, never a prototype.
    const out: Row = Object.create(null) as Row;
    for (const name in row) {
      const value = row[name];
      const field = this.byName.get(name);
      if (field) out[field.key] = field.codec ? field.codec.fromBackend(value) : value;
      else if (!this.shadowed.has(name)) out[name] = value;
    }
    return out;
  }

  /** The console's key of a backend field name (a refused form field, say). */
  keyOf(name: string): string {
    return this.byName.get(name)?.key ?? name;
  }

  /** The console's value of one field as the backend's: [name, value], or null for an absent field. */
  toBackend(key: string, value: unknown): [string, unknown] | null {
    const field = this.byKey.get(key);
    if (!field) return [key, value];
    if (field.absent) return null;
    return [field.name, field.codec ? field.codec.toBackend(value) : value];
  }
}
