import type { Permission } from '../permissions.js';
import type { FieldDef, FieldKind } from '../resource.js';

/**
 * Fields many resources share, written once. Each keeps its literal key and kind (rather than the
 * wide FieldDef) so that a record's type can be read off a declaration (the sandbox's RecordOf).
 */

export const ID = {
  key: 'id',
  kind: 'number',
  readOnly: true,
  column: true,
  identifier: true,
} as const satisfies FieldDef;
export const SORTABLE_ID = { ...ID, sortable: true } as const satisfies FieldDef;

/** Display order an administrator edits (lower first). */
export const SORT_ORDER = {
  key: 'sort',
  kind: 'number',
  min: 0,
  max: 9999,
  column: true,
  sortable: true,
} as const satisfies FieldDef;

export const ENABLED = { key: 'enabled', kind: 'switch', column: true, filter: true } as const satisfies FieldDef;

type ShownExtra = Omit<FieldDef, 'key' | 'kind' | 'readOnly' | 'column'>;

/** A value the backend sets and the list shows: never in a form. */
export function shown<
  const K extends string,
  const Kind extends FieldKind,
  const E extends ShownExtra = Record<never, never>,
>(key: K, kind: Kind, extra: E = {} as E): { key: K; kind: Kind; readOnly: true; column: true } & E {
  return { key, kind, readOnly: true, column: true, ...extra };
}

/** A resource served at its permission's own path: the permission string is the call prefix. */
export function at<P extends Permission>(permission: P): { path: P; permission: P } {
  return { path: permission, permission };
}

/** Administrators create, edit and delete its records. */
export const EDITABLE = { create: true, edit: true, remove: true } as const;
