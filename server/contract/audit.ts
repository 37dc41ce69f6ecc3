/**
 * The gateway's audit trail, shared by the gateway and the UI: what one entry holds, how the trail
 * is asked for, and the streamed CSV export of a management list (which the gateway records).
 */

/**
 * What an entry records. `change`: a call that changes something (every non-GET /manage call, and
 * the GETs that change state, as the withdrawal sync); `export`: rows that left as a file;
 * `login`, `logout`: sessions; `hold`, `confirm`, `decline`: a change held for a second
 * administrator's approval, and that approval given or refused.
 */
export const AUDIT_KINDS = ['change', 'export', 'login', 'logout', 'hold', 'confirm', 'decline'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** Values an entry may carry: JSON without undefined, so its canonical text is one string. */
export type AuditValue = string | number | boolean | null | AuditValue[] | { [key: string]: AuditValue };
export type AuditRecord = Record<string, AuditValue>;

/** Who called: the backend's user id of the session, and the account it logged in with. */
export interface AuditActor {
  userId: string | null;
  account: string | null;
}

/** How the call ended: the HTTP status the browser got and the envelope's code (the backend's, or the gateway's). */
export interface AuditOutcome {
  status: number;
  code: number | string | null;
  msg?: string;
}

/** One entry as stored: the fields below, chained by `prev` (the hash of the entry before) and `hash` (its own). */
export interface AuditEntry {
  /** Position in the chain, from 1; an anchor stands for the entries before the first one kept. */
  seq: number;
  id: string;
  /** ISO 8601, UTC. */
  time: string;
  /** SHA-256 (hex) of the entry before, over its canonical text; 64 zeros before the first. */
  prev: string;
  /** SHA-256 (hex) of this entry's canonical text without `hash`. */
  hash: string;
  kind: AuditKind;
  actor: AuditActor;
  requestId: string | null;
  /** The client's address, as the gateway determined it. */
  ip: string | null;
  /** The call as the browser made it (path without the query). */
  method: string | null;
  path: string | null;
  /** The contract's resource id (`users`), or `deployment` for the deployment calls; null when unknown. */
  resource: string | null;
  /** The contract's call: save, delete, config, action, run, or an own call's name (runnerSetMoment). */
  call: string | null;
  /** What was done: create, update, delete, saveConfig, an action's name (ban, approve), export, login... */
  action: string | null;
  /** Record ids the call names (`id`, `ids`). */
  targets: string[];
  /**
   * What the records are called (a user's account), by id, where the gateway read them before the
   * change (an edit, an action that declares what it `sets`): a trail that says `wei1805` rather
   * than `102732`. Absent when no record was read.
   */
  names?: Record<string, string>;
  reason: string | null;
  outcome: AuditOutcome | null;
  /** Settings save, record update, an action that declares what it sets: the changed values as they were (null when they could not be read). */
  before?: AuditRecord | null;
  /** Settings save and record update: the changed values as sent; a create: the record sent. Secrets never. */
  after?: AuditRecord;
  /** Other inputs of an action (besides ids and reason), secrets left out. */
  inputs?: AuditRecord;
  /** An export: the list's filters and how many rows left. */
  export?: { filters: Record<string, string>; rows: number; format: 'csv' };
  /** Anything else a kind carries (a hold's id). */
  detail?: AuditRecord;
  /**
   * What the entry's size bound (8 KB) left out, by member: characters of `path`, `reason` and
   * `targetChars` (the ids' text), ids of `targets`, bytes of a value given up (`after`, `detail`...).
   * Absent when nothing was cut.
   */
  cut?: Record<string, number>;
}

export interface AuditPage {
  list: AuditEntry[];
  total: number;
}

/** Written in place of a secret that changed; the value itself is never recorded. */
export const AUDIT_SECRET_CHANGED = '[changed]';

export const AUDIT_LIMITS = {
  pageSizeMax: 200,
  /** Entries the history of records answers at most. */
  historyMax: 200,
  /** Record ids one history question may name. */
  historyTargetsMax: 200,
  /** Rows the CSV of the audit trail holds at most. */
  csvMax: 100_000,
} as const;

/** GET /api/audit: every filter is optional; `actor` is an account or a user id, `since`/`until` ISO dates or times. */
export interface AuditQueryParams {
  pageNum?: number;
  pageSize?: number;
  actor?: string;
  resource?: string;
  action?: string;
  target?: string;
  kind?: AuditKind;
  since?: string;
  until?: string;
  format?: 'json' | 'csv';
}

/** One column of a streamed CSV export, labelled in the reader's language by the UI. */
export interface ExportColumn {
  key: string;
  label: string;
  kind: string;
  /** How stored values read (select options, yes/no, module names): value -> label. */
  values?: Record<string, string>;
}

/** POST /api/export: the list call's filters (without paging) and the columns to write. */
export interface ExportRequest {
  resource: string;
  query: Record<string, string>;
  columns: ExportColumn[];
}

/** Rows one export holds at most, read from the backend this many at a time. */
export const EXPORT_LIMITS = {
  maxRows: 10_000,
  pageSize: 200,
  maxColumns: 100,
} as const;

/** Answer headers of an export: how many rows the filtered list holds, and how many the file does. */
export const EXPORT_TOTAL_HEADER = 'x-export-total';
export const EXPORT_ROWS_HEADER = 'x-export-rows';
