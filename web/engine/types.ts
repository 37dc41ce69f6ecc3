import type { ComponentType } from 'react';
import type { ActionDef, ListResource, OperationResource, SettingsResource, StatisticsResource } from '../../server/contract/index.js';
import type { LabelT } from '../i18n/resources/index.js';
import type { ResultRenderer } from './result-view.js';
import type { ActionTarget } from './use-action-runner.js';

/** Screen declarations: a resource of the contract plus the few things it cannot say as data. */

export interface DetailRendererProps {
  resource: ListResource;
  /** The GET {path}/detail answer. */
  data: unknown;
  /** The list row the drawer was opened from. */
  row: Record<string, unknown>;
  t: LabelT;
}
export type DetailRenderer = ComponentType<DetailRendererProps>;

export interface ListScreenOptions {
  /** Replaces the field-by-field view of the detail drawer. */
  detail?: DetailRenderer;
  /** How the answer of a `showsResult` action is shown, by action name. */
  results?: Readonly<Record<string, ResultRenderer>>;
  /** Something outside the list follows an action at once (the pending-review badge). */
  afterAction?: (action: ActionDef, target: ActionTarget) => void;
}

export interface SettingsScreenOptions {
  results?: Readonly<Record<string, ResultRenderer>>;
}

export interface OperationScreenOptions {
  result?: ResultRenderer;
  preview?: ResultRenderer;
}

export type ScreenDecl =
  | { kind: 'list'; resource: ListResource; options?: ListScreenOptions }
  | { kind: 'settings'; resource: SettingsResource; options?: SettingsScreenOptions }
  | { kind: 'statistics'; resource: StatisticsResource }
  | { kind: 'operation'; resource: OperationResource; options?: OperationScreenOptions };

export const listScreen = (resource: ListResource, options?: ListScreenOptions): ScreenDecl => ({ kind: 'list', resource, options });
export const settingsScreen = (resource: SettingsResource, options?: SettingsScreenOptions): ScreenDecl => ({ kind: 'settings', resource, options });
export const statisticsScreen = (resource: StatisticsResource): ScreenDecl => ({ kind: 'statistics', resource });
export const operationScreen = (resource: OperationResource, options?: OperationScreenOptions): ScreenDecl => ({ kind: 'operation', resource, options });
