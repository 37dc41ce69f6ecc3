import type { Permission } from '#contract/permissions';
import type { ImportDecl } from '../engine/shared/types.js';
import type {
  ACTION_CONTEXTS,
  AFTER_ACTIONS,
  DETAIL_VIEWS,
  RELATED_LISTS,
  RESULT_VIEWS,
  WATCHED_COUNTS,
} from './views.js';

/**
 * Screen declarations for the route table: a resource of the contract by id, the kind of engine
 * screen that shows it, and by name the few views it cannot say as data. Ids and names rather than
 * resources and components keep the route table (loaded with the login page) free of the
 * declarations and the screens' code.
 */

export type DetailViewName = keyof typeof DETAIL_VIEWS;
export type ResultViewName = keyof typeof RESULT_VIEWS;
export type AfterActionName = keyof typeof AFTER_ACTIONS;
export type WatchedCountName = keyof typeof WATCHED_COUNTS;

export type RelatedListsName = keyof typeof RELATED_LISTS;
export type ActionContextName = keyof typeof ACTION_CONTEXTS;
/** How the answer of a `showsResult` action is shown, by action name. */
type Results = Readonly<Record<string, ResultViewName>>;

export interface ListScreenDecl {
  /** Replaces the field-by-field view of the detail drawer. */
  detail?: DetailViewName;
  results?: Results;
  /** Something outside the list follows an action at once (the pending-review badge). */
  afterAction?: AfterActionName;
  /** A count of records arriving from elsewhere: a rise offers "N new: show". */
  watch?: WatchedCountName;
  /** A CSV import: the columns, the key column, and the action each row runs (none: each row is created). */
  import?: ImportDecl;
  /** The lists a record's page shows beside the record, filtered by it (views.ts RELATED_LISTS). */
  related?: RelatedListsName;
  /** The header search looks for its records too (by the resource's keyword). */
  search?: boolean;
  /** What a reviewer sees beside the records in a money action's confirmation (fee, net, the user's history). */
  context?: ActionContextName;
  /** Filters the screen opens with (a queue on what still waits). */
  filters?: Readonly<Record<string, string>>;
  /** Keys that run a row action on the current row; j and k then move between rows. */
  keys?: Readonly<Record<string, string>>;
}

/** Which resource of the contract a screen shows, and the permission that resource needs. */
interface ScreenOf {
  id: string;
  permission: Permission;
}

export type ScreenDecl =
  | (ScreenOf & { kind: 'list'; options?: ListScreenDecl })
  | (ScreenOf & { kind: 'settings'; options?: { results?: Results } })
  | (ScreenOf & { kind: 'statistics' })
  | (ScreenOf & { kind: 'operation'; options?: { result?: ResultViewName; preview?: ResultViewName } });

export const listScreen = (id: string, permission: Permission, options?: ListScreenDecl): ScreenDecl => ({
  kind: 'list',
  id,
  permission,
  options,
});
export const settingsScreen = (id: string, permission: Permission, options?: { results?: Results }): ScreenDecl => ({
  kind: 'settings',
  id,
  permission,
  options,
});
export const statisticsScreen = (id: string, permission: Permission): ScreenDecl => ({
  kind: 'statistics',
  id,
  permission,
});
export const operationScreen = (id: string, permission: Permission): ScreenDecl => ({
  kind: 'operation',
  id,
  permission,
});
