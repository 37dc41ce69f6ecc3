import type { Bound } from './bound.js';
import type { FieldBinding } from './fields.js';
import { readPointer, type Pointer } from './pointer.js';

/**
 * A record answer's shape: the record the map points at, mapped through the resource's fields,
 * and its relations (a user's wallet, logins and groups; a group's members; a tester's hits), each
 * mapped through its own fields and set under its console key. A relation the backend keeps among
 * the record's own members (a flat detail) is taken out of the record.
 */

type Row = Record<string, unknown>;

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

function mapRelation(value: unknown, fields: FieldBinding): unknown {
  if (Array.isArray(value)) return value.map((item) => (isRow(item) ? fields.fromBackend(item) : item));
  return isRow(value) ? fields.fromBackend(value) : value;
}

/** Sets a member at a pointer, making the objects on the way. */
function place(root: Row, at: Pointer, value: unknown): void {
  let parent = root;
  for (const token of at.slice(0, -1)) {
    if (!isRow(parent[token])) parent[token] = {};
    parent = parent[token] as Row;
  }
  parent[at[at.length - 1]!] = value;
}

/** The record where the backend had it, mapped; the rest of data copied so the parsed answer stays as it was. */
function inPlace(data: Row, at: Pointer, fields: FieldBinding): unknown {
  if (at.length === 0) return fields.fromBackend(data);
  const inner = readPointer(data, at);
  if (!isRow(inner)) return data;
  const copy = structuredClone(data);
  let parent: Row = copy;
  for (const token of at.slice(0, -1)) parent = parent[token] as Row;
  parent[at[at.length - 1]!] = fields.fromBackend(inner);
  return copy;
}

export function shapeRecord(data: unknown, bound: Bound, fields: FieldBinding): unknown {
  if (!isRow(data)) return data;
  if (bound.recordAs === null && bound.relations.length === 0) return inPlace(data, bound.record, fields);
  const related: [string, unknown][] = [];
  let rest: Row = data;
  for (const relation of bound.relations) {
    const value = readPointer(data, relation.at);
    if (value !== undefined) related.push([relation.key, mapRelation(value, relation.fields)]);
    if (relation.at.length === 1 && Object.hasOwn(rest, relation.at[0]!)) {
      if (rest === data) rest = { ...data };
      delete rest[relation.at[0]!];
    }
  }
  let out: Row;
  if (bound.recordAs) {
    const inner = readPointer(rest, bound.record);
    out = {};
    // An empty `recordAs` lifts a nested record to the top of data (OpenIM's `{config: {...}}`).
    if (isRow(inner)) {
      if (bound.recordAs.length === 0) out = fields.fromBackend(inner);
      else place(out, bound.recordAs, fields.fromBackend(inner));
    }
  } else {
    const shaped = inPlace(rest, bound.record, fields);
    out = isRow(shaped) ? (shaped === rest && rest === data ? { ...rest } : shaped) : {};
  }
  for (const [key, value] of related) out[key] = value;
  return out;
}
