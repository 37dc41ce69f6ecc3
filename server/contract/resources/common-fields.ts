import type { Permission } from '../permissions.js';
import type { FieldDef, FieldKind } from '../resource.js';

/** Fields many resources share, written once. */

export const ID: FieldDef = { key: 'id', kind: 'number', readOnly: true, column: true, identifier: true };
export const SORTABLE_ID: FieldDef = { ...ID, sortable: true };

/** Display order an administrator edits (lower first). */
export const SORT_ORDER: FieldDef = { key: 'sort', kind: 'number', min: 0, max: 9999, column: true, sortable: true };

export const ENABLED: FieldDef = { key: 'enabled', kind: 'switch', column: true, filter: true };

/** A value the backend sets and the list shows: never in a form. */
export function shown(key: string, kind: FieldKind, extra: Omit<FieldDef, 'key' | 'kind' | 'readOnly' | 'column'> = {}): FieldDef {
  return { key, kind, readOnly: true, column: true, ...extra };
}

/** A resource served at its permission's own path: the permission string is the call prefix. */
export function at<P extends Permission>(permission: P): { path: P; permission: P } {
  return { path: permission, permission };
}

/** Administrators create, edit and delete its records. */
export const EDITABLE = { create: true, edit: true, remove: true } as const;
