import type { ListResource, OperationResource, SettingsResource, StatisticsResource } from '#contract/resource';
import type { AFTER_ACTIONS, DETAIL_VIEWS, RESULT_VIEWS, WATCHED_COUNTS } from './views.js';

/**
 * Screen declarations for the route table: a resource of the contract, the kind of engine screen
 * that shows it, and by name the few views it cannot say as data. Names rather than components
 * keep the route table (loaded with the login page) free of the screens' code.
 */

export type DetailViewName = keyof typeof DETAIL_VIEWS;
export type ResultViewName = keyof typeof RESULT_VIEWS;
export type AfterActionName = keyof typeof AFTER_ACTIONS;
export type WatchedCountName = keyof typeof WATCHED_COUNTS;
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
}

export type ScreenDecl =
  | { kind: 'list'; resource: ListResource; options?: ListScreenDecl }
  | { kind: 'settings'; resource: SettingsResource; options?: { results?: Results } }
  | { kind: 'statistics'; resource: StatisticsResource }
  | { kind: 'operation'; resource: OperationResource; options?: { result?: ResultViewName; preview?: ResultViewName } };

export const listScreen = (resource: ListResource, options?: ListScreenDecl): ScreenDecl => ({ kind: 'list', resource, options });
export const settingsScreen = (resource: SettingsResource, options?: { results?: Results }): ScreenDecl => ({ kind: 'settings', resource, options });
export const statisticsScreen = (resource: StatisticsResource): ScreenDecl => ({ kind: 'statistics', resource });
export const operationScreen = (resource: OperationResource): ScreenDecl => ({ kind: 'operation', resource });
