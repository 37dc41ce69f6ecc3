import type { ComponentType } from 'react';
import type { ReadonlySignal } from '@preact/signals-react';
import type { ActionDef, ListResource } from '#contract';
import type { LabelT } from '../i18n/resources/index.js';
import type { ResultRenderer } from './result-view.js';
import type { ActionTarget } from './use-action-runner.js';
import type { ActionContextRenderer } from './action-context.js';

export type { ActionContextProps, ActionContextRenderer, Described } from './action-context.js';

/** What the engine's screens take beside their resource: the few things a resource cannot say as data. */

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
  /** How many records wait beyond the list (the pending-review count; null until known): a rise offers to show them. */
  watch?: ReadonlySignal<number | null>;
  /** Shown in the confirmation of a money action, and of its held call, under the records. */
  context?: ActionContextRenderer;
  /** Filters the screen opens with when its address names none (`state: 'pending'`). */
  defaultFilters?: Readonly<Record<string, string>>;
  /** Keys that run a row action on the current row (`a` → approve); j and k then move between rows. */
  keys?: Readonly<Record<string, string>>;
}

export interface SettingsScreenOptions {
  results?: Readonly<Record<string, ResultRenderer>>;
}

export interface OperationScreenOptions {
  result?: ResultRenderer;
  preview?: ResultRenderer;
}
