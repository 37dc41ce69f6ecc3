import type { ComponentType } from 'react';
import type { FieldDef } from '#contract';
import type { LabelT } from '../../i18n/resources/index.js';

/** A resource as summaries and confirmations read it: its fields and what names a record. */
export interface Described {
  id: string;
  fields: readonly FieldDef[];
  recordFields?: readonly string[];
  /** Where a money action's amount goes (the contract's `payee`). */
  payee?: { field: string; account?: string };
}

export interface ActionContextProps {
  /** The resource as the backend offers it (fields it lacks left out). */
  resource: Described;
  /** The records a money action is about: one, or a selection. */
  rows: readonly Record<string, unknown>[];
  t: LabelT;
}
/** What a reviewer needs beside the records before a money action (fee, net, the user's history). */
export type ActionContextRenderer = ComponentType<ActionContextProps>;
