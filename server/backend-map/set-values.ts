import type { Bound } from './bound.js';
import type { FieldBinding } from './fields.js';
import { parsePointer, readPointer } from './pointer.js';

type Row = Record<string, unknown>;

/**
 * A call's `set` and relations read out of its answer's data: each `set` value by its pointer,
 * mapped through the fields as the console's key; each relation mapped through its own fields.
 * `unless` leaves everything out when the answer says the values mean nothing (ejabberd's get_last
 * of an account that never logged in).
 */
/** What a per-row call adds to its row: `set` values read as the console's, and relations mapped. */
export function rowValues(part: Bound, fields: FieldBinding, data: unknown): Row {
  const backend: Row = {};
  for (const [pointer, values] of Object.entries(part.call.unless ?? {})) {
    const found = readPointer(data, parsePointer(pointer));
    if (values.some((v) => v === found)) return {};
  }
  for (const [key, pointer] of Object.entries(part.call.set ?? {})) {
    const value = readPointer(data, parsePointer(pointer));
    if (value !== undefined) backend[fields.nameOf(key)] = value;
  }
  const out = fields.fromBackend(backend);
  for (const [key, pointer] of Object.entries(part.call.count ?? {})) {
    const list = readPointer(data, parsePointer(pointer));
    if (Array.isArray(list)) out[key] = list.length;
  }
  for (const relation of part.relations) {
    const value = readPointer(data, relation.at);
    if (Array.isArray(value))
      out[relation.key] = value.map((item) =>
        typeof item === 'object' && item !== null ? relation.fields.fromBackend(item as Row) : item,
      );
    else if (typeof value === 'object' && value !== null) out[relation.key] = relation.fields.fromBackend(value as Row);
  }
  return out;
}

/** True when a call reads its answer by `set`: its data is then the values set, not the answer's own shape. */
export function readsBySet(bound: Bound): boolean {
  return bound.call.set !== undefined || bound.call.count !== undefined;
}
