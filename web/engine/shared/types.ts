import type { ComponentType } from 'react';
import type { ReadonlySignal } from '@preact/signals-react';
import type { ActionDef, FieldDef, ListResource } from '#contract';
import type { LabelT } from '../../i18n/resources/index.js';
import type { ResultRenderer } from '../operation/result-view.js';
import type { ActionTarget } from '../actions/use-action-runner.js';
import type { Row } from './queries.js';
import type { RowLink } from '../actions/row-commands.js';

/**
 * A column the backend does not answer, filled from elsewhere for the rows on screen (who reviewed
 * each withdrawal, from the audit trail). Shown, chosen and saved in views like the others; never
 * exported, since the export reads the backend's rows.
 */
export interface RowAnnotation {
  field: FieldDef;
  /** A hook: the values of the rows on screen, by row id (an empty map while they load). */
  useValues(resource: ListResource, rows: readonly Row[]): ReadonlyMap<string, string>;
}
import type { RelatedList } from '../record/related.js';
import type { ActionContextRenderer } from '../actions/action-context.js';

export type { ActionContextProps, ActionContextRenderer, Described } from '../actions/action-context.js';

/** What the engine's screens take beside their resource: the few things a resource cannot say as data. */

/** What a record's page knows when it draws a resource's own sections (a user's wallet, a group's members). */
export interface DetailRendererProps {
  resource: ListResource;
  /** The GET {path}/detail answer. */
  data: unknown;
  /** The record itself. */
  row: Record<string, unknown>;
  t: LabelT;
  /** Resource ids of the related lists the page shows, so a section does not repeat one of them. */
  related: ReadonlySet<string>;
}
export type DetailRenderer = ComponentType<DetailRendererProps>;

/**
 * A CSV import offered on a list screen: which fields the file's columns fill (the resource's
 * create fields, or the key and an action's inputs), the column that names a record, and, for an
 * import that acts on existing records (bans), the row action it runs on each.
 */
export interface ImportDecl {
  columns: readonly string[];
  key: string;
  action?: string;
}

/** Who a record's history is about: the resource and the record's id. */
export interface RecordHistoryProps {
  resource: ListResource;
  id: string;
}
/**
 * A record's history (an audit trail): drawn in its own section of the record's page when the
 * console has one. The page gives it the record; how it reads and shows the history is its own.
 */
export type RecordHistoryView = ComponentType<RecordHistoryProps>;

export interface ListScreenOptions {
  /** A CSV import of records (or of an action over records named in the file). */
  import?: ImportDecl;
  /** Sections of a record's page beside its fields, drawn from the detail answer. */
  detail?: DetailRenderer;
  /** How the answer of a `showsResult` action is shown, by action name. */
  results?: Readonly<Record<string, ResultRenderer>>;
  /** Something outside the list follows an action at once (the pending-review badge). */
  afterAction?: (action: ActionDef, target: ActionTarget) => void;
  /** How many records wait beyond the list (the pending-review count; null until known): a rise offers to show them. */
  watch?: ReadonlySignal<number | null>;
  annotate?: RowAnnotation;
  /** Commands that open another screen about a row. */
  links?: readonly RowLink[];
  /** Lists shown on a record's page, filtered by the record. */
  related?: readonly RelatedList[];
  /** The history section of a record's page; none is drawn without it. */
  history?: RecordHistoryView;
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
