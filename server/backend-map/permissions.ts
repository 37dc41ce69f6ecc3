import { ALL_PERMISSIONS } from '../contract/index.js';
import { parsePointer, type Pointer } from './pointer.js';
import type { PermissionList, PermissionsMap } from './types.js';

/**
 * A map's `permissions`, compiled. `fixed` answers from the session alone (all, or a table over a
 * value the login kept); `call` names the backend call whose answer holds the list.
 */
export type PermissionRule =
  | { kind: 'fixed'; of(kept: Readonly<Record<string, string>> | undefined): readonly string[] }
  | { kind: 'call'; method: 'GET' | 'POST'; path: string; list: Pointer };

function expand(list: PermissionList): readonly string[] {
  return list === 'all' ? ALL_PERMISSIONS : list;
}

export function compilePermissions(map: PermissionsMap): PermissionRule {
  if (map === 'all') return { kind: 'fixed', of: () => ALL_PERMISSIONS };
  if ('call' in map)
    return { kind: 'call', method: map.call.method ?? 'GET', path: map.call.path, list: parsePointer(map.list) };
  const table = new Map(Object.entries(map.table).map(([value, list]) => [value, expand(list)]));
  const otherwise = expand(map.otherwise ?? []);
  return {
    kind: 'fixed',
    // A value the table does not name (or none kept) gets `otherwise`: by default nothing.
    of: (kept) => {
      const value = kept?.[map.from];
      return (value !== undefined && table.get(value)) || otherwise;
    },
  };
}
